import crypto from 'node:crypto';
import type { BrandProfile } from '../../shared/brand-profile.js';
import { brandValue } from '../../shared/brand-profile.js';
import type { Binding, Bindings } from '../../shared/batch-schemas.js';
import { Errors, type Problem } from '../../shared/errors.js';
import { foldIdentifier } from '../../shared/fold-text.js';
import type { Template, Variable } from '../../shared/template-format.js';
import { cellToValue } from '../../shared/cell-values.js';

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

export interface RowContext {
  batchId: string;
  rowIndex: number;
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
  switch (source.generated) {
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
