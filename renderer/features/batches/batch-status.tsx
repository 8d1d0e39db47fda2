import type { ReactElement } from 'react';
import type { Batch, BatchStatus } from '../../api/types';
import { useT, type MessageKey } from '../../i18n/i18n';

export const LIVE_STATUSES: readonly BatchStatus[] = ['queued', 'running'];

export function isLive(batch: Pick<Batch, 'status'>): boolean {
  return LIVE_STATUSES.includes(batch.status);
}

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
