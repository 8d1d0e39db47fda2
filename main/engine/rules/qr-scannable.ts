import QRCode from 'qrcode';
import { fillPlaceholders } from '../format-value.js';
import type { Rule, RuleViolation } from './rule-types.js';

/** Below this many pixels per module a phone camera misreads codes on a screen or a print. */
export const MIN_QR_MODULE_PX = 4;

/**
 * QR codes are drawn large enough to scan (≥ 4 px per module, as the QR layer draws them: whole
 * pixels, quiet zone included) and never on a story or a link preview, where nobody can point a
 * camera at them.
 */
export const qrScannable: Rule = (page): RuleViolation[] =>
  page.layers.flatMap((layer): RuleViolation[] => {
    if (layer.kind !== 'qr') return [];
    const text = fillPlaceholders(layer.value, page.dc.template, page.dc.values).trim();
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
    const count = QRCode.create(text, { errorCorrectionLevel: layer.errorCorrection }).modules.size;
    const modulePx = Math.floor(Math.min(layer.width, layer.height) / (count + layer.margin * 2));
    if (modulePx >= MIN_QR_MODULE_PX) return [];
    const side = Math.ceil(MIN_QR_MODULE_PX * (count + layer.margin * 2));
    return [
      {
        rule: 'qr-too-dense' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" draws ${count} × ${count} modules at ${Math.max(1, modulePx)} px each; a scannable code needs ${MIN_QR_MODULE_PX} px. Make the box at least ${side} × ${side} px, use a shorter link, or a lower errorCorrection.`,
      },
    ];
  });
