/**
 * Folding for search and column matching: case-insensitive and diacritic-insensitive, so
 * "Khuyến mãi" is found by "khuyen mai" and the column "Tiêu đề" matches the variable tieu_de.
 */

/** Lower-case, without combining marks; đ/Đ become d (they are letters, not marks). */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase();
}

/** foldForSearch, then every run of spaces, underscores, dashes and dots removed. */
export function foldIdentifier(text: string): string {
  return foldForSearch(text).replace(/[\s_\-.]+/g, '');
}
