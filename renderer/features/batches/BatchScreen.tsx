import type { ReactElement } from 'react';

export function BatchScreen({ id: _id }: { id: string }): ReactElement {
  return <div className="page">BatchScreen</div>;
}
