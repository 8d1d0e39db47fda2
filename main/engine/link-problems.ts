import type { Problem } from '../../shared/errors.js';
import { layoutPages } from '../../shared/layout-pages.js';
import type { Layer, Layout, Template } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import { isVisible } from './draw-context.js';
import { fillPlaceholders, placeholderNames } from './format-value.js';
import { linkProblem } from './link-href.js';

/**
 * The links of a layout's visible text and image layers that are not allowed once their
 * placeholders are filled (another scheme, not a URL, too long): checked when a job is
 * prepared, so a render answers 422 before drawing. A problem names the variable the link is
 * made from (`values.website`), or the layer's link when it is the template's own.
 */
export function linkProblems(
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
      if ((layer.kind !== 'text' && layer.kind !== 'image') || layer.link === undefined) continue;
      const link = fillPlaceholders(layer.link, template, values).trim();
      if (link === '') continue;
      const message = linkProblem(link);
      if (message === null) continue;
      const variable = placeholderNames(layer.link).find((name) =>
        template.variables.some((v) => v.name === name),
      );
      const path = variable ? `values.${variable}` : `layers.${layer.id}.link`;
      // The same link on a badge's front and back is one problem.
      const key = `${path}\n${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({ path, message });
    }
  };
  for (const page of layoutPages(layout)) visit(page.layers);
  return problems;
}
