/**
 * Turns a header row into field names a binding can rely on: trimmed, NFC, BOM-stripped
 * (a BOM left on the first header silently breaks auto-mapping), blank headers named after
 * their column, duplicates made unique — and every rename reported so the user sees it.
 */

export interface RenamedField {
  /** 1-based column number. */
  column: number;
  original: string;
  field: string;
  reason: 'empty' | 'duplicate';
}

export interface HeaderFields {
  fields: string[];
  renamedFields: RenamedField[];
}

export function cleanHeaderText(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text
    .replace(/^\uFEFF/, '')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
}

export function normaliseHeaders(raw: readonly unknown[]): HeaderFields {
  const cleaned = raw.map(cleanHeaderText);
  const taken = new Set(cleaned.filter((name) => name !== ''));
  const used = new Set<string>();
  const renamedFields: RenamedField[] = [];
  const fields = cleaned.map((name, index) => {
    const column = index + 1;
    const original = raw[index] === null || raw[index] === undefined ? '' : String(raw[index]);
    if (name === '') {
      const field = unique(`column_${column}`, used, taken);
      renamedFields.push({ column, original, field, reason: 'empty' });
      return field;
    }
    if (used.has(name)) {
      const field = unique(name, used, taken);
      renamedFields.push({ column, original, field, reason: 'duplicate' });
      return field;
    }
    used.add(name);
    return name;
  });
  return { fields, renamedFields };
}

/** `price` → `price_2`, `price_3`…, skipping names another header already has. */
function unique(base: string, used: Set<string>, taken: Set<string>): string {
  let candidate = base;
  for (let n = 2; used.has(candidate) || taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  used.add(candidate);
  return candidate;
}
