import type { Template, Variable } from '../shared/template-format.js';
import { layoutLayers } from '../shared/layout-pages.js';
import { placeholderNames } from '../main/engine/format-value.js';
import { codeVariables, longCode } from './preview-template.js';

/**
 * Values people really type, as long as each field allows: a full Vietnamese name, a phone
 * number with its country code, a 16-character voucher, a price at the field's `max`, a street
 * address, a link with its tracking parameters. The catalog's critical-values test renders every
 * layout with them; the contact sheet shows them as a row.
 */

/** Syllables of long Vietnamese names, taken in order until the field is full. */
const NAME_WORDS = 'Nguyễn Thị Phương Thảo Quỳnh Anh Ngọc Diễm Hương Giang Bảo Trân'.split(' ');
/** A couple (a wedding's "Cô dâu & chú rể"): two full names around "&". */
const COUPLE_WORDS = 'Trần Minh Khôi & Nguyễn Thị Phương Thảo Quỳnh Anh'.split(' ');
const PHONES = ['1900 6035', '0283 822 9999', '+84 28 3822 9999', '+84 (0)28 3822 9999'];
/** Letters and digits of a code, the wide ones (W, M) included. */
const CODE = 'VN27TET8X4QZ7KM3P9RB5W2HJ6D';
const ADDRESS =
  'Tầng 12, Tòa nhà Bitexco, 2 Hải Triều, Phường Bến Nghé, Quận 1, TP. Hồ Chí Minh, Việt Nam';
const PROSE =
  'Ưu đãi đặc biệt dành cho khách hàng thân thiết: giảm giá sâu cho những sản phẩm được yêu ' +
  'thích nhất, số lượng có hạn, nhanh tay đặt hàng để nhận quà tặng hấp dẫn và giao hàng miễn ' +
  'phí trên toàn quốc, chúc quý khách một năm an khang thịnh vượng, vạn sự như ý.';
const LINK =
  'https://www.example-shop.vn/khuyen-mai/tet-2027/san-pham/binh-giu-nhiet-inox-cao-cap?utm_source=render-desk&utm_medium=qr';
const ADDRESS_NAME = /address|venue|location|area|where|place/i;
const LINK_NAME = /url|link|website/i;
const LAYOUT_WORDING = /Label$/;

/** As many of the words as fit in `max` characters (at least the first). */
export function fillWords(words: readonly string[], max: number): string {
  let text = words[0] ?? '';
  for (const word of words.slice(1)) {
    if (`${text} ${word}`.length > max) break;
    text = `${text} ${word}`;
  }
  return text.slice(0, max);
}

/** A text value as long as `max` allows, of the kind the variable carries. */
function longText(variable: Variable & { type: 'text' | 'longText' }, sample: unknown): string {
  const max = variable.maxLength ?? 60;
  const critical = variable.type === 'text' ? variable.critical : undefined;
  if (critical === 'name') {
    const couple = typeof sample === 'string' && sample.includes(' & ');
    return fillWords(couple ? COUPLE_WORDS : NAME_WORDS, max);
  }
  if (critical === 'phone') {
    return PHONES.filter((p) => p.length <= max).pop() ?? PHONES[0]!.slice(0, max);
  }
  if (critical === 'code') return CODE.slice(0, max);
  if (LINK_NAME.test(variable.name)) return LINK.slice(0, max);
  if (ADDRESS_NAME.test(variable.name)) return fillWords(ADDRESS.split(' '), max);
  return fillWords(PROSE.split(' '), max);
}

/** The links QR codes encode, so they stay links. */
function qrVariables(template: Template): Set<string> {
  const names = new Set<string>();
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layout ? layoutLayers(layout) : []) {
      if (layer.kind === 'qr' && typeof layer.value === 'string')
        for (const name of placeholderNames(layer.value)) names.add(name);
    }
  }
  return names;
}

/**
 * Sample values with every text at its longest realistic form and every number at its `max`. A
 * code a barcode or VietQR encodes stays valid: its sample, or for a code of free length its
 * sample repeated to the maxLength. Lists, dates, enums (which pick the layers shown) and images
 * keep their samples.
 */
export function realisticLongValues(template: Template): Record<string, unknown> {
  const values: Record<string, unknown> = { ...template.sampleValues };
  const codes = codeVariables(template);
  const links = qrVariables(template);
  for (const variable of template.variables) {
    const sample = values[variable.name];
    const code = codes.get(variable.name);
    if (code) {
      const maxLength = 'maxLength' in variable ? variable.maxLength : undefined;
      if (code.freeLength) values[variable.name] = longCode(sample, maxLength);
      continue;
    }
    // The layout's own wording ("with", "Tickets from") is set once per template, not per row.
    if (LAYOUT_WORDING.test(variable.name) && variable.default !== undefined) continue;
    if (variable.type === 'text' || variable.type === 'longText') {
      values[variable.name] = links.has(variable.name)
        ? LINK.slice(0, variable.maxLength ?? LINK.length)
        : longText(variable, sample);
    }
    if (variable.type === 'number' && variable.max !== undefined)
      values[variable.name] = variable.max;
  }
  return values;
}
