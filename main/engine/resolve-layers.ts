import type { Layer, TextLayer } from '../../shared/template-format.js';
import { isVisible, type DrawContext } from './draw-context.js';
import { groupMembers, groupScales, withGroupScales } from './fit-groups.js';
import { layoutStack, type DrawnLayer } from './stack-layout.js';

/**
 * The layers of a page as they are drawn: visible ones, stacks laid out into their children,
 * fit groups at one scale. A format 1 template has none of these (validation refuses them), and
 * its layers are returned as they are, so it draws exactly as before.
 */
export function resolveLayers(dc: DrawContext, layers: Layer[]): DrawnLayer[] {
  const visible = layers.filter((layer) => isVisible(layer, dc));
  if (dc.template.schemaVersion < 2) return visible as DrawnLayer[];
  const members = groupMembers(visible, dc);
  if (members.length === 0 && !visible.some((layer) => layer.kind === 'stack')) {
    return visible as DrawnLayer[];
  }
  const preferred = new Map(members.map((member) => [member.id, member.size]));
  const scales = groupScales(dc, members);
  let drawn = flatten(dc, withGroupScales(visible, scales));
  // A full stack may have fitted a member below its group's size: the whole group follows.
  const squeezed = groupScales(
    dc,
    drawn.filter((layer): layer is TextLayer => layer.kind === 'text' && preferred.has(layer.id)),
    (layer) => preferred.get(layer.id) ?? layer.size,
  );
  const lower = [...squeezed].some(([group, scale]) => scale < (scales.get(group) ?? 1) - 1e-6);
  if (lower) drawn = flatten(dc, withGroupScales(visible, squeezed));
  return drawn;
}

function flatten(dc: DrawContext, layers: Layer[]): DrawnLayer[] {
  return layers.flatMap((layer) =>
    layer.kind === 'stack' ? layoutStack(dc, layer).layers : [layer],
  );
}
