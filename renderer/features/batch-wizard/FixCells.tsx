import { useEffect, useId, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { PreflightResult, Upload } from '../../api/types';
import { ErrorBanner } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { problemText, problemVariable, type ProblemPlace } from '../../i18n/problem-text';
import { cellAddress } from './cell-address';

/** Rows shown for fixing at once: the first problems; the rest follow as these are fixed. */
const MAX_ROWS = 50;

type Cells = Record<string, string | number | null>;

/** The column a variable is read from, when a column feeds it. */
function fieldOf(preflight: PreflightResult, variable: string): string | null {
  const source = preflight.mapping.find((m) => m.variable === variable)?.source;
  return source && typeof source === 'object' && 'field' in source
    ? String((source as { field: unknown }).field)
    : null;
}

/**
 * The rows pre-flight refused, as a table of their cells: each bad cell highlighted with its
 * spreadsheet address and the problem, and editable. An edit changes this batch's copy of the
 * data (the upload), never the user's file; pre-flight then runs again.
 */
export function FixCells({
  preflight,
  upload,
  sheet,
  place,
  onEdited,
}: {
  preflight: PreflightResult;
  upload: Upload;
  sheet: string | null;
  place: (line: number | null) => ProblemPlace;
  onEdited: (upload: Upload) => void;
}): ReactElement | null {
  const t = useT();
  const noteId = useId();
  const problems = preflight.problems.slice(0, MAX_ROWS);
  // Per row, the columns whose cells were refused and the problems they were refused for.
  const bad = problems.map((problem) => {
    const cells = new Map<string, typeof problem.errors>();
    for (const error of problem.errors) {
      const variable = problemVariable(error.path);
      const field = variable ? fieldOf(preflight, variable) : null;
      if (field === null || !preflight.fields.includes(field)) continue;
      cells.set(field, [...(cells.get(field) ?? []), error]);
    }
    return { problem, cells };
  });
  const columns = preflight.fields.filter((field) => bad.some((row) => row.cells.has(field)));
  const [rows, setRows] = useState<Map<number, Cells>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const indexes = problems.map((p) => p.rowIndex).join(',');

  // The refused rows' cells, read a page at a time from the upload (edits included).
  useEffect(() => {
    let live = true;
    const wanted = indexes.split(',').filter(Boolean).map(Number);
    void (async () => {
      const found = new Map<number, Cells>();
      const pending = new Set(wanted);
      while (pending.size > 0 && live) {
        const offset = Math.min(...pending);
        const page = await api.uploads.rows(upload.id, { sheet, offset, limit: 500 });
        for (const row of page.rows) {
          if (pending.delete(row.rowIndex)) found.set(row.rowIndex, row.cells);
        }
        // A row past the file's end (cannot happen unless it changed) stops the loop.
        if (pending.has(offset)) pending.delete(offset);
      }
      if (live) setRows(found);
    })().catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [upload.id, sheet, indexes]);

  if (columns.length === 0) return null;
  return (
    <div className="stack gap-3" data-testid="fix-cells">
      <h3 className="fix-title">{t('wizard.fix.title')}</h3>
      <p className="small muted" id={noteId}>
        {t('wizard.fix.note')}
      </p>
      {error ? <ErrorBanner error={error} /> : null}
      <div
        className="table-wrap fix-table-wrap"
        role="region"
        aria-labelledby={noteId}
        tabIndex={0}
      >
        <table className="table data fix-table">
          <thead>
            <tr>
              <th scope="col">{t('wizard.fix.row')}</th>
              {columns.map((field) => (
                <th key={field} scope="col">
                  {/* The column's letters, as the spreadsheet heads it. */}
                  <span className="mono subtle">
                    {cellAddress(preflight.fields.indexOf(field), 1).replace(/\d+$/, '')}
                  </span>{' '}
                  {field}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {bad.map(({ problem, cells }) => (
              <tr key={problem.rowIndex}>
                <th scope="row" className="num">
                  {t('wizard.review.row', { row: problem.rowIndex + 1 })}
                </th>
                {columns.map((field) => {
                  const errors = cells.get(field);
                  const value = rows.get(problem.rowIndex)?.[field];
                  const address =
                    problem.line !== null
                      ? cellAddress(preflight.fields.indexOf(field), problem.line)
                      : null;
                  return (
                    <td key={field} className={errors ? 'cell-bad' : undefined}>
                      {errors ? (
                        <CellInput
                          key={`${problem.rowIndex}:${field}:${String(value ?? '')}`}
                          value={value === null || value === undefined ? '' : String(value)}
                          loaded={rows.has(problem.rowIndex)}
                          address={address}
                          field={field}
                          messages={errors.map((e) => problemText(t, e, place(problem.line)))}
                          onSave={async (text) => {
                            const next = await api.uploads.editCell(upload.id, {
                              ...(sheet ? { sheet } : {}),
                              rowIndex: problem.rowIndex,
                              field,
                              value: text,
                            });
                            onEdited(next);
                          }}
                        />
                      ) : (
                        <span className="subtle">
                          {value === null || value === undefined ? '' : String(value)}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A refused cell: its address, what is wrong, and its text to change (Enter or leaving saves). */
function CellInput({
  value,
  loaded,
  address,
  field,
  messages,
  onSave,
}: {
  value: string;
  loaded: boolean;
  address: string | null;
  field: string;
  messages: string[];
  onSave: (text: string) => Promise<void>;
}): ReactElement {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(value);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<unknown>(null);
  const save = async () => {
    if (!loaded || text === value || saving) return;
    setSaving(true);
    setFailed(null);
    try {
      await onSave(text);
    } catch (e) {
      setFailed(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="fix-cell">
      <span className="fix-address mono" aria-hidden>
        {address ?? field}
      </span>
      <input
        id={id}
        className="input"
        value={text}
        disabled={!loaded}
        aria-invalid
        aria-describedby={`${id}-e`}
        aria-label={t('wizard.fix.cell', { address: address ?? field, field })}
        aria-busy={saving || undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void save();
          if (e.key === 'Escape') setText(value);
        }}
      />
      <div className="field-error" id={`${id}-e`}>
        {messages.join(' ')}
      </div>
      {failed ? <ErrorBanner error={failed} /> : null}
    </div>
  );
}
