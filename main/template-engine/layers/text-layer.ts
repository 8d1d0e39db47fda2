import type { TextLayer } from '../../../shared/template-format.js';
import type { DrawContext } from '../draw-context.js';
import { fitText, type TextStyleSpec } from '../fit-text.js';
import { interpolate } from '../format-value.js';
import { missingGlyphs } from '../fonts.js';
import { resolveColour, resolvePaint, roundedRectPath } from '../paint.js';
import { drawLines, fontFamilyOf, transformCase } from '../text-lines.js';

export function drawTextLayer(dc: DrawContext, layer: TextLayer): void {
  const { ctx, template, values } = dc;
  const text = transformCase(
    interpolate(layer.text, template, values).normalize('NFC'),
    layer.transform,
    template.locale,
  );
  if (text.trim() === '') {
    dc.textReports.push({
      id: layer.id,
      fittedSize: layer.size,
      lines: 0,
      truncated: false,
      overflow: false,
    });
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
  const spec: TextStyleSpec = {
    family,
    weight: layer.font.weight,
    style: layer.font.style,
    size: layer.size,
    minSize: layer.minSize ?? layer.size,
    lineHeight: layer.lineHeight,
    letterSpacing: layer.letterSpacing,
    maxLines: layer.maxLines,
    fit: layer.fit,
  };
  const fitted = fitText(ctx, text, spec, Math.max(1, inner.width), Math.max(1, inner.height));
  if (layer.background) {
    const paint = resolvePaint(ctx, layer.background.paint, layer, values);
    if (paint) {
      ctx.fillStyle = paint;
      roundedRectPath(ctx, layer, layer.background.radius);
      ctx.fill();
    }
  }
  const colour = resolveColour(layer.colour, values);
  if (colour) drawLines(ctx, fitted, inner, layer.align, layer.verticalAlign, colour);
  dc.textReports.push({
    id: layer.id,
    fittedSize: fitted.size,
    lines: fitted.lines.length,
    truncated: fitted.truncated,
    overflow: fitted.overflow,
  });
}
