import type { MessageKey, Translate } from '../../i18n/i18n';

/** Print layouts the app has a name for; any other name is read out of its own spelling. */
const NAMED = new Set([
  'letter',
  'legal',
  'badge',
  'badgeBack',
  'tag',
  'ticket',
  'card',
  'postcard',
  'poster',
  'flyer',
  'label',
  'certificate',
  'menu',
]);

/**
 * A print or custom-size layout's name as people say it, in the UI's language: `a4` is "A4
 * page" / "Trang A4", `badge` "Name badge" / "Thẻ tên"; a name the app does not know is spelled
 * out of its camelCase (`shelfLabel2` → "Shelf label 2").
 */
export function layoutName(t: Translate, name: string): string {
  const paper = /^([abc])(\d{1,2})$/i.exec(name);
  if (paper) return t('layout.paper', { size: `${paper[1]!.toUpperCase()}${paper[2]!}` });
  if (NAMED.has(name)) return t(`layout.${name}` as MessageKey);
  const words = name
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
