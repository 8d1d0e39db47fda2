import type { Template } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import type { DrawContext } from './draw-context.js';
import { fillPlaceholders } from './format-value.js';
import { linkHref } from './link-href.js';
import type { Box } from './paint.js';

/**
 * A clickable link over a box, in PDF output only (a raster has nowhere to keep one). The box
 * is in the layer's own coordinates: Skia maps the rectangle through the current transform onto
 * the page, so a sheet item's placement and scale carry over, and a turned layer's link covers
 * the bounds of the turned box (a PDF link is an upright rectangle).
 */
export function annotateLink(dc: DrawContext, box: Box, href: string | null): void {
  if (!dc.vector || href === null) return;
  dc.ctx.annotateLinkUrl(box.x, box.y, box.x + box.width, box.y + box.height, href);
}

/**
 * A text or image layer's `link` with its placeholders filled: the href to write, or null when
 * there is none or it is empty (a link bound to an empty value links nowhere). A link that is
 * not allowed never gets here: jobs are refused before drawing (link-problems.ts).
 */
export function layerLinkHref(
  layer: { link?: string | undefined },
  template: Template,
  values: Record<string, ResolvedValue>,
): string | null {
  if (layer.link === undefined) return null;
  const link = fillPlaceholders(layer.link, template, values).trim();
  return link === '' ? null : linkHref(link);
}
