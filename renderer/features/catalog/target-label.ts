import type { CatalogDetail } from '../../api/types';
import type { Translate } from '../../i18n/i18n';
import { RATIO_NAMES, type Ratio } from '../../../shared/template-format';
import { ratioKey } from './CatalogScreen';

/** A ratio by its translated name; a print or custom-size layout by its name and size. */
export function targetLabel(t: Translate, detail: CatalogDetail, target: string): string {
  if ((RATIO_NAMES as readonly string[]).includes(target)) return t(ratioKey(target as Ratio));
  const aspect = detail.layouts[target]?.aspect;
  return aspect ? `${target} · ${aspect}` : target;
}
