import type { Rule } from './rule-types.js';
import type { DrawnLayer } from '../stack-layout.js';

/** A story's top and bottom that the app's own interface covers (profile bar, reply field). */
export const STORY_SAFE_TOP = 250;
export const STORY_SAFE_BOTTOM = 340;

/**
 * Whether a layer carries something a viewer needs (text, a logo, a price, a QR code). Shapes
 * are ornament; an image covering nearly the whole canvas is a backdrop; `decorative` exempts
 * any layer.
 */
function isEssential(layer: DrawnLayer, canvasArea: number): boolean {
  if (layer.decorative) return false;
  if (layer.kind === 'shape') return false;
  if (layer.kind === 'image') return layer.width * layer.height < 0.9 * canvasArea;
  return true;
}

export const storySafeZone: Rule = (page) => {
  if (page.ratio !== 'story') return [];
  const bottom = page.height - STORY_SAFE_BOTTOM;
  return page.layers.flatMap((layer) => {
    if (!isEssential(layer, page.width * page.height)) return [];
    const report = page.reports.get(layer.id);
    if (report && report.lines === 0) return [];
    const top = layer.y < STORY_SAFE_TOP - 0.5;
    const low = layer.y + layer.height > bottom + 0.5;
    if (!top && !low) return [];
    const where = top
      ? `starts at y ${Math.round(layer.y)}, inside the top ${STORY_SAFE_TOP} px`
      : `reaches y ${Math.round(layer.y + layer.height)}, inside the bottom ${STORY_SAFE_BOTTOM} px`;
    return [
      {
        rule: 'story-safe-zone' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" ${where} of the story, which the app's interface covers. Keep it between y ${STORY_SAFE_TOP} and y ${bottom}, or mark it decorative if it is a background or ornament.`,
      },
    ];
  });
};
