import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { FontFamilyInfo } from '../../api/types';

/** The installed font families (bundled and uploaded), straight from the core: no fixed list. */
export function useFontList(): {
  families: FontFamilyInfo[] | null;
  error: unknown;
  reload: () => void;
} {
  const [families, setFamilies] = useState<FontFamilyInfo[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(() => {
    api.fonts.list().then(
      (list) => {
        setFamilies(list.families);
        setError(null);
      },
      (e: unknown) => setError(e),
    );
  }, []);
  useEffect(reload, [reload]);
  return { families, error, reload };
}
