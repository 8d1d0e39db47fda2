import type { Problem } from '../../../shared/errors.js';
import { layoutPages } from '../../../shared/layout-pages.js';
import type { Layer, Layout, Template } from '../../../shared/template-format.js';
import type { ResolvedValue } from '../../render/render-protocol.js';
import { isVisible } from '../draw-context.js';
import { fillPlaceholders } from '../format-value.js';
import { encodeBarcode } from './barcode-symbol.js';
import { codeValuePath } from './code-value-path.js';

/**
 * The values a layout's visible barcodes cannot encode, each named by the variable it comes
 * from (`values.barcode`) with the reason: checked when a job is prepared, so a single render
 * answers 422 and a batch row (or its pre-flight) fails with the same words before drawing.
 */
export function barcodeProblems(
  template: Template,
  layout: Layout,
  values: Record<string, ResolvedValue>,
): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const visit = (layers: Layer[]): void => {
    for (const layer of layers) {
      if (!isVisible(layer, { template, values })) continue;
      if (layer.kind === 'stack') visit(layer.layers);
      if (layer.kind !== 'barcode') continue;
      const value = fillPlaceholders(layer.value, template, values).trim();
      if (!value) continue;
      const encoded = encodeBarcode(layer.symbology, value);
      if (encoded.ok) continue;
      const problem = {
        path: codeValuePath(template, layer),
        message: encoded.reason,
        code: 'barcode-invalid',
      };
      // A code on the front and the back of a badge is one problem.
      const key = `${problem.path}\n${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
  };
  for (const page of layoutPages(layout)) visit(page.layers);
  return problems;
}
