/**
 * Output file names from a pattern like `{sku}-{name}` (DESIGN §4): safe on Windows, macOS and
 * Linux, NFC, bounded in length, and unique case-insensitively (a.png and A.png are one file on
 * most desktops). Names are assigned in rowIndex order, so they are the same on every run.
 */

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_BASE_LENGTH = 120;

export function fieldsInPattern(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^{}]+)\}/g)].map((m) => (m[1] ?? '').trim());
}

/** The pattern filled from the row's cells and made safe; empty when nothing usable is left. */
export function fileBaseName(pattern: string, record: Readonly<Record<string, unknown>>): string {
  const filled = pattern.replace(/\{([^{}]+)\}/g, (_m, name: string) => {
    const value = record[name.trim()];
    return value === null || value === undefined ? '' : String(value);
  });
  return safeFileBase(filled);
}

export function safeFileBase(raw: string): string {
  let name = raw
    .normalize('NFC')
    // Path separators, characters Windows forbids, and control characters.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    .trim()
    // No leading dots (hidden files, `..`) and no trailing dots or spaces (Windows strips them).
    .replace(/^[.\s-]+/, '')
    .replace(/[.\s]+$/, '');
  const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(name)].map(
    (s) => s.segment,
  );
  if (graphemes.length > MAX_BASE_LENGTH)
    name = graphemes.slice(0, MAX_BASE_LENGTH).join('').trim();
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  return name;
}

/** Hands out unique names: the second `Áo` becomes `Áo-2`, compared case- and form-insensitively. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  /** Marks a name as used (names already given before a restart). */
  reserve(name: string): void {
    this.taken.add(name.normalize('NFC').toLowerCase());
  }

  take(base: string, extension: string, fallback: string): string {
    const stem = base || fallback;
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? `${stem}.${extension}` : `${stem}-${n}.${extension}`;
      const key = candidate.normalize('NFC').toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return candidate;
      }
    }
  }
}

/** Names a batch's outputs as its rows are read: the pattern, or the row index. */
export class BatchFileNamer {
  private readonly names = new UniqueNames();

  constructor(
    private readonly pattern: string | null,
    private readonly extension: string,
    existing: readonly string[] = [],
  ) {
    for (const name of existing) this.names.reserve(name);
  }

  name(rowIndex: number, record: Readonly<Record<string, unknown>>): string {
    const base = this.pattern ? fileBaseName(this.pattern, record) : '';
    return this.names.take(base, this.extension, String(rowIndex));
  }
}
