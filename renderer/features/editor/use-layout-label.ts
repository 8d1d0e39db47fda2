import { useCallback } from 'react';
import { RATIO_NAMES } from '../../../shared/ratios';
import type { Ratio } from '../../api/types';
import { useT } from '../../i18n/i18n';
import { ratioKey } from '../catalog/CatalogScreen';
import { layoutName } from '../catalog/layout-name';

/** A layout's name as the user reads it, in the UI's language: a ratio's, or a print layout's. */
export function useLayoutLabel(): (name: string) => string {
  const t = useT();
  return useCallback(
    (name: string) =>
      (RATIO_NAMES as readonly string[]).includes(name)
        ? t(ratioKey(name as Ratio))
        : layoutName(t, name),
    [t],
  );
}
