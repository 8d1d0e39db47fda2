import type { ReactElement } from 'react';

export function CreditsScreen(): ReactElement {
  return <div className="page">CreditsScreen</div>;
}
