import type { CatalogDetail } from '../../api/types';
import type { Translate } from '../../i18n/i18n';
import { RATIO_NAMES, type Ratio } from '../../../shared/ratios';
import { ratioKey } from './CatalogScreen';
import { layoutName } from './layout-name';

/**
 * A ratio by its translated name; a print layout by its human name and its printed size, a
 * custom-size layout by its name and pixel size, all in the UI's language.
 */
export function targetLabel(t: Translate, detail: CatalogDetail, target: string): string {
  if ((RATIO_NAMES as readonly string[]).includes(target)) return t(ratioKey(target as Ratio));
  const layout = detail.layouts[target];
  const name = layoutName(t, target);
  const page = layout?.page;
  const size = page
    ? t('layout.size', {
        width: page.width,
        height: page.height,
        unit: t(page.unit === 'in' ? 'layout.unit.in' : 'layout.unit.mm'),
        dpi: page.dpi,
      })
    : layout?.aspect;
  return size ? `${name} · ${size}` : name;
}
