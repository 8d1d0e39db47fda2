import type { Template } from '../../../shared/template-format.js';
import { placeholderNames } from '../format-value.js';

/**
 * Where a problem with a code points: the variable its value comes from (`values.barcode`), so
 * the user fixes the cell; else the layer (`layers.ticket-code`), whose value is fixed text.
 */
export function codeValuePath(template: Template, layer: { id: string; value: string }): string {
  const variable = placeholderNames(layer.value).find((name) =>
    template.variables.some((v) => v.name === name),
  );
  return variable ? `values.${variable}` : `layers.${layer.id}`;
}
