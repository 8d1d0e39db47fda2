import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { ManifestRow } from '../../api/types';

const PAGE = 500;
/** A request that failed (a 429, the core restarting) is not made again for this long. */
const RETRY_MS = 1000;

/** A page of all rows, addressed by rowIndex: what it was last asked for, and what it held. */
interface IndexPage {
  /** The `version` and the batch's `total` when it was last asked for. */
  version: number;
  total: number;
  /** Its rows reach this rowIndex (exclusive): short of the page's end while rows were missing. */
  covered: number;
  loading: boolean;
  /** After a failed request: not asked for again before this time (ms). */
  retryAt: number;
}

/** A page of a list that follows cursors (failed rows; every row of a batch of some rows). */
interface CursorPage {
  cursor: string;
  rows: ManifestRow[];
  next: string | null;
  version: number;
  loading: boolean;
  retryAt: number;
}

/**
 * Rows of a batch's manifest, fetched page by page as the table scrolls. All rows: the cursor is
 * a rowIndex, so any page can be fetched directly. Failed only, and every row of a batch of some
 * rows of its sheet (`someRows`: its row indexes skip the others): pages follow nextCursor.
 *
 * A new `version` (the batch progressed, finished, was replayed) makes every page stale: the
 * pages the table shows are fetched again at once, the others when scrolled to, and the old
 * rows stay on screen until the new ones arrive, so nothing flickers. A page is never asked for
 * twice at the same time: one asked for while on its way is fetched again when it arrives. A page
 * fetched while the batch had fewer rows than it holds now (a `total` that grew) is fetched again.
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
  const indexPages = useRef(new Map<number, IndexPage>());
  const cursorPages = useRef<CursorPage[]>([]);
  const [list, setList] = useState<ManifestRow[]>([]);
  /** The cursor of the page being added at the end of the list, if one is. */
  const appending = useRef<string | null>(null);
  /** Bumped when the list's tail is dropped: a page on its way for the old tail is not added. */
  const tail = useRef(0);
  const appendRetryAt = useRef(0);
  const generation = useRef(0);
  /** The rows the table last asked for. */
  const range = useRef<[number, number] | null>(null);
  // What requests that finish later read: the props of the latest render.
  const latest = useRef({ batchId, filter, total, version, someRows });
  latest.current = { batchId, filter, total, version, someRows };

  const fetchVisible = useCallback(function fetchVisible(): void {
    const wanted = range.current;
    if (!wanted) return;
    const [start, end] = wanted;
    const { batchId, filter, total, version, someRows } = latest.current;
    const gen = generation.current;

    if (filter === 'all' && !someRows) {
      for (
        let page = Math.floor(start / PAGE);
        page <= Math.floor(Math.max(start, end) / PAGE);
        page++
      ) {
        const first = page * PAGE;
        if (first >= total) break;
        const known = indexPages.current.get(page);
        if (known && (known.loading || known.retryAt > Date.now())) continue;
        const whole = known !== undefined && known.covered >= Math.min(total, first + PAGE);
        if (known && known.version === version && (whole || known.total === total)) continue;
        const state: IndexPage = {
          version,
          total,
          covered: known?.covered ?? first,
          loading: true,
          retryAt: 0,
        };
        indexPages.current.set(page, state);
        api.batches.manifest(batchId, { cursor: String(first), limit: PAGE }).then(
          (result) => {
            if (gen !== generation.current) return;
            state.loading = false;
            state.covered = first + result.rows.length;
            for (const row of result.rows) rows.current.set(row.rowIndex, row);
            setRowsVersion((v) => v + 1);
            // Asked for again while on its way (a newer version, more rows): fetched now.
            fetchVisible();
          },
          () => {
            if (gen !== generation.current) return;
            // Stale: fetched again the next time the table asks or the batch moves.
            state.loading = false;
            state.version = -1;
            state.retryAt = Date.now() + RETRY_MS;
          },
        );
      }
      return;
    }

    const status = filter === 'failed' ? { status: 'failed' as const } : {};
    const pages = cursorPages.current;
    const publish = () => setList(pages.flatMap((p) => p.rows));
    // The stale pages on screen, again from their cursors.
    let position = 0;
    pages.forEach((page, index) => {
      const from = position;
      position += page.rows.length;
      if (position < start || from > end) return;
      if (page.loading || page.version === version || page.retryAt > Date.now()) return;
      page.loading = true;
      api.batches.manifest(batchId, { cursor: page.cursor, limit: PAGE, ...status }).then(
        (result) => {
          if (gen !== generation.current || pages[index] !== page) return;
          page.loading = false;
          page.version = version;
          page.rows = result.rows;
          if (result.nextCursor !== page.next) {
            // It now ends elsewhere (rows failed inside it since): the pages after it start at
            // the wrong row and are fetched again from its new end.
            page.next = result.nextCursor;
            pages.length = index + 1;
            tail.current += 1;
            appending.current = null;
          }
          publish();
          fetchVisible();
        },
        () => {
          if (gen !== generation.current) return;
          page.loading = false;
          page.retryAt = Date.now() + RETRY_MS;
        },
      );
    });
    // The next page, once the table nears the end of what is there.
    const last = pages.at(-1);
    const cursor = last ? last.next : '0';
    if (cursor === null || appending.current !== null || end < position - 50) return;
    if (appendRetryAt.current > Date.now()) return;
    appending.current = cursor;
    const tailAsked = tail.current;
    api.batches.manifest(batchId, { cursor, limit: PAGE, ...status }).then(
      (result) => {
        if (gen !== generation.current || tailAsked !== tail.current) return;
        appending.current = null;
        pages.push({
          cursor,
          rows: result.rows,
          next: result.nextCursor,
          version,
          loading: false,
          retryAt: 0,
        });
        publish();
        fetchVisible();
      },
      () => {
        if (gen !== generation.current || tailAsked !== tail.current) return;
        appending.current = null;
        appendRetryAt.current = Date.now() + RETRY_MS;
      },
    );
  }, []);

  // A new batch or filter starts over.
  useEffect(() => {
    generation.current += 1;
    indexPages.current = new Map();
    cursorPages.current = [];
    appending.current = null;
    rows.current = new Map();
    setRowsVersion((v) => v + 1);
    setList([]);
  }, [batchId, filter]);

  // A new state of the batch, or more rows: the pages on screen again.
  useEffect(() => {
    fetchVisible();
  }, [version, total, fetchVisible]);

  const ensure = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      fetchVisible();
    },
    // A new batch or filter re-creates the function so the table asks again for what it shows.
    [batchId, filter, someRows, fetchVisible],
  );

  if (filter === 'all' && !someRows) {
    const loaded = rows.current;
    return { count: total, row: (index) => loaded.get(index), ensure, loaded: loaded.size };
  }
  const last = cursorPages.current.at(-1);
  const done = last !== undefined && last.next === null;
  return {
    // Every row of a batch of some rows: as many as it has, each shown once its page arrives.
    count: filter === 'all' ? total : done ? list.length : list.length + 1,
    row: (index) => list[index],
    ensure,
    loaded: list.length,
  };
}
