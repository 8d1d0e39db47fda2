import type { ReactElement } from 'react';

export function BatchWizard({ templateId: _templateId }: { templateId: string | null }): ReactElement {
  return <div className="page">BatchWizard</div>;
}
