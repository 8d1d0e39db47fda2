import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { Upload } from '../../api/types';

/**
 * One row of the uploaded spreadsheet, by 0-based index: from the upload's preview for the first
 * rows, else read from the server, so a row past the preview (a problem in row 500) shows itself
 * rather than row 1.
 */
export function useSourceRow(
  upload: Upload | null,
  sheet: string | null,
  index: number,
): { row: Record<string, unknown> | null; loading: boolean } {
  const inPreview = upload?.preview?.[index];
  const [fetched, setFetched] = useState<{ key: string; row: Record<string, unknown> } | null>(
    null,
  );
  const key = upload ? `${upload.id}|${sheet ?? ''}|${index}` : '';
  useEffect(() => {
    if (!upload || inPreview) return;
    let live = true;
    api.uploads.rows(upload.id, { sheet, offset: index, limit: 1 }).then(
      (page) => live && setFetched({ key, row: page.rows[0]?.cells ?? {} }),
      () => live && setFetched({ key, row: {} }),
    );
    return () => {
      live = false;
    };
  }, [upload, sheet, index, inPreview, key]);
  if (inPreview) return { row: inPreview, loading: false };
  if (fetched?.key === key) return { row: fetched.row, loading: false };
  return { row: null, loading: upload !== null };
}
