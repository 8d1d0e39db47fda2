import type { TextLayer } from '../../../shared/template-format.js';
import { reportEmptyText, reportFittedText, type DrawContext } from '../draw-context.js';
import { inkSpan, layerTextSpec, nameFloor, type TextStyleSpec } from '../fit-text.js';
import { fillPlaceholders, holdsOnlyNames } from '../format-value.js';
import { missingGlyphs } from '../fonts.js';
import { resolveColour, resolvePaint, roundedRectPath } from '../paint.js';
import { fontFamilyOf } from '../text-lines.js';
import { drawArcText, fitArcText } from './arc-text.js';
import { plainSpaces } from './keep-together.js';
import { layerRuns, richSpecOf } from './layer-runs.js';
import { drawRichLines, fitRichText, type RichFitted, type RichSpec } from './rich-text.js';
import { mirroredAlign } from './text-direction.js';
import { runsText, type Run } from './text-runs.js';

/**
 * A text layer of a format 2 template: styled runs (markup, small currency symbols), balanced
 * or greedy breaks, decorations, right-to-left paragraphs, or text on an arc. Fitted and
 * reported like format 1's text (size used, lines, ellipsis, overflow, missing glyphs).
 */
interface Prepared {
  runs: Run[];
  text: string;
  spec: TextStyleSpec;
  rich: RichSpec;
}

function prepare(dc: DrawContext, layer: TextLayer): Prepared | null {
  // NFC first: decomposed Vietnamese would shape its marks as separate glyphs.
  const filled = fillPlaceholders(
    layer.text.normalize('NFC'),
    dc.template,
    dc.values,
    !layer.path,
  ).normalize('NFC');
  const runs = layerRuns(layer, filled, dc.template.locale);
  // Keep-together spaces only steer line breaks: glyph checks and arcs see plain spaces.
  const text = plainSpaces(runsText(runs));
  if (text.trim() === '') return null;
  const spec = layerTextSpec(layer, fontFamilyOf(layer.font.family, dc.values), {
    maxLines: layer.maxLines,
    fit: layer.fit,
  });
  if (holdsOnlyNames(layer.text, dc.template)) spec.wholeWordFloor = nameFloor(spec.minSize);
  return { runs, text, spec, rich: richSpecOf(layer, spec, text) };
}

function innerBox(layer: TextLayer) {
  const padding = layer.background?.padding ?? 0;
  return {
    x: layer.x + padding,
    y: layer.y + padding,
    width: Math.max(1, layer.width - 2 * padding),
    height: Math.max(1, layer.height - 2 * padding),
    padding,
  };
}

/**
 * How a format 2 text layer's text fits its box, and the space it takes with its padding (for
 * auto-layout); null when there is no text or the text follows an arc.
 */
export function measureFormat2TextLayer(
  dc: DrawContext,
  layer: TextLayer,
): { fitted: RichFitted; width: number; height: number } | null {
  const prepared = prepare(dc, layer);
  if (!prepared || layer.path) return null;
  const inner = innerBox(layer);
  const fitted = fitRichText(dc.ctx, prepared.runs, prepared.rich, inner.width, inner.height);
  const span = inkSpan(dc.ctx, fitted.lines, fitted.lineHeightPx, fitted.size);
  return {
    fitted,
    width: fitted.needed + 2 * inner.padding,
    height: span.bottom - span.top + 2 * inner.padding,
  };
}

export function drawFormat2TextLayer(dc: DrawContext, layer: TextLayer): void {
  const { ctx, values } = dc;
  const prepared = prepare(dc, layer);
  if (!prepared) {
    reportEmptyText(dc, layer);
    return;
  }
  const { runs, text, spec, rich } = prepared;
  for (const missing of missingGlyphs(text, spec.family)) dc.missingGlyphs.add(missing);
  const colour = resolveColour(layer.colour, values);
  const clipToBox = (draw: () => void) => {
    // Fitting keeps text inside; the clip is the guarantee for stray marks and emoji overhangs.
    ctx.save();
    ctx.beginPath();
    ctx.rect(layer.x, layer.y, layer.width, layer.height);
    ctx.clip();
    draw();
    ctx.restore();
  };
  if (layer.path) {
    const path = layer.path;
    const arc = fitArcText(ctx, text, spec, path, layer);
    if (colour) clipToBox(() => drawArcText(ctx, arc, spec, path, layer, colour));
    dc.textReports.push({
      id: layer.id,
      fittedSize: arc.size,
      lines: 1,
      truncated: arc.truncated,
      overflow: false,
    });
    return;
  }
  const inner = innerBox(layer);
  const fitted = fitRichText(ctx, runs, rich, inner.width, inner.height);
  const align = mirroredAlign(layer.align, rich.rtl);
  if (layer.background) {
    // The pill hugs the fitted text (plus padding), placed like the text inside the box.
    const paint = resolvePaint(ctx, layer.background.paint, layer, values);
    if (paint) {
      const pill = {
        width: Math.min(layer.width, Math.max(0, ...fitted.widths) + 2 * inner.padding),
        height: Math.min(
          layer.height,
          fitted.lines.length * fitted.lineHeightPx + 2 * inner.padding,
        ),
      };
      const at = { left: 0, center: 0.5, right: 1, top: 0, middle: 0.5, bottom: 1 };
      const box = {
        x: layer.x + (layer.width - pill.width) * at[align],
        y: layer.y + (layer.height - pill.height) * at[layer.verticalAlign],
        ...pill,
      };
      ctx.fillStyle = paint;
      roundedRectPath(ctx, box, layer.background.radius);
      ctx.fill();
    }
  }
  if (colour) {
    clipToBox(() => drawRichLines(ctx, fitted, rich, inner, align, layer.verticalAlign, colour));
  }
  reportFittedText(dc, layer, fitted);
}
