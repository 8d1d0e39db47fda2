import type { ReactElement } from 'react';

export function BrandScreen(): ReactElement {
  return <div className="page">BrandScreen</div>;
}
