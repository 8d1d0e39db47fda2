import type { Problem } from '../../../shared/errors.js';
import { layoutPages } from '../../../shared/layout-pages.js';
import type { Layer, Layout, Template } from '../../../shared/template-format.js';
import type { ResolvedValue } from '../../render/render-protocol.js';
import { isVisible } from '../draw-context.js';
import { checkVietQr } from './vietqr-fields.js';

/**
 * The fields of a layout's visible VietQR codes that cannot go into a payload, each named by
 * the variable it comes from (`values.amount`) or, for a value written into the template, by
 * its place in the layer (`layers.pay.value.vietqr.bank`): checked when a job is prepared, so a
 * single render answers 422 and a batch row (or its pre-flight) fails before drawing.
 */
export function vietQrProblems(
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
      if (layer.kind !== 'qr' || typeof layer.value === 'string') continue;
      const checked = checkVietQr(layer.value.vietqr, values);
      if (checked.ok) continue;
      for (const { field, variable, message } of checked.problems) {
        const path = variable ? `values.${variable}` : `layers.${layer.id}.value.vietqr.${field}`;
        // The same code on a card's two sides is one problem.
        if (seen.has(`${path}\n${message}`)) continue;
        seen.add(`${path}\n${message}`);
        problems.push({ path, message, code: 'vietqr-invalid' });
      }
    }
  };
  for (const page of layoutPages(layout)) visit(page.layers);
  return problems;
}
