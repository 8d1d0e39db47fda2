import type { TemplateFieldsResult } from '../../shared/batch-schemas.js';
import type { Template, Variable } from '../../shared/template-format.js';
import { csvLine } from './spreadsheet-safety.js';

/**
 * The columns a spreadsheet for this template needs (spec §2.8): every variable except the
 * brand-bound ones, which the brand profile fills. Each field's `example` is what a person types
 * in a spreadsheet cell (`photos/photo.jpg`, `a | b | c`); `sampleRow` is a working row as JSON:
 * sent as json-array records or as `values` to POST /v1/render, it renders as it is (images are
 * the template's own `asset:` files, lists are arrays).
 */
export function templateFields(template: Template): TemplateFieldsResult {
  const content = template.variables.filter((variable) => !variable.bindsTo);
  const fields = content.map((variable) => ({
    name: variable.name,
    type: variable.type,
    ...(variable.label ? { label: variable.label } : {}),
    required: variable.required,
    example: exampleFor(variable, template.sampleValues[variable.name]),
  }));
  const sampleRow: Record<string, unknown> = {};
  for (const variable of content)
    sampleRow[variable.name] = workingValue(variable, template.sampleValues[variable.name]);
  return { templateId: template.id, fields, sampleRow };
}

/** The sample (or default) as a value the API accepts; null (left empty) when there is none. */
function workingValue(variable: Variable, sample: unknown): unknown {
  const value = sample ?? variable.default;
  if (value === undefined || value === null || value === '') return null;
  if (variable.type === 'list' && typeof value === 'string')
    return value
      .split(/\r?\n|\s\|\s|\|/)
      .map((item) => item.trim())
      .filter(Boolean);
  return value;
}

function exampleFor(variable: Variable, sample: unknown): unknown {
  const value = sample ?? variable.default;
  switch (variable.type) {
    case 'image':
      // Template assets mean nothing to a spreadsheet; show the relative-path convention instead.
      return typeof value === 'string' && !value.startsWith('asset:')
        ? value
        : `photos/${variable.name}.jpg`;
    case 'list':
      return Array.isArray(value) ? value.join(' | ') : (value ?? 'First | Second | Third');
    case 'enum':
      return value ?? variable.options[0]?.value ?? '';
    default:
      return value ?? '';
  }
}

/** A one-row CSV to fill in; the BOM makes Excel open it as UTF-8 (Vietnamese stays intact). */
export function templateFieldsCsv(result: TemplateFieldsResult): string {
  const header = csvLine(result.fields.map((f) => f.name));
  const row = csvLine(
    result.fields.map((f) => {
      const example = f.example;
      return typeof example === 'number'
        ? example
        : example === null || example === undefined
          ? ''
          : String(example);
    }),
  );
  return `\ufeff${header}${row}`;
}
