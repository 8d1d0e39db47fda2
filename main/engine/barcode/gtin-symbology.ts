import { gs1CheckDigit } from './check-digits.js';

export type PickedGtin =
  { ok: true; symbology: 'ean8' | 'upca' | 'ean13'; value: string } | { ok: false; reason: string };

/**
 * The retail symbology a product number (GTIN) is drawn in, picked by its length: 7 or 8
 * digits an EAN-8, 11 a UPC-A, 12 an EAN-13 without its check digit, 13 an EAN-13, 14 with a
 * leading 0 the EAN-13 it pads. The value is then checked as that symbology's (check digit
 * added or verified).
 *
 * Twelve digits are also a whole UPC-A: when the last digit is the UPC-A check digit of the
 * other eleven, the value is refused rather than guessed, since either guess draws the other
 * product's number. A GTIN-14 whose first digit is an indicator (1–8) numbers a case or pack,
 * which tills do not scan: it is refused with a pointer to ITF-14, the carton's code.
 */
export function gtinSymbology(value: string): PickedGtin {
  const lengths =
    'give 8 digits (EAN-8), 12 (UPC-A) or 13 (EAN-13), or leave the check digit out: 7, 11 or 12';
  if (!/^\d+$/.test(value))
    return { ok: false, reason: `is not a GTIN: it may hold digits only; ${lengths}` };
  switch (value.length) {
    case 7:
    case 8:
      return { ok: true, symbology: 'ean8', value };
    case 11:
      return { ok: true, symbology: 'upca', value };
    case 12:
      if (gs1CheckDigit(value.slice(0, 11)) === value[11])
        return {
          ok: false,
          reason:
            "could be a UPC-A with its check digit or an EAN-13 without one; write the EAN-13's 13 digits, or the UPC-A's first 11 (or all 12 after a 0)",
        };
      return { ok: true, symbology: 'ean13', value };
    case 13:
      return { ok: true, symbology: 'ean13', value };
    case 14:
      if (value.startsWith('0')) return { ok: true, symbology: 'ean13', value: value.slice(1) };
      return {
        ok: false,
        reason: `is a GTIN-14 of a case or pack (indicator digit ${value[0]}), which tills do not scan; print the item's own GTIN, or draw this one as an ITF-14 on the carton`,
      };
    default:
      return { ok: false, reason: `is not a GTIN: it has ${value.length} digits; ${lengths}` };
  }
}
