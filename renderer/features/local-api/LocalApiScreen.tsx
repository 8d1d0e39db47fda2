import type { ReactElement } from 'react';

export function LocalApiScreen(): ReactElement {
  return <div className="page">LocalApiScreen</div>;
}
