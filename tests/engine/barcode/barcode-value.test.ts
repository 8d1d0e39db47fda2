import { describe, expect, it } from 'vitest';
import { checkBarcodeValue } from '../../../main/engine/barcode/barcode-value.js';
import { encodeBarcode } from '../../../main/engine/barcode/barcode-symbol.js';
import { gs1CheckDigit, upceToUpca } from '../../../main/engine/barcode/check-digits.js';
import type { BarcodeSymbology } from '../../../shared/template-format.js';

const encoded = (symbology: BarcodeSymbology, value: string) => {
  const result = checkBarcodeValue(symbology, value);
  return result.ok ? result.input.value : result.reason;
};
const reason = (symbology: BarcodeSymbology, value: string) => {
  const result = encodeBarcode(symbology, value);
  return result.ok ? 'ok' : result.reason;
};

describe('check digits', () => {
  it('are the GS1 mod-10 digit of GTINs of every length', () => {
    expect(gs1CheckDigit('590123412345')).toBe('7');
    expect(gs1CheckDigit('9638507')).toBe('4');
    expect(gs1CheckDigit('03600029145')).toBe('2');
    expect(gs1CheckDigit('1540014128876')).toBe('3');
    expect(gs1CheckDigit('000000000000')).toBe('0');
  });

  it("of a UPC-E are its UPC-A's, by the four expansion rules", () => {
    expect(upceToUpca('0123450')).toBe('01200000345');
    expect(upceToUpca('0123453')).toBe('01230000045');
    expect(upceToUpca('0123454')).toBe('01234000005');
    expect(upceToUpca('0123456')).toBe('01234500006');
    expect(encoded('upce', '0123456')).toBe('01234565');
  });
});

describe('barcode values', () => {
  it('get their check digit when it is left out and keep a right one', () => {
    expect(encoded('ean13', '590123412345')).toBe('5901234123457');
    expect(encoded('ean13', ' 5901234123457 ')).toBe('5901234123457');
    expect(encoded('ean8', '9638507')).toBe('96385074');
    expect(encoded('upca', '03600029145')).toBe('036000291452');
    expect(encoded('itf14', '1540014128876')).toBe('15400141288763');
  });

  it('are refused with a reason for a wrong check digit, length or character', () => {
    expect(encoded('ean8', '96385075')).toBe(
      '"96385075" is not a valid EAN-8: its check digit should be 4, not 5. Leave the last digit out to have it computed',
    );
    expect(encoded('upca', '0360002914')).toBe(
      '"0360002914" is not a UPC-A: it has 10 digits; a UPC-A has 11 digits (12 with its check digit)',
    );
    expect(encoded('itf14', '15400141288764')).toMatch(/check digit should be 3, not 4/);
    expect(encoded('upce', '2123456')).toMatch(/its first digit is its number system, 0 or 1/);
    expect(encoded('code39', 'abc')).toBe(
      '"abc" cannot be a Code 39: "a" is not one of its characters (capital letters, digits, spaces and - . $ / + %); write it in capitals, or use Code 128',
    );
    expect(encoded('code128', 'Phở')).toMatch(/"ở" is not one of its characters/);
    expect(encoded('gs1-128', '0109501101530003')).toMatch(/write each application identifier/);
  });

  it("are refused in the encoder's words where only it knows: GS1 rules, capacity", () => {
    expect(reason('gs1-128', '(01)09501101530004')).toBe(
      '"(01)09501101530004" is not a valid GS1-128: AI 01: bad checksum',
    );
    expect(reason('gs1-datamatrix', '(17)271340')).toBe(
      '"(17)271340" is not a valid GS1 DataMatrix: AI 17: invalid month',
    );
    expect(reason('datamatrix', 'x'.repeat(4000))).toBe(
      `"${'x'.repeat(40)}…" is too long for a DataMatrix; shorten it`,
    );
    expect(reason('code128', 'x'.repeat(4000))).toMatch(
      /too long for a Code 128; shorten it, or use a DataMatrix/,
    );
  });

  it('carry text other than ASCII in 2D codes as UTF-8 behind ECI 26, carets escaped', () => {
    const result = checkBarcodeValue('datamatrix', 'Phở ^ 1');
    expect(result).toEqual({
      ok: true,
      input: {
        symbology: 'datamatrix',
        value: 'Phở ^ 1',
        text: '^ECI000026Phở ^^ 1',
        options: { parsefnc: true },
      },
    });
    expect(checkBarcodeValue('pdf417', 'A^B')).toMatchObject({
      input: { text: 'A^B', options: {} },
    });
  });

  it('as a gtin are refused when their length picks no retail code or could be either of two', () => {
    expect(encoded('gtin', '036000291452')).toBe(
      '"036000291452" could be a UPC-A with its check digit or an EAN-13 without one; write the EAN-13\'s 13 digits, or the UPC-A\'s first 11 (or all 12 after a 0)',
    );
    expect(encoded('gtin', '0036000291452')).toBe('0036000291452');
    expect(encoded('gtin', '15400141288763')).toMatch(
      /is a GTIN-14 of a case or pack \(indicator digit 1\), which tills do not scan/,
    );
    expect(encoded('gtin', '123456789')).toBe(
      '"123456789" is not a GTIN: it has 9 digits; give 8 digits (EAN-8), 12 (UPC-A) or 13 (EAN-13), or leave the check digit out: 7, 11 or 12',
    );
    expect(encoded('gtin', '8936045005124')).toMatch(
      /not a valid EAN-13: its check digit should be 5/,
    );
    expect(encoded('gtin', '8936-0450')).toMatch(/is not a GTIN: it may hold digits only/);
  });
});
