import type { Layer, TextLayer } from '../../shared/template-format.js';
import { isVisible, type DrawContext } from './draw-context.js';
import { defaultMinSize } from './fit-text.js';
import { measureTextLayer } from './measure-text-layer.js';

/** Each fit group's scale: the share of their preferred sizes its members are drawn at. */
export type GroupScales = Map<string, number>;

/** The visible text layers of a fit group, at any depth of stacks. */
export function groupMembers(layers: Layer[], dc: DrawContext): TextLayer[] {
  const members: TextLayer[] = [];
  const walk = (list: Layer[]) => {
    for (const layer of list) {
      if (!isVisible(layer, dc)) continue;
      if (layer.kind === 'stack') walk(layer.layers);
      else if (layer.kind === 'text' && layer.fitGroup) members.push(layer);
    }
  };
  walk(layers);
  return members;
}

/**
 * The scale of each group: the smallest any member needs to fit its box (its fitted size over
 * its preferred size), so a hero and its subtitle keep their ratio instead of each shrinking on
 * its own. `preferred` gives each member's preferred size by id (its own size when absent).
 */
export function groupScales(
  dc: DrawContext,
  members: TextLayer[],
  preferred: (layer: TextLayer) => number = (layer) => layer.size,
): GroupScales {
  const scales: GroupScales = new Map();
  for (const member of members) {
    const measured = measureTextLayer(dc, member);
    if (!measured || !member.fitGroup) continue;
    const scale = Math.min(1, measured.size / preferred(member));
    scales.set(member.fitGroup, Math.min(scales.get(member.fitGroup) ?? 1, scale));
  }
  return scales;
}

/**
 * A member at its group's scale: preferred size × scale, whole pixels down, never below the
 * member's own minSize (then that member keeps its minimum and the ratio gives way, rather than
 * text becoming unreadable). Letter spacing follows the size; fitting may still go smaller if
 * the box needs it.
 */
export function scaledMember(layer: TextLayer, scale: number): TextLayer {
  const minSize = layer.minSize ?? defaultMinSize(layer.size);
  const size = Math.max(minSize, Math.max(1, Math.floor(layer.size * scale + 1e-6)));
  if (size >= layer.size) return layer;
  return {
    ...layer,
    size,
    minSize: Math.min(size, minSize),
    letterSpacing: (layer.letterSpacing * size) / layer.size,
  };
}

/** The layers with every group member at its group's scale (stacks rebuilt around them). */
export function withGroupScales(layers: Layer[], scales: GroupScales): Layer[] {
  if (scales.size === 0) return layers;
  return layers.map((layer): Layer => {
    if (layer.kind === 'stack') return { ...layer, layers: withGroupScales(layer.layers, scales) };
    if (layer.kind !== 'text' || !layer.fitGroup) return layer;
    const scale = scales.get(layer.fitGroup);
    return scale === undefined || scale >= 1 ? layer : scaledMember(layer, scale);
  });
}
