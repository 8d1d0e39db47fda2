import type { QrLayer } from '../../../shared/template-format.js';
import type { DrawContext } from '../draw-context.js';
import { noteDrawnCode } from '../barcode/drawn-code.js';
import { resolveColour } from '../paint.js';
import { codeLinkHref } from '../link-href.js';
import { annotateLink } from '../pdf-links.js';
import { encodeQr } from '../qr-encoder.js';
import { qrText } from '../qr-text.js';

/**
 * A crisp QR code: whole-pixel modules, centred in the box, with its quiet zone. In a PDF, a
 * code that holds a web address is also a link over the code.
 */
export function drawQrLayer(dc: DrawContext, layer: QrLayer): void {
  const { ctx, template, values } = dc;
  const text = qrText(layer, template, values);
  // A VietQR's fields were checked when the job was prepared (vietqr-problems.ts): one that
  // does not pass fails the render rather than print a code that sends money nowhere.
  if (text === null)
    throw new Error(`The VietQR "${layer.id}" cannot be drawn: its fields do not pass`);
  if (!text) return;
  const qr = encodeQr(text, layer.errorCorrection);
  const count = qr.modules.size;
  const total = count + layer.margin * 2;
  const module = Math.max(1, Math.floor(Math.min(layer.width, layer.height) / total));
  const side = module * total;
  const left = Math.round(layer.x + (layer.width - side) / 2);
  const top = Math.round(layer.y + (layer.height - side) / 2);
  if (dc.codes) {
    noteDrawnCode(dc.codes, ctx, {
      layerId: layer.id,
      // A VietQR's payload comes from several fields: the layer is named instead.
      source: typeof layer.value === 'string' ? layer.value : '',
      label: 'QR code',
      format: 'QRCode',
      expected: text,
      area: { x: left, y: top, width: side, height: side },
      module,
    });
  }
  if (dc.placeOnly) return;
  const background = resolveColour(layer.background, values);
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(left, top, side, side);
  }
  ctx.fillStyle = resolveColour(layer.foreground, values) ?? '#000000';
  const origin = layer.margin * module;
  annotateLink(dc, { x: left, y: top, width: side, height: side }, codeLinkHref(text));
  if (dc.vector || dc.pdfRaster) {
    // A PDF gets one path of horizontal runs: a few hundred rectangles filled once, instead of a
    // fill operation per module (a sheet of badges draws thousands of codes). The raster its
    // codes are checked on too: a turned code shows no seams between modules, as in the PDF.
    ctx.beginPath();
    for (let row = 0; row < count; row += 1) {
      let col = 0;
      while (col < count) {
        if (!qr.modules.get(row, col)) {
          col += 1;
          continue;
        }
        const start = col;
        while (col < count && qr.modules.get(row, col)) col += 1;
        ctx.rect(
          left + origin + start * module,
          top + origin + row * module,
          (col - start) * module,
          module,
        );
      }
    }
    ctx.fill();
    return;
  }
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (qr.modules.get(row, col))
        ctx.fillRect(left + origin + col * module, top + origin + row * module, module, module);
    }
  }
}
