import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { FontFamilyInfo } from '../../api/types';

/** The families shipped with the app, for a core without the font list route. */
const BUNDLED: FontFamilyInfo[] = [
  'Be Vietnam Pro',
  'Dancing Script',
  'Lexend',
  'Lora',
  'Montserrat',
  'Noto Serif',
  'Nunito',
  'Playfair Display',
].map((family) => ({
  family,
  source: 'bundled',
  scripts: ['latin', 'vietnamese'],
  faces: [],
}));

/** The font families the engine can draw with (bundled and uploaded); the bundled ones if unknown. */
export function useFontFamilies(): FontFamilyInfo[] {
  const [families, setFamilies] = useState<FontFamilyInfo[]>(BUNDLED);
  useEffect(() => {
    let live = true;
    api.fonts.list().then(
      (list) => {
        if (live && list.families.length > 0) setFamilies(list.families);
      },
      () => {
        // An older core has no font list: keep the bundled families.
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return families;
}
