import type { ReactElement } from 'react';

/** The first rows of a spreadsheet, as the user typed them; row numbers count from 1. */
export function DataTable({
  fields,
  rows,
  label,
  highlightRow,
}: {
  fields: string[];
  rows: Record<string, unknown>[];
  label: string;
  highlightRow?: number | null;
}): ReactElement {
  return (
    <div className="table-wrap data-preview" tabIndex={0} role="region" aria-label={label}>
      <table className="table data">
        <thead>
          <tr>
            <th className="num">#</th>
            {fields.map((field) => (
              <th key={field} scope="col">
                {field}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr
              key={index}
              className={highlightRow === index ? 'highlight' : undefined}
              data-row={index}
            >
              <td className="num subtle">{index + 1}</td>
              {fields.map((field) => (
                <td key={field} title={cellText(row[field])}>
                  {cellText(row[field])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => cellText(v)).join(' · ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
