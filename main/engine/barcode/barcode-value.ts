import type { BarcodeSymbology } from '../../../shared/template-format.js';
import { SYMBOLOGIES, type DrawnSymbology, type SymbologySpec } from './barcode-symbologies.js';
import { gs1CheckDigit, upceToUpca } from './check-digits.js';
import { gtinSymbology } from './gtin-symbology.js';

/** A value checked for its symbology, ready for the encoder. */
export interface BarcodeInput {
  /** What is drawn: for `gtin`, the EAN-8, UPC-A or EAN-13 its length picked. */
  symbology: DrawnSymbology;
  /**
   * The value as the code holds it, which is what a reader gives back: an EAN/UPC/ITF-14 with
   * its check digit, a GS1 element string as written.
   */
  value: string;
  /** The text and options bwip-js encodes. */
  text: string;
  options: { parsefnc?: boolean };
}

export type CheckedBarcodeValue = { ok: true; input: BarcodeInput } | { ok: false; reason: string };

/** Characters of Code 39 (without the start/stop `*`). */
const CODE39 = /^[0-9A-Z \-.$/+%]*$/;
/** UTF-8 in the 2D codes is announced by ECI 000026, so readers do not guess ISO 8859-1. */
const UTF8_ECI = '^ECI000026';

/**
 * Checks a filled-in value against what its symbology can encode: its characters, its length,
 * its check digit (added when left out, checked when given). A reason says what is wrong in
 * words a user can act on; the encoder itself has the last word (barcode-symbol.ts).
 */
export function checkBarcodeValue(requested: BarcodeSymbology, raw: string): CheckedBarcodeValue {
  let value = raw.trim();
  let symbology: DrawnSymbology;
  if (requested === 'gtin') {
    const picked = gtinSymbology(value);
    if (!picked.ok) return { ok: false, reason: `${quote(value)} ${picked.reason}` };
    ({ symbology, value } = picked);
  } else symbology = requested;
  const spec = SYMBOLOGIES[symbology];
  const fail = (reason: string): CheckedBarcodeValue => ({
    ok: false,
    reason: `${quote(value)} ${reason}`,
  });
  const ok = (encoded: string, text = encoded, options: BarcodeInput['options'] = {}) => ({
    ok: true as const,
    input: { symbology, value: encoded, text, options },
  });
  switch (spec.values.kind) {
    case 'gtin': {
      const data = spec.values.data;
      const digits = `${data} digits (${data + 1} with its check digit)`;
      const a = named(spec.label);
      if (!/^\d*$/.test(value)) return fail(`is not ${a}: it may hold digits only, ${digits}`);
      if (value.length !== data && value.length !== data + 1)
        return fail(
          `is not ${a}: it has ${value.length} digit${value.length === 1 ? '' : 's'}; ${a} has ${digits}`,
        );
      if (symbology === 'upce' && value[0] !== '0' && value[0] !== '1')
        return fail(
          `is not a UPC-E: its first digit is its number system, 0 or 1; a longer product code is a UPC-A or EAN-13`,
        );
      const body = value.slice(0, data);
      const check = gs1CheckDigit(symbology === 'upce' ? upceToUpca(body) : body);
      if (value.length === data + 1 && value[data] !== check)
        return fail(
          `is not a valid ${spec.label}: its check digit should be ${check}, not ${value[data]}. Leave the last digit out to have it computed`,
        );
      return ok(body + check);
    }
    case 'ascii': {
      const bad = [...value].find((c) => c < ' ' || c > '~');
      if (bad !== undefined)
        return fail(
          `cannot be ${named(spec.label)}: ${quote(bad)} is not one of its characters (unaccented letters, digits, spaces and ASCII punctuation); use a DataMatrix or a QR code for other text`,
        );
      return ok(value);
    }
    case 'code39': {
      if (!CODE39.test(value)) {
        const bad = [...value].find((c) => !CODE39.test(c)) ?? '';
        return fail(
          `cannot be ${named(spec.label)}: ${quote(bad)} is not one of its characters (capital letters, digits, spaces and - . $ / + %)${/[a-z]/.test(bad) ? '; write it in capitals, or use Code 128' : ''}`,
        );
      }
      return ok(value);
    }
    case 'gs1':
      if (!value.startsWith('('))
        return fail(
          `is not a GS1 element string: write each application identifier in brackets before its data, like (01)09501101530003(10)AB12`,
        );
      return ok(value);
    case 'text':
      // ASCII needs no ECI (a smaller code that every reader reads the same).
      if (/^[\x20-\x7e]*$/.test(value)) return ok(value);
      // With the ECI parsed, a caret in the value is written twice.
      return ok(value, UTF8_ECI + value.replace(/\^/g, '^^'), { parsefnc: true });
  }
}

/**
 * The encoder's refusal in the same words: its message without its internal code
 * (`bwipp.GS1badChecksum#3251: AI 01: Bad checksum` → `AI 01: bad checksum`).
 */
export function encoderReason(spec: SymbologySpec, value: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [, code = '', detail = message] =
    /^bwipp\.([A-Za-z0-9]+)#\d+:\s*(.*)$/s.exec(message) ?? [];
  if (/TooLong|NoValidSymbol|TooBig|exceeds/i.test(code))
    return `${quote(value)} is too long for ${named(spec.label)}; shorten it${spec.shape === 'linear' ? ', or use a DataMatrix' : ''}`;
  const reason = detail.replace(
    /^(AI \d+: )?(\w)/,
    (_, ai: string | undefined, first: string) => `${ai ?? ''}${first.toLowerCase()}`,
  );
  return `${quote(value)} is not a valid ${spec.label}: ${reason}`;
}

/** "an EAN-13", "a UPC-A": the article as the name is said. */
export function named(label: string): string {
  return `${/^(EAN|ITF|Aztec)/.test(label) ? 'an' : 'a'} ${label}`;
}

/** A value as messages quote it: long ones cut, so a 4,000-character value is not echoed. */
export function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text);
}
