import type { ReactElement } from 'react';
import type { BatchStatus } from '../../api/types';
import { useT, type MessageKey } from '../../i18n/i18n';

const TONES: Record<BatchStatus, string> = {
  queued: '',
  running: 'accent running',
  succeeded: 'success',
  partial: 'warning',
  failed: 'danger',
  degraded: 'danger',
  cancelled: '',
};

export function StatusBadge({ status }: { status: BatchStatus }): ReactElement {
  const t = useT();
  return (
    <span className={`badge ${TONES[status]}`} data-status={status}>
      {t(`status.${status}` as MessageKey)}
    </span>
  );
}
