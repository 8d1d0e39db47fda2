import type { TextLayer } from '../../../shared/template-format.js';
import { reportEmptyText, reportFittedText, type DrawContext } from '../draw-context.js';
import { fitText, layerTextSpec, nameFloor } from '../fit-text.js';
import { fillPlaceholders, holdsOnlyNames } from '../format-value.js';
import { missingGlyphs } from '../fonts.js';
import { resolveColour, resolvePaint, roundedRectPath } from '../paint.js';
import { transformCase } from '../text-case.js';
import { drawLines, fontFamilyOf } from '../text-lines.js';
import { drawFormat2TextLayer } from '../text/format2-text-layer.js';

export function drawTextLayer(dc: DrawContext, layer: TextLayer): void {
  // Format 2 text (balanced breaks, rich text, arcs) has its own path; format 1's stays as it was.
  if (dc.template.schemaVersion >= 2) return drawFormat2TextLayer(dc, layer);
  const { ctx, template, values } = dc;
  // NFC first: decomposed Vietnamese would shape its marks as separate glyphs.
  const text = transformCase(
    fillPlaceholders(layer.text.normalize('NFC'), template, values).normalize('NFC'),
    layer.transform,
    template.locale,
  ).normalize('NFC');
  if (text.trim() === '') {
    reportEmptyText(dc, layer);
    return;
  }
  const family = fontFamilyOf(layer.font.family, values);
  for (const missing of missingGlyphs(text, family)) dc.missingGlyphs.add(missing);
  const padding = layer.background?.padding ?? 0;
  const inner = {
    x: layer.x + padding,
    y: layer.y + padding,
    width: layer.width - 2 * padding,
    height: layer.height - 2 * padding,
  };
  const spec = layerTextSpec(layer, family, { maxLines: layer.maxLines, fit: layer.fit });
  if (holdsOnlyNames(layer.text, template)) spec.wholeWordFloor = nameFloor(spec.minSize);
  const fitted = fitText(ctx, text, spec, Math.max(1, inner.width), Math.max(1, inner.height));
  if (layer.background) {
    // The pill hugs the fitted text (plus padding), placed like the text inside the box.
    const paint = resolvePaint(ctx, layer.background.paint, layer, values);
    if (paint) {
      const textWidth = Math.max(0, ...fitted.widths);
      const textHeight = fitted.lines.length * fitted.lineHeightPx;
      const pill = {
        width: Math.min(layer.width, textWidth + 2 * padding),
        height: Math.min(layer.height, textHeight + 2 * padding),
      };
      const free = { x: layer.width - pill.width, y: layer.height - pill.height };
      const at = { left: 0, center: 0.5, right: 1, top: 0, middle: 0.5, bottom: 1 };
      const box = {
        x: layer.x + free.x * at[layer.align],
        y: layer.y + free.y * at[layer.verticalAlign],
        ...pill,
      };
      ctx.fillStyle = paint;
      roundedRectPath(ctx, box, layer.background.radius);
      ctx.fill();
    }
  }
  const colour = resolveColour(layer.colour, values);
  if (colour) {
    // Fitting keeps text inside; the clip is the guarantee for stray marks and emoji overhangs.
    ctx.save();
    ctx.beginPath();
    ctx.rect(layer.x, layer.y, layer.width, layer.height);
    ctx.clip();
    drawLines(ctx, fitted, inner, layer.align, layer.verticalAlign, colour);
    ctx.restore();
  }
  reportFittedText(dc, layer, fitted);
}
