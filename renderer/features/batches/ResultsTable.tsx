import { rowLabel } from './row-label';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { useSignedLink } from '../../api/use-signed-link';
import type { ManifestRow, RowStatus } from '../../api/types';
import { Icon } from '../../components/Icon';
import { useT, type MessageKey } from '../../i18n/i18n';
import { useManifest } from './use-manifest';

const ROW_HEIGHT = 56;
const MAX_HEIGHT = 620;

const ROW_TONES: Record<RowStatus, string> = {
  pending: '',
  running: 'accent running',
  succeeded: 'success',
  failed: 'danger',
  cancelled: '',
};

/**
 * The manifest as a virtualised table: only the visible rows exist in the DOM, so 10,000+ rows
 * scroll smoothly. Thumbnails are small JPEGs the server scales down (96 px wide, sharp at 2× in
 * the 40 px cell) and load once scrolling settles.
 */
export function ResultsTable({
  batchId,
  filter,
  total,
  version,
  onOpen,
  errorText,
  targets,
  someRows,
  sheetsOnly,
}: {
  batchId: string;
  /** Rows drawn only on the sheets: the column says where each is instead of a file name. */
  sheetsOnly?: boolean | undefined;
  filter: 'all' | 'failed';
  total: number;
  version: number;
  /** The layouts of a several-sizes batch: each row's label names its size. */
  targets?: string[] | undefined;
  /** The batch draws some rows of its sheet: their row numbers skip the others. */
  someRows?: boolean | undefined;
  onOpen: (row: ManifestRow) => void;
  /** A row's stored error as the user reads it. */
  errorText: (row: Pick<ManifestRow, 'error' | 'line'>) => string;
}): ReactElement {
  const t = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  const manifest = useManifest(batchId, filter, total, version, someRows ?? false);
  const virtualizer = useVirtualizer({
    count: manifest.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { ensure } = manifest;
  useEffect(() => {
    // A page ahead of what shows, so a fast scroll rarely reaches rows still loading.
    ensure(first, last + 250);
  }, [ensure, first, last]);

  const scrolling = virtualizer.isScrolling;
  const [seen] = useState(() => new Set<string>());

  if (manifest.count === 0) {
    return (
      <div className="results-empty muted">{filter === 'failed' ? t('batch.noFailed') : null}</div>
    );
  }

  return (
    <div
      className="results"
      role="table"
      aria-label={t('batch.results')}
      aria-rowcount={manifest.count + 1}
    >
      <div className="results-head" role="row" aria-rowindex={1}>
        <span role="columnheader" className="num">
          {t('batch.col.row')}
        </span>
        <span role="columnheader">{t('batch.col.image')}</span>
        <span role="columnheader">{t('batch.col.status')}</span>
        <span role="columnheader">
          {filter === 'failed'
            ? t('batch.col.error')
            : sheetsOnly
              ? t('sheets.made.col')
              : t('batch.col.file')}
        </span>
      </div>
      <div
        className="results-scroll"
        // A table owns rows through row groups only: the scroller is the body's row group and
        // the sizing box between them is left out of the tree.
        role="rowgroup"
        aria-label={t('batch.results')}
        ref={scrollRef}
        tabIndex={0}
        data-testid="results-scroll"
        style={{ height: Math.max(ROW_HEIGHT, Math.min(virtualizer.getTotalSize(), MAX_HEIGHT)) }}
      >
        <div role="none" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = manifest.row(item.index);
            const thumbReady =
              row?.outputKey !== undefined &&
              row.outputKey !== null &&
              (!scrolling || seen.has(row.outputKey));
            return (
              <ResultRow
                // A slot key, not the row index: while scrolling, React patches the few rows
                // that scrolled out into the ones that scrolled in instead of rebuilding them.
                key={item.index % ROW_SLOTS}
                index={item.index}
                start={item.start}
                row={row}
                thumbReady={thumbReady}
                seen={seen}
                onOpen={onOpen}
                targets={targets}
                errorText={errorText}
                numbered={filter === 'all' && !someRows}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** More than the rows that can be on screen at once (visible + overscan), so slot keys stay unique. */
const ROW_SLOTS = 64;

const ResultRow = memo(function ResultRow({
  index,
  start,
  row,
  thumbReady,
  seen,
  onOpen,
  errorText,
  targets,
  numbered,
}: {
  targets: string[] | undefined;
  /** A row still loading shows its number: every row is there, in order from the first. */
  numbered: boolean;
  index: number;
  start: number;
  row: ManifestRow | undefined;
  thumbReady: boolean;
  seen: Set<string>;
  onOpen: (row: ManifestRow) => void;
  errorText: (row: Pick<ManifestRow, 'error' | 'line'>) => string;
}): ReactElement {
  const t = useT();
  const error = row?.error ? errorText(row) : null;
  // A row drawn only on the sheets has no file of its own: its place on them stands instead.
  const file =
    row?.fileName ??
    (row?.sheet
      ? t('sheets.made.place', { sheet: row.sheet.sheet, position: row.sheet.position })
      : '');
  // PDFs and zips (several pages) have no image thumbnail: the API refuses `width` for them.
  const documentKind = row?.outputKey ? /\.(pdf|zip)$/i.exec(row.outputKey)?.[1] : undefined;
  const thumb = useSignedLink(
    thumbReady && row?.outputKey && !documentKind ? api.outputThumbPath(row.outputKey) : null,
  );
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="results-row"
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      data-row-index={row?.rowIndex}
    >
      {row ? (
        <>
          <span role="cell" className="num muted">
            {rowLabel(row.rowIndex, targets)}
          </span>
          <span role="cell">
            {row.outputKey ? (
              <button
                type="button"
                className="result-thumb"
                onClick={() => onOpen(row)}
                aria-label={t('batch.open', { row: rowLabel(row.rowIndex, targets) })}
              >
                {documentKind ? (
                  <span className="result-document" aria-hidden="true">
                    {documentKind.toUpperCase()}
                  </span>
                ) : thumb ? (
                  <img
                    key={row.outputKey}
                    src={thumb}
                    alt=""
                    decoding="async"
                    loading="lazy"
                    onLoad={() => seen.add(row.outputKey ?? '')}
                  />
                ) : null}
              </button>
            ) : row.sheet ? (
              <span
                className="result-thumb on-sheet"
                title={t('sheets.made.placeLabel', { sheet: row.sheet.sheet })}
              >
                <Icon name="layers" size={16} />
              </span>
            ) : (
              <span className="result-thumb empty" />
            )}
          </span>
          <span role="cell">
            <span className={`badge ${ROW_TONES[row.status]}`}>
              {t(`rowStatus.${row.status}` as MessageKey)}
            </span>
          </span>
          <span
            role="cell"
            className={error ? 'result-error' : 'result-file'}
            title={error ?? file}
          >
            {error ?? file}
          </span>
        </>
      ) : (
        <>
          <span role="cell" className="num subtle">
            {numbered ? index + 1 : ''}
          </span>
          <span role="cell">
            <span className="result-thumb skeleton" />
          </span>
          <span role="cell">
            <span className="skeleton" style={{ display: 'block', width: 60, height: 14 }} />
          </span>
          <span role="cell" />
        </>
      )}
    </div>
  );
});
