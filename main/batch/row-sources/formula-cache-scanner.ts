import { SaxesParser } from 'saxes';

/**
 * exceljs's streaming reader keeps a formula's cached value only when it is truthy, and turns
 * cached booleans into 0/1 and cached errors into NaN. This scanner reads the same sheet XML
 * alongside it and remembers, for formula cells only, the cached `<v>` and its type `t`, so
 * `FALSE`, `0`, `""` and `#NAME?` come out as Excel shows them. Entries are taken (removed) as
 * rows are converted, so memory stays at about one chunk's worth of formula cells.
 */

export interface CachedFormulaValue {
  /** The cell's `t` attribute: n (default), str, b, e, s, inlineStr, d. */
  type: string;
  /** The text of `<v>`; undefined when the file stores no cached value. */
  value: string | undefined;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

export function createFormulaCacheScanner() {
  const parser = new SaxesParser();
  const cached = new Map<string, CachedFormulaValue>();
  let cell: { ref: string; type: string; formula: boolean; value: string | undefined } | null =
    null;
  let inValue = false;
  let failure: Error | undefined;

  parser.on('opentag', (node) => {
    switch (localName(node.name)) {
      case 'c': {
        const ref = node.attributes.r;
        const type = node.attributes.t;
        cell = {
          ref: typeof ref === 'string' ? ref : '',
          type: typeof type === 'string' ? type : 'n',
          formula: false,
          value: undefined,
        };
        break;
      }
      case 'f':
        if (cell) cell.formula = true;
        break;
      case 'v':
        if (cell) {
          inValue = true;
          cell.value = '';
        }
        break;
      default:
        break;
    }
  });
  parser.on('text', (text) => {
    if (inValue && cell) cell.value += text;
  });
  parser.on('closetag', (node) => {
    const name = localName(node.name);
    if (name === 'v') inValue = false;
    if (name === 'c' && cell) {
      if (cell.formula && cell.ref) cached.set(cell.ref, { type: cell.type, value: cell.value });
      cell = null;
    }
  });
  parser.on('error', (error) => {
    failure = error;
  });

  return {
    write(chunk: string): void {
      if (failure) return; // exceljs reports the same XML error with more context
      parser.write(chunk);
    },
    take(ref: string): CachedFormulaValue | undefined {
      const found = cached.get(ref);
      if (found) cached.delete(ref);
      return found;
    },
  };
}

export type FormulaCacheScanner = ReturnType<typeof createFormulaCacheScanner>;
