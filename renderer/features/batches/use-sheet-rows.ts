import { useEffect, useState } from 'react';
import { MAX_ITEMS_PER_PART } from '../../../shared/sheet-options';
import { api } from '../../api/client';
import type { SheetPlacement } from '../../api/types';

/**
 * At most this many rows are read to list the sheets (beyond, manifest.csv has them all): a part
 * holds no more, so the first part is always whole.
 */
export const SHEET_ROWS_LIMIT = MAX_ITEMS_PER_PART;
const PAGE = 1000;

export interface PrintedSheet {
  part: number;
  sheet: number;
  page: number;
  backPage: number | null;
  /** Row numbers as the results table shows them (from 1). */
  rows: number[];
}

/**
 * The sheets of a finished sheet batch with the rows on each, from the succeeded rows' places in
 * the manifest (the server's plan, the one the PDFs were drawn with). `complete` is false when
 * the batch has more rows than are read.
 */
export function useSheetRows(
  batchId: string,
  ready: boolean,
): { sheets: PrintedSheet[] | null; complete: boolean } {
  const [state, setState] = useState<{ sheets: PrintedSheet[] | null; complete: boolean }>({
    sheets: null,
    complete: true,
  });
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    void (async () => {
      const bySheet = new Map<number, PrintedSheet>();
      let cursor: string | null = '0';
      let read = 0;
      while (cursor !== null && read < SHEET_ROWS_LIMIT) {
        const page = await api.batches.manifest(batchId, {
          cursor,
          limit: PAGE,
          status: 'succeeded',
        });
        if (cancelled) return;
        for (const row of page.rows) {
          if (!row.sheet) continue;
          const place: SheetPlacement = row.sheet;
          const sheet = bySheet.get(place.sheet) ?? {
            part: place.part,
            sheet: place.sheet,
            page: place.page,
            backPage: place.backPage,
            rows: [],
          };
          sheet.rows.push(row.rowIndex + 1);
          bySheet.set(place.sheet, sheet);
        }
        read += page.rows.length;
        cursor = page.nextCursor;
      }
      let sheets = [...bySheet.values()].sort((a, b) => a.sheet - b.sheet);
      // The part the limit cut into would show some of its rows (cut and stack spreads them
      // over all its sheets): leave it out.
      const cut = cursor !== null ? sheets.at(-1)?.part : undefined;
      if (cut !== undefined && cut > 1) sheets = sheets.filter((s) => s.part < cut);
      setState({ sheets, complete: cursor === null });
    })().catch(() => {
      if (!cancelled) setState({ sheets: [], complete: false });
    });
    return () => {
      cancelled = true;
    };
  }, [batchId, ready]);
  return state;
}
