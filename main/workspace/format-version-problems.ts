import type { Problem } from '../../shared/errors.js';
import type { Template } from '../../shared/template-format.js';
import { formatPath } from '../../shared/zod-problems.js';

/**
 * Properties only format 2 reads. A format 1 template that sets one would render without it
 * (format 1 renders exactly as it always did), so saving one is refused with a problem that
 * says what to change. Keyed by layer kind; other format 2 features add their names here.
 */
const FORMAT_2_LAYER_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  text: [
    'wrap',
    'markup',
    'decoration',
    'currencyScale',
    'currencyRaise',
    'direction',
    'path',
    'fitGroup',
  ],
  image: ['keep', 'background'],
  list: ['priceColumn'],
};
const FORMAT_2_NUMBER_FORMAT_PROPERTIES = ['notation'];

const needs = (property: string) =>
  `${property} needs schemaVersion 2; set "schemaVersion": 2 on the template or remove ${property}`;

export function formatVersionProblems(template: Template, prefix = ''): Problem[] {
  if (template.schemaVersion >= 2) return [];
  const problems: Problem[] = [];
  template.variables.forEach((variable, index) => {
    if (variable.type === 'image' && variable.keep) {
      problems.push({
        path: formatPath(prefix, ['variables', index, 'keep']),
        message: needs('keep'),
      });
    }
    if (variable.type !== 'number' || !variable.format) return;
    for (const property of FORMAT_2_NUMBER_FORMAT_PROPERTIES) {
      if (property in variable.format) {
        problems.push({
          path: formatPath(prefix, ['variables', index, 'format', property]),
          message: needs(property),
        });
      }
    }
  });
  const visitLayers = (layers: unknown, path: PropertyKey[]) => {
    if (!Array.isArray(layers)) return;
    layers.forEach((layer: Record<string, unknown>, index) => {
      const at = [...path, 'layers', index];
      if (layer.kind === 'stack') {
        problems.push({
          path: formatPath(prefix, [...at, 'kind']),
          message: needs('a stack layer'),
        });
      }
      for (const property of FORMAT_2_LAYER_PROPERTIES[String(layer.kind)] ?? []) {
        if (layer[property] !== undefined) {
          problems.push({ path: formatPath(prefix, [...at, property]), message: needs(property) });
        }
      }
      // Layers that hold layers (format 2 stacks) are visited too.
      visitLayers(layer.layers, at);
    });
  };
  for (const [name, layout] of Object.entries(template.layouts)) {
    if (!layout) continue;
    visitLayers(layout.layers, ['layouts', name]);
    (layout.morePages ?? []).forEach((page, index) =>
      visitLayers(page.layers, ['layouts', name, 'morePages', index]),
    );
  }
  return problems;
}
