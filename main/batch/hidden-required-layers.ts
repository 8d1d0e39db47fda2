import { layoutPages } from '../../shared/layout-pages.js';
import type { Layer, Layout, Template } from '../../shared/template-format.js';
import { placeholderNames } from '../engine/format-value.js';
import { ruleHolds } from '../engine/visibility-rule.js';
import type { ResolvedValue } from '../render/render-protocol.js';

/** A required variable that a row's rules leave without a layer to draw it. */
export interface HiddenRequired {
  variable: string;
  /** The layers that would draw it, every one hidden in this row (by its rule or a stack's). */
  layers: string[];
}

/** The variables a layer draws: its text's or code's placeholders, its image, its list. */
function drawnVariables(layer: Layer): string[] {
  switch (layer.kind) {
    case 'text':
      return placeholderNames(layer.text);
    case 'barcode':
      return placeholderNames(layer.value);
    case 'qr':
      // A VietQR draws the variables its fields name.
      return typeof layer.value === 'string'
        ? placeholderNames(layer.value)
        : Object.values(layer.value.vietqr).flatMap((field) =>
            typeof field === 'object' ? [field.var] : [],
          );
    case 'image':
      return 'var' in layer.source ? [layer.source.var] : [];
    case 'list':
      return [layer.items.var];
    default:
      return [];
  }
}

/**
 * The required variables of `layout` whose every drawing layer the row's values hide, as the
 * engine decides it (the same rule evaluation). A variable drawn by one of several alternatives
 * (a name in each badge colour) is fine while one alternative shows.
 */
export function hiddenRequiredLayers(
  template: Template,
  layout: Layout,
  values: Readonly<Record<string, ResolvedValue>>,
): HiddenRequired[] {
  const required = new Set(template.variables.filter((v) => v.required).map((v) => v.name));
  const drawers = new Map<string, { shown: boolean; layers: string[] }>();
  const visit = (layers: Layer[], parentShown: boolean): void => {
    for (const layer of layers) {
      const shown =
        parentShown &&
        (!layer.visibleWhen || ruleHolds(layer.visibleWhen, values, template.locale));
      for (const name of new Set(drawnVariables(layer))) {
        if (!required.has(name)) continue;
        const seen = drawers.get(name) ?? { shown: false, layers: [] };
        seen.shown ||= shown;
        seen.layers.push(layer.id);
        drawers.set(name, seen);
      }
      if (layer.kind === 'stack') visit(layer.layers, shown);
    }
  };
  for (const page of layoutPages(layout)) visit(page.layers, true);
  return [...drawers]
    .filter(([, seen]) => !seen.shown)
    .map(([variable, seen]) => ({ variable, layers: seen.layers }));
}
