import type { Translate } from '../../i18n/i18n';

/** The name the app gave the first brand: shown in the UI's language until the user renames it. */
const BUILT_IN_NAME = 'Default';

export function brandName(brand: { name: string; isDefault: boolean }, t: Translate): string {
  return brand.isDefault && brand.name === BUILT_IN_NAME ? t('brandKit.default') : brand.name;
}
