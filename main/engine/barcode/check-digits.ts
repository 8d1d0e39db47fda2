/**
 * The GS1 mod-10 check digit of EAN-13, EAN-8, UPC-A, ITF-14 (and every GTIN): digits weighted
 * 3, 1, 3, … from the right, the check digit bringing the sum to a multiple of ten.
 */
export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * A UPC-E code's number system and six digits as the UPC-A number they stand for (without its
 * check digit): a UPC-E's check digit is the check digit of that UPC-A.
 */
export function upceToUpca(digits: string): string {
  const [ns = '0', d1 = '', d2 = '', d3 = '', d4 = '', d5 = '', d6 = ''] = [...digits];
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${ns}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${ns}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${ns}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${ns}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}
