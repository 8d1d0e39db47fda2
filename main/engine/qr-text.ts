import type { QrLayer, Template } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';
import { fillPlaceholders } from './format-value.js';
import { checkVietQr } from './vietqr/vietqr-fields.js';

/**
 * The text a QR layer encodes: its value with placeholders filled, or the payload of its VietQR
 * ('' draws nothing). A VietQR whose fields do not pass gives null: those were refused when the
 * job was prepared (vietqr-problems.ts), so a drawing layer fails and a rule looks away.
 */
export function qrText(
  layer: QrLayer,
  template: Template,
  values: Record<string, ResolvedValue>,
): string | null {
  if (typeof layer.value === 'string')
    return fillPlaceholders(layer.value, template, values).trim();
  const checked = checkVietQr(layer.value.vietqr, values);
  return checked.ok ? checked.payload : null;
}
