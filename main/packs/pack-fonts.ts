import { AppError } from '../../shared/errors.js';
import type { FontFormat } from '../../shared/font-schemas.js';

/** A custom font face as a pack carries it. */
export interface PackFontFace {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  format: FontFormat;
  sha256: string;
  licence: string | null;
  /** The font file on disk. */
  file: string;
}

/**
 * What packs need from the custom fonts service: the seam between packs and fonts, so packs do
 * not depend on how fonts are stored. A face is identified by family + weight + style, the way
 * text layers ask for it.
 */
export interface PackFonts {
  /** The custom faces of these families (compared case-insensitively), for an export. */
  facesOf(families: readonly string[]): PackFontFace[];
  /** The custom face installed as family/weight/style, if any, to detect a conflict. */
  find(family: string, weight: number, style: 'normal' | 'italic'): { sha256: string } | null;
  /**
   * Installs a font file from a pack as a custom font; the same bytes already installed are
   * reused. Refuses (AppError) a file that is not a font or whose names differ from `face`.
   */
  install(bytes: Buffer, face: Omit<PackFontFace, 'file' | 'sha256' | 'licence'>): Promise<void>;
}

/** Until the custom fonts service is wired in: packs carry no fonts, and refuse packs that do. */
export const NO_CUSTOM_FONTS: PackFonts = {
  facesOf: () => [],
  find: () => null,
  install: async (_bytes, face) => {
    throw new AppError(
      'pack-invalid',
      `The pack carries the custom font "${face.family}", and this version of Render Desk ` +
        'cannot install custom fonts. Update Render Desk, then import the pack again.',
    );
  },
};
