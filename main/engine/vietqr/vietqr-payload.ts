import { crc16CcittFalse } from './crc16-ccitt.js';

/** A VietQR's checked parts: what vietqr-fields.ts gives once a layer's values pass. */
export interface VietQrTransfer {
  bin: string;
  account: string;
  /** Đồng, digits only; absent for a code the payer types the amount into. */
  amount?: string;
  /** ASCII letters, digits and spaces, at most 25. */
  message?: string;
}

/** NAPAS's globally unique identifier, in the merchant account information (tag 38, 00). */
const NAPAS_GUID = 'A000000727';
/** NAPAS 247 transfer to an account (tag 38, 02); cards would be QRIBFTTC. */
const TO_ACCOUNT = 'QRIBFTTA';
/** ISO 4217 numeric code of the đồng, and the country. */
const VND = '704';
const COUNTRY = 'VN';

/** One EMVCo TLV field: two-digit tag, two-digit length, value. */
export function emvField(tag: string, value: string): string {
  if (value.length > 99)
    throw new Error(`EMV field ${tag} is ${value.length} characters; 99 at most`);
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/**
 * The NAPAS 247 VietQR payload of a transfer, in the EMVCo merchant-presented format: payload
 * format 01; initiation 11 (static, no amount) or 12 (dynamic, with one); tag 38 with NAPAS's
 * GUID, the beneficiary (BIN and account) and the service code; currency 704; the amount; country
 * VN; the message as tag 62's purpose (08); and tag 63, the CRC of all before it and "6304".
 */
export function vietQrPayload(transfer: VietQrTransfer): string {
  const beneficiary = emvField('00', transfer.bin) + emvField('01', transfer.account);
  const merchant =
    emvField('00', NAPAS_GUID) + emvField('01', beneficiary) + emvField('02', TO_ACCOUNT);
  const body = [
    emvField('00', '01'),
    emvField('01', transfer.amount ? '12' : '11'),
    emvField('38', merchant),
    emvField('53', VND),
    transfer.amount ? emvField('54', transfer.amount) : '',
    emvField('58', COUNTRY),
    transfer.message ? emvField('62', emvField('08', transfer.message)) : '',
    '6304',
  ].join('');
  return body + crc16CcittFalse(body);
}
