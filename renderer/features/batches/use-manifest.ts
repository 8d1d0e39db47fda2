import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { ManifestRow } from '../../api/types';

const PAGE = 500;

/**
 * Rows of a batch's manifest, fetched page by page as the table scrolls. All rows: the cursor is
 * a rowIndex, so any page can be fetched directly. Failed only, and every row of a batch of some
 * rows of its sheet (`someRows`: its row indexes skip the others): pages follow nextCursor.
 */
export function useManifest(
  batchId: string,
  filter: 'all' | 'failed',
  total: number,
  version: number,
  someRows = false,
): {
  count: number;
  row: (index: number) => ManifestRow | undefined;
  ensure: (start: number, end: number) => void;
  loaded: number;
} {
  // Rows live in a map mutated in place, with a counter to re-render: copying a 10,000-entry map
  // for every page that arrives mid-scroll costs frames.
  const rows = useRef(new Map<number, ManifestRow>());
  const [, setRowsVersion] = useState(0);
  const [failedRows, setFailedRows] = useState<ManifestRow[]>([]);
  const [failedDone, setFailedDone] = useState(false);
  const pending = useRef(new Set<string>());
  const failedCursor = useRef<string | null>('0');
  const generation = useRef(0);
  const failedRowsLength = useRef(0);
  failedRowsLength.current = failedRows.length;

  // A new filter starts over.
  useEffect(() => {
    generation.current += 1;
    pending.current.clear();
    failedCursor.current = '0';
    rows.current = new Map();
    setRowsVersion((v) => v + 1);
    setFailedRows([]);
    setFailedDone(false);
  }, [batchId, filter]);

  // A new state of the batch (progress, finished, replayed): fetch the visible pages again and
  // keep showing the old rows until the new ones arrive, so nothing flickers.
  const firstVersion = useRef(version);
  useEffect(() => {
    if (version === firstVersion.current) return;
    generation.current += 1;
    pending.current.clear();
    failedCursor.current = '0';
    setFailedRows([]);
    setFailedDone(false);
  }, [version]);

  const ensure = useCallback(
    (start: number, end: number) => {
      const gen = generation.current;
      if (filter === 'all' && !someRows) {
        for (
          let page = Math.floor(start / PAGE);
          page <= Math.floor(Math.max(start, end) / PAGE);
          page++
        ) {
          const first = page * PAGE;
          if (first >= total) break;
          const key = `all:${page}`;
          if (pending.current.has(key)) continue;
          pending.current.add(key);
          api.batches.manifest(batchId, { cursor: String(first), limit: PAGE }).then(
            (result) => {
              if (gen !== generation.current) return;
              for (const row of result.rows) rows.current.set(row.rowIndex, row);
              setRowsVersion((v) => v + 1);
            },
            () => pending.current.delete(key),
          );
        }
        return;
      }
      const cursor = failedCursor.current;
      if (cursor === null || pending.current.has(`failed:${cursor}`)) return;
      if (end < failedRowsLength.current - 50) return;
      pending.current.add(`failed:${cursor}`);
      const status = filter === 'failed' ? { status: 'failed' as const } : {};
      api.batches.manifest(batchId, { cursor, limit: PAGE, ...status }).then(
        (result) => {
          if (gen !== generation.current) return;
          failedCursor.current = result.nextCursor;
          setFailedRows((prev) => [...prev, ...result.rows]);
          if (result.nextCursor === null) setFailedDone(true);
        },
        () => pending.current.delete(`failed:${cursor}`),
      );
    },
    // `version` re-creates the function so the table asks again for what it shows.
    [batchId, filter, total, version, someRows],
  );

  if (filter === 'all' && !someRows) {
    const loaded = rows.current;
    return { count: total, row: (index) => loaded.get(index), ensure, loaded: loaded.size };
  }
  return {
    // Every row of a batch of some rows: as many as it has, each shown once its page arrives.
    count:
      filter === 'all'
        ? total
        : failedDone
          ? failedRows.length
          : failedRows.length + (failedCursor.current === null ? 0 : 1),
    row: (index) => failedRows[index],
    ensure,
    loaded: failedRows.length,
  };
}
