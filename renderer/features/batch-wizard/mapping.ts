import { cellToValue } from '../../../shared/cell-values';
import { foldForSearch, foldIdentifier } from '../../../shared/fold-text';
import type {
  Bindings,
  CatalogDetail,
  CreateBatchRequest,
  VariableDescription,
} from '../../api/types';
import { serialText } from '../../../shared/serial-numbers';
import type { MappingChoice, WizardState } from '../../stores/wizard-slice';
import { serialFieldProblems, serialNumbering } from './serial-choice';

/**
 * The column a variable takes automatically: the server's rule (main/batch/bindings.ts) — the
 * first field whose folded name (case, spacing, diacritics ignored) equals the variable's name,
 * else its label.
 */
export function autoField(variable: VariableDescription, fields: readonly string[]): string | null {
  const byFolded = new Map<string, string>();
  for (const field of fields) {
    const folded = foldIdentifier(field);
    if (folded && !byFolded.has(folded)) byFolded.set(folded, field);
  }
  return (
    byFolded.get(foldIdentifier(variable.name)) ??
    (variable.label ? byFolded.get(foldIdentifier(variable.label)) : undefined) ??
    null
  );
}

/** The words of a name or label, folded: "Ảnh sản phẩm" → anh san pham, productPhoto → product photo. */
function words(text: string): Set<string> {
  const spaced = text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  return new Set(
    foldForSearch(spaced)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0),
  );
}

const within = (small: Set<string>, large: Set<string>) =>
  small.size > 0 && [...small].every((w) => large.has(w));

/**
 * A column that is probably the variable's, though its name is not the variable's name or label
 * ("Ảnh" for "Ảnh sản phẩm", "Product photo" for photo): every word of one is a word of the
 * other. Only a suggestion for the user to confirm (the server matches exact names only), and
 * only when exactly one column fits best.
 */
export function nearField(variable: VariableDescription, fields: readonly string[]): string | null {
  if (autoField(variable, fields)) return null;
  const names = [words(variable.name), ...(variable.label ? [words(variable.label)] : [])];
  let best: string | null = null;
  let bestScore = 0;
  let tied = false;
  for (const field of fields) {
    const columnWords = words(field);
    let score = 0;
    for (const name of names) {
      if (within(columnWords, name) || within(name, columnWords))
        score = Math.max(score, [...columnWords].filter((w) => name.has(w)).length);
    }
    if (score > bestScore) {
      best = field;
      bestScore = score;
      tied = false;
    } else if (score > 0 && score === bestScore) tied = true;
  }
  return tied ? null : best;
}

/** The effective source of a variable after automatic matching. */
export function effectiveChoice(
  variable: VariableDescription,
  choice: MappingChoice | undefined,
  fields: readonly string[],
): MappingChoice {
  if (choice && choice.kind !== 'auto') return choice;
  const field = autoField(variable, fields);
  if (field) return { kind: 'field', field };
  return variable.bindsTo ? { kind: 'profile' } : { kind: 'default' };
}

/**
 * Required variables no row could fill: no column, no constant, no default and no brand value.
 * A batch with one of these fails every row, so the wizard stops here instead.
 */
export function unmappedRequired(
  template: CatalogDetail,
  mapping: Record<string, MappingChoice>,
  fields: readonly string[],
): VariableDescription[] {
  return template.variables.filter((variable) => {
    if (!variable.required) return false;
    const choice = effectiveChoice(variable, mapping[variable.name], fields);
    if (choice.kind === 'constant') return choice.value.trim() === '';
    return choice.kind === 'default' && variable.default === undefined;
  });
}

export function constantValue(variable: VariableDescription, text: string): unknown {
  switch (variable.type) {
    case 'number': {
      const n = Number(text.replace(',', '.'));
      return Number.isFinite(n) && text.trim() !== '' ? n : text;
    }
    case 'list':
      return text
        .split(/\r?\n|\|/)
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return text;
  }
}

export function toBindings(
  template: CatalogDetail,
  mapping: Record<string, MappingChoice>,
): Bindings {
  const bindings: Bindings = {};
  for (const variable of template.variables) {
    const choice = mapping[variable.name];
    if (!choice || choice.kind === 'auto') continue;
    switch (choice.kind) {
      case 'field':
        bindings[variable.name] = { field: choice.field };
        break;
      case 'constant':
        bindings[variable.name] = { constant: constantValue(variable, choice.value) };
        break;
      case 'profile':
        if (variable.bindsTo) bindings[variable.name] = { profile: variable.bindsTo as never };
        break;
      case 'generated':
        bindings[variable.name] = { generated: choice.source };
        break;
      case 'serial':
        bindings[variable.name] = { serial: serialNumbering(choice) };
        break;
      case 'default':
        if (variable.default !== undefined)
          bindings[variable.name] = { constant: variable.default };
        break;
    }
  }
  return bindings;
}

/** One layout as `target`, or the chosen layout and the other sizes as `targets`. */
function several(
  template: NonNullable<WizardState['template']>,
  wizard: WizardState,
): { target?: string; targets?: string[] } {
  const first = wizard.target ?? template.ratios[0] ?? null;
  const more = wizard.moreTargets.filter((r) => r !== first && template.targets.includes(r));
  if (first && more.length > 0 && !wizard.sheets) return { targets: [first, ...more] };
  return wizard.target ? { target: wizard.target } : {};
}

export function buildBatchRequest(wizard: WizardState): CreateBatchRequest | null {
  const { template, upload } = wizard;
  if (!template || !upload || (upload.kind !== 'csv' && upload.kind !== 'xlsx')) return null;
  const pattern = wizard.fileNamePattern.trim();
  return {
    templateId: template.id,
    ...several(template, wizard),
    sourceType: upload.kind,
    source: {
      sourceRef: upload.sourceRef,
      ...(upload.kind === 'xlsx' && wizard.sheet ? { sheet: wizard.sheet } : {}),
      // A rerun of failed rows: those rows only, under their own row numbers.
      ...(wizard.rows ? { rows: wizard.rows } : {}),
    },
    bindings: toBindings(template, wizard.mapping),
    format: wizard.format,
    ...(wizard.brand ? { brand: wizard.brand } : {}),
    ...(wizard.format !== 'png' ? { quality: 90 } : {}),
    ...(pattern ? { fileNamePattern: pattern } : {}),
    ...(wizard.sheets && printLayout(template, wizard.target)
      ? {
          format: 'pdf' as const,
          sheets: {
            ...(wizard.sheets.preset ? { preset: wizard.sheets.preset } : {}),
            duplex:
              (template.layouts[wizard.target ?? '']?.pages ?? 1) > 1
                ? wizard.sheets.duplex
                : 'none',
            marks: wizard.sheets.marks,
            ...(wizard.sheets.cutAndStack ? { cutAndStack: true } : {}),
          },
        }
      : {}),
    // Images of a layout of several pages are one page each: the batch names which.
    ...imagePage(template, wizard),
    // Single files of a print layout, each with its crop marks.
    ...(wizard.cropMarks && !wizard.sheets && printLayout(template, wizard.target)
      ? { cropMarks: true }
      : {}),
    ...(wizard.verifyCodes ? { verifyCodes: true } : {}),
    ...(wizard.imagesMode === 'folder' && wizard.imagesDir.trim()
      ? { imagesDir: wizard.imagesDir.trim() }
      : {}),
    ...(wizard.imagesMode === 'zip' && wizard.imagesZip ? { imagesRef: wizard.imagesZip.id } : {}),
  };
}

/** How many pages the chosen layout has (1 for a one-page layout). */
export function layoutPageCount(template: CatalogDetail, target: string | null): number {
  return template.layouts[target ?? template.ratios[0] ?? '']?.pages ?? 1;
}

/**
 * Whether the batch draws one page of several as an image: the API refuses a batch of images of
 * a layout of several pages without a page (each row is one file), so the wizard asks for one.
 */
export function needsImagePage(
  template: CatalogDetail,
  wizard: Pick<WizardState, 'target' | 'format' | 'sheets'>,
): boolean {
  return wizard.format !== 'pdf' && !wizard.sheets && layoutPageCount(template, wizard.target) > 1;
}

function imagePage(template: CatalogDetail, wizard: WizardState): { page?: number } {
  if (!needsImagePage(template, wizard)) return {};
  const pages = layoutPageCount(template, wizard.target);
  return { page: Math.min(Math.max(1, Math.round(wizard.page)), pages) };
}

/** The target's page when it is a print layout (sheets are for those only). */
export function printLayout(
  template: CatalogDetail,
  target: string | null,
): NonNullable<CatalogDetail['layouts'][string]['page']> | null {
  return template.layouts[target ?? template.ratios[0] ?? '']?.page ?? null;
}

/**
 * Variables whose serial number the API would refuse (a field out of range, or a count down
 * below 0 by the sheet's last row, `lastRow`): the wizard does not go on with them.
 */
export function badSerials(
  template: CatalogDetail,
  mapping: Record<string, MappingChoice>,
  lastRow: number,
): VariableDescription[] {
  return template.variables.filter((variable) => {
    const choice = mapping[variable.name];
    return (
      choice?.kind === 'serial' && Object.keys(serialFieldProblems(choice, lastRow)).length > 0
    );
  });
}

/**
 * Values of one source row as the batch would render it (for the wizard's live preview);
 * `sourceTotal` is the sheet's row count (`{ generated: total }`).
 */
export function rowValues(
  template: CatalogDetail,
  mapping: Record<string, MappingChoice>,
  fields: readonly string[],
  row: Record<string, unknown>,
  rowIndex: number,
  sourceTotal = 0,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const variable of template.variables) {
    const choice = effectiveChoice(variable, mapping[variable.name], fields);
    let value: unknown;
    switch (choice.kind) {
      case 'field':
        value = cellToValue(variable, row[choice.field], variable.locale ?? 'en-US');
        break;
      case 'constant':
        value = constantValue(variable, choice.value);
        break;
      case 'serial': {
        // A field the API would refuse draws nothing rather than a number it would not give.
        if (Object.keys(serialFieldProblems(choice, rowIndex)).length > 0) break;
        const text = serialText(serialNumbering(choice), rowIndex);
        value = variable.type === 'number' ? Number(text) : text;
        break;
      }
      case 'generated':
        value =
          choice.source === 'total'
            ? variable.type === 'number'
              ? sourceTotal
              : String(sourceTotal)
            : choice.source === 'rowIndex'
              ? variable.type === 'number'
                ? rowIndex
                : String(rowIndex)
              : choice.source === 'rowNumber'
                ? variable.type === 'number'
                  ? rowIndex + 1
                  : String(rowIndex + 1)
                : choice.source === 'today'
                  ? new Date().toISOString().slice(0, 10)
                  : '00000000-0000-5000-8000-000000000000';
        break;
      default:
        value = undefined;
    }
    if (value !== undefined && value !== null && value !== '') values[variable.name] = value;
  }
  return values;
}

/** `{sku}-{name}` filled from a row, for the file-name example. */
export function fillPattern(pattern: string, row: Record<string, unknown> | undefined): string {
  return pattern.replace(/\{([^{}]+)\}/g, (_m, name: string) => {
    const value = row?.[name.trim()];
    return value === undefined || value === null ? '' : String(value);
  });
}
