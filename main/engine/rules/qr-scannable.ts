import type { PageSpec } from '../../../shared/template-format.js';
import { encodeQr } from '../qr-encoder.js';
import { qrText } from '../qr-text.js';
import type { Rule, RuleViolation } from './rule-types.js';

/** Below this many pixels per module a phone camera misreads codes on a screen. */
export const MIN_QR_MODULE_PX = 4;

/**
 * Below this many millimetres per module a phone misreads a printed code held at arm's length
 * (a badge on a lanyard, a ticket, a shelf tag); docs/templates.md, "Rules", gives the sources.
 */
export const MIN_QR_MODULE_MM = 0.5;

const MM_PER_INCH = 25.4;

/**
 * The whole pixels a module needs: 4 on a screen; on a print layout as many as make 0.5 mm at
 * its DPI (6 at 300 dpi), since the printed size is what the camera sees.
 */
export function minModulePx(print: PageSpec | undefined): number {
  if (!print) return MIN_QR_MODULE_PX;
  // The small tolerance keeps 0.5 mm at 254 dpi (exactly 5 px) from rounding up to 6.
  return Math.ceil((MIN_QR_MODULE_MM * print.dpi) / MM_PER_INCH - 1e-9);
}

const formatMm = (mm: number) => `${Number(mm.toFixed(2))} mm`;

/**
 * QR codes are drawn large enough to scan (as the QR layer draws them: whole pixels, quiet zone
 * included): ≥ 4 px per module on a screen, ≥ 0.5 mm per module on a print layout. Never on a
 * story or a link preview, where nobody can point a camera at them.
 */
export const qrScannable: Rule = (page): RuleViolation[] =>
  page.layers.flatMap((layer): RuleViolation[] => {
    if (layer.kind !== 'qr') return [];
    // A VietQR that does not pass is the render's 422, not a rule's warning.
    const text = qrText(layer, page.dc.template, page.dc.values);
    if (!text) return [];
    if (page.ratio === 'story' || page.ratio === 'og') {
      return [
        {
          rule: 'qr-placement' as const,
          layer: layer.id,
          page: page.page,
          message: `"${layer.id}" is a QR code on a ${page.ratio === 'og' ? 'link preview' : 'story'}, which is seen on the phone that would have to scan it. Show the address as text instead, or hide the code on this ratio.`,
        },
      ];
    }
    const count = encodeQr(text, layer.errorCorrection).modules.size;
    const modulePx = Math.floor(Math.min(layer.width, layer.height) / (count + layer.margin * 2));
    const needed = minModulePx(page.print);
    if (modulePx >= needed) return [];
    const side = Math.ceil(needed * (count + layer.margin * 2));
    const drawn = Math.max(1, modulePx);
    const fix = `Make the box at least ${side} × ${side} px, use a shorter link, or a lower errorCorrection.`;
    const message = page.print
      ? `"${layer.id}" prints ${count} × ${count} modules of ${formatMm((drawn * MM_PER_INCH) / page.print.dpi)} each (${drawn} px at ${page.print.dpi} dpi); a printed code needs ${MIN_QR_MODULE_MM} mm, ${needed} px. ${fix}`
      : `"${layer.id}" draws ${count} × ${count} modules at ${drawn} px each; a scannable code needs ${MIN_QR_MODULE_PX} px. ${fix}`;
    return [{ rule: 'qr-too-dense' as const, layer: layer.id, page: page.page, message }];
  });
