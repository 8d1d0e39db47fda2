import type { PageSpec } from '../../../shared/template-format.js';
import type { DrawnLayer } from '../stack-layout.js';
import type { Rule, RuleViolation } from './rule-types.js';

/**
 * Art that stops short of the trim by less than this leaves a hairline of paper or a sliver of
 * colour when the guillotine drifts (cutters hold about ±0.5 mm): take it through the bleed, or
 * keep it clear of the edge.
 */
export const MIN_TRIM_CLEARANCE_MM = 1;

const MM_PER_INCH = 25.4;
const EDGES = ['left', 'top', 'right', 'bottom'] as const;
type Edge = (typeof EDGES)[number];

const pxPer = (print: PageSpec, length: number) =>
  (length * print.dpi) / (print.unit === 'mm' ? MM_PER_INCH : 1);

/** The page area a layer covers: its box, turned about its centre as the layer is. */
function boundsOf(layer: DrawnLayer) {
  const turn = ((layer.rotation ?? 0) * Math.PI) / 180;
  const [cos, sin] = [Math.abs(Math.cos(turn)), Math.abs(Math.sin(turn))];
  const width = layer.width * cos + layer.height * sin;
  const height = layer.width * sin + layer.height * cos;
  const x = layer.x + (layer.width - width) / 2;
  const y = layer.y + (layer.height - height) / 2;
  return { x, y, width, height };
}

/**
 * On a print layout, shapes and images (the art) that reach the trim run on through the whole
 * bleed, and art that stops short stays at least 1 mm clear: a band or edge bar cut exactly at
 * the trim shows white paper wherever the cut drifts outwards. Text, codes and the layout's
 * background are not judged (the safe margin keeps the first two in; the background always
 * fills the bleed).
 */
export const printBleed: Rule = (page): RuleViolation[] => {
  const print = page.print;
  if (!print) return [];
  const bleed = pxPer(print, print.bleed);
  const clearance = (MIN_TRIM_CLEARANCE_MM * print.dpi) / MM_PER_INCH;
  return page.layers.flatMap((layer): RuleViolation[] => {
    if (layer.kind !== 'shape' && layer.kind !== 'image') return [];
    const b = boundsOf(layer);
    // How far the art stops inside each trim edge (negative: it runs past it).
    const inside: Record<Edge, number> = {
      left: b.x,
      top: b.y,
      right: page.width - (b.x + b.width),
      bottom: page.height - (b.y + b.height),
    };
    // With no bleed nothing runs through it: art reaching the trim always breaks the rule.
    const through = (edge: Edge) => bleed > 0 && inside[edge] <= -bleed + 0.5;
    const short = EDGES.filter((edge) => inside[edge] < clearance - 0.5 && !through(edge));
    if (short.length === 0) return [];
    const bleedMm = print.unit === 'mm' ? print.bleed : print.bleed * MM_PER_INCH;
    const fix =
      print.bleed > 0
        ? `Extend it ${Math.ceil(bleed)} px past the trim (the ${Number(bleedMm.toFixed(2))} mm bleed)`
        : `Give the page a bleed (2–3 mm) and extend the art through it`;
    return [
      {
        rule: 'art-without-bleed' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" ends at the ${short.join(', ')} trim edge${short.length > 1 ? 's' : ''} without running through the bleed, so a cut a fraction off shows a white edge. ${fix}, or keep it at least ${MIN_TRIM_CLEARANCE_MM} mm (${Math.ceil(clearance)} px) inside the trim.`,
      },
    ];
  });
};
