import type { ReactElement } from 'react';

export function BatchesScreen(): ReactElement {
  return <div className="page">BatchesScreen</div>;
}
