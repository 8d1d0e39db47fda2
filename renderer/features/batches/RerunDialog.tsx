import { useId, type ReactElement } from 'react';
import { MAX_SOURCE_ROWS } from '../../../shared/batch-limits';
import { api } from '../../api/client';
import type { Batch } from '../../api/types';
import { Button } from '../../components/ui';
import { useModalDialog } from '../../components/use-modal-dialog';
import { useT } from '../../i18n/i18n';

/** What "Edit mapping and rerun" can draw again: the failed rows, or every row of the batch. */
export interface RerunChoice {
  /** The spreadsheet rows (0-based) that failed, each once. */
  failed: number[];
  /** The batch's rows: every row of the sheet, or the rows it was itself limited to. */
  all: number;
}

/**
 * The spreadsheet rows behind a batch's failed results. A batch of several sizes has one result
 * per row and size (rowIndex = row × sizes + size), so a row failing in two sizes counts once.
 */
export async function failedSourceRows(batch: Batch): Promise<number[]> {
  const per = batch.targets && batch.targets.length > 1 ? batch.targets.length : 1;
  const rows = new Set<number>();
  let cursor: string | null = '0';
  while (cursor !== null) {
    const page = await api.batches.manifest(batch.id, { cursor, limit: 1000, status: 'failed' });
    for (const row of page.rows) rows.add(Math.floor(row.rowIndex / per));
    cursor = page.nextCursor;
  }
  return [...rows].sort((a, b) => a - b);
}

/** Asks whether the rerun draws the failed rows only or every row. */
export function RerunDialog({
  choice,
  onChoose,
  onClose,
}: {
  choice: RerunChoice | null;
  onChoose: (rows: 'failed' | 'all') => void;
  onClose: () => void;
}): ReactElement {
  const ref = useModalDialog(choice !== null);
  const t = useT();
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="rerun-dialog"
    >
      <div className="dialog-body">
        <h2 id={titleId}>{t('batch.rerunTitle')}</h2>
        <div className="muted">{t('batch.rerunBody')}</div>
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button onClick={() => onChoose('all')}>
          {t('batch.rerunAll', { count: choice?.all ?? 0 })}
        </Button>
        <Button
          variant="primary"
          autoFocus
          // An API batch names at most this many rows; more go again as every row.
          disabled={(choice?.failed.length ?? 0) > MAX_SOURCE_ROWS}
          onClick={() => onChoose('failed')}
        >
          {t('batch.rerunFailed', { count: choice?.failed.length ?? 0 })}
        </Button>
      </div>
    </dialog>
  );
}
