import crypto from 'node:crypto';
import type { BrandProfile } from '../../shared/brand-profile.js';
import { brandValue } from '../../shared/brand-profile.js';
import type { Binding, Bindings } from '../../shared/batch-schemas.js';
import { Errors, type Problem } from '../../shared/errors.js';
import { foldIdentifier } from '../../shared/fold-text.js';
import type { Template, Variable, VariableType } from '../../shared/template-format.js';
import { cellToValue } from '../../shared/cell-values.js';
import { serialRangeProblem, serialText } from '../../shared/serial-numbers.js';

/**
 * Where each template variable takes its value from in a batch (DESIGN §4): an explicit binding,
 * else the source field of the same name (ignoring case, spacing and Vietnamese diacritics, so
 * "Tiêu đề" feeds `tieu_de`), else the brand profile, else the variable's default.
 */
export type BindingSource = Binding | { auto: 'default' };

export interface BindingPlan {
  variables: { variable: Variable; source: BindingSource }[];
}

export function planBindings(
  template: Template,
  fields: readonly string[],
  bindings: Bindings = {},
): BindingPlan {
  const problems: Problem[] = [];
  const declared = new Map(template.variables.map((v) => [v.name, v]));
  for (const name of Object.keys(bindings)) {
    if (!declared.has(name)) {
      problems.push({
        path: `bindings.${name}`,
        message: `the template has no variable "${name}"`,
      });
    }
  }
  const byFolded = new Map<string, string>();
  for (const field of fields) {
    const folded = foldIdentifier(field);
    if (folded && !byFolded.has(folded)) byFolded.set(folded, field);
  }
  const variables = template.variables.map((variable) => {
    const explicit = bindings[variable.name];
    if (explicit) {
      if ('field' in explicit && !fields.includes(explicit.field)) {
        const folded = byFolded.get(foldIdentifier(explicit.field));
        if (folded) return { variable, source: { field: folded } };
        problems.push({
          path: `bindings.${variable.name}.field`,
          message: `the source has no field "${explicit.field}"; fields are ${fields.join(', ') || '(none)'}`,
        });
      }
      const counted = countedBindingProblem(variable, explicit);
      if (counted) problems.push(counted);
      return { variable, source: explicit };
    }
    const field =
      byFolded.get(foldIdentifier(variable.name)) ??
      (variable.label ? byFolded.get(foldIdentifier(variable.label)) : undefined);
    if (field !== undefined) return { variable, source: { field } as BindingSource };
    return { variable, source: { auto: 'default' } as BindingSource };
  });
  if (problems.length > 0) throw Errors.validation(problems);
  return { variables };
}

const COUNTED_TYPES: readonly VariableType[] = ['text', 'longText', 'number'];

/**
 * Serials and the row count are text, or a number variable's number: a number has no prefix,
 * suffix or padding to keep, and a date, list or image cannot hold either.
 */
function countedBindingProblem(variable: Variable, binding: Binding): Problem | null {
  const counted =
    'serial' in binding ? 'serial' : 'generated' in binding && binding.generated === 'total';
  if (!counted) return null;
  if (!COUNTED_TYPES.includes(variable.type)) {
    return {
      path: `bindings.${variable.name}`,
      message: `"${variable.name}" is a ${variable.type} variable; ${counted === 'serial' ? 'a serial number' : 'the row count'} fills a text or number variable`,
    };
  }
  if ('serial' in binding && variable.type === 'number') {
    const { prefix, suffix, pad } = binding.serial;
    const text = Object.entries({ prefix, suffix, pad })
      .filter(([, value]) => value)
      .map(([key]) => key);
    if (text.length > 0)
      return {
        path: `bindings.${variable.name}.serial.${text[0]}`,
        message: `"${variable.name}" is a number variable, which draws the number alone; bind a text variable to add ${text.join(', ')}`,
      };
  }
  return null;
}

/**
 * A serial binding's problem over rows 0 to `lastRow` of the source (the batch's last row), at
 * once rather than as failed rows: a count down that goes below 0.
 */
export function serialRangeProblems(bindings: Bindings, lastRow: number): Problem[] {
  return Object.entries(bindings).flatMap(([name, binding]) => {
    if (!('serial' in binding)) return [];
    const message = serialRangeProblem(binding.serial, lastRow);
    return message ? [{ path: `bindings.${name}.serial`, message }] : [];
  });
}

export interface RowContext {
  batchId: string;
  /** The row's position in the batch's source (0-based): its row number and serial. */
  rowIndex: number;
  /** How many rows the batch's source has (`{ generated: total }`). */
  sourceTotal: number;
  brand: BrandProfile;
  /** The batch's creation date (YYYY-MM-DD): `today` stays the same on replay. */
  today: string;
  locale: string;
}

/** The raw values of one row; empty cells are left out so defaults and brand values apply. */
export function valuesForRow(
  plan: BindingPlan,
  record: Readonly<Record<string, unknown>>,
  context: RowContext,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { variable, source } of plan.variables) {
    const value = sourceValue(variable, source, record, context);
    if (value !== undefined && value !== null && value !== '') values[variable.name] = value;
  }
  return values;
}

function sourceValue(
  variable: Variable,
  source: BindingSource,
  record: Readonly<Record<string, unknown>>,
  context: RowContext,
): unknown {
  if ('auto' in source) return undefined;
  if ('field' in source) {
    const locale =
      (variable.type === 'number' || variable.type === 'date') && variable.locale
        ? variable.locale
        : context.locale;
    // Own cells only: a field named `__proto__` or `constructor` is a column, never
    // Object.prototype's member (stored rows come back from JSON as plain objects).
    const cell = Object.hasOwn(record, source.field) ? record[source.field] : undefined;
    return cellToValue(variable, cell, locale);
  }
  if ('constant' in source) return source.constant;
  if ('profile' in source) return brandValue(context.brand, source.profile) ?? undefined;
  if ('serial' in source) {
    const problem = serialRangeProblem(source.serial, context.rowIndex);
    if (problem)
      throw Errors.validation([{ path: `bindings.${variable.name}.serial`, message: problem }]);
    const text = serialText(source.serial, context.rowIndex);
    return variable.type === 'number' ? Number(text) : text;
  }
  switch (source.generated) {
    case 'total':
      return variable.type === 'number' ? context.sourceTotal : String(context.sourceTotal);
    case 'rowIndex':
      return variable.type === 'number' ? context.rowIndex : String(context.rowIndex);
    case 'rowNumber':
      return variable.type === 'number' ? context.rowIndex + 1 : String(context.rowIndex + 1);
    case 'today':
      return context.today;
    case 'uuid':
      // Derived, not random: a replayed row must render the same bytes.
      return deterministicUuid(`${context.batchId}:${context.rowIndex}`);
  }
}

export function deterministicUuid(seed: string): string {
  const hex = crypto.createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
