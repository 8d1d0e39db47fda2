import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { FontFormat } from '../../shared/font-schemas.js';

/** What describes a custom font face, in a pack and in the custom fonts service alike. */
interface FontFaceFacts {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  format: FontFormat;
  sha256: string;
  licence: string | null;
}

/** A custom font face as a pack carries it. */
export interface PackFontFace extends FontFaceFacts {
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

/** A stored custom face, as the custom fonts service (main/fonts/) keeps it. */
interface StoredFace extends FontFaceFacts {
  id: string;
  fileName: string;
}

/** The parts of the custom fonts service packs use (structural, so tests can pass a fake). */
export interface CustomFontsService {
  /** `<dataDir>/fonts`, where `fileName` lives. */
  readonly dir: string;
  customFaces(family: string): StoredFace[];
  upload(
    bytes: Uint8Array,
    originalName: string | null,
  ): Promise<{ font: Omit<StoredFace, 'fileName'>; created: boolean }>;
  remove(id: string): Promise<boolean>;
}

/** Packs over the custom fonts service: a face is matched on family, weight and style. */
export function packFontsFrom(service: CustomFontsService): PackFonts {
  const face = (family: string, weight: number, style: 'normal' | 'italic') =>
    service.customFaces(family).find((f) => f.weight === weight && f.style === style) ?? null;
  return {
    facesOf: (families) =>
      families
        .flatMap((family) => service.customFaces(family))
        .map((f) => ({
          family: f.family,
          weight: f.weight,
          style: f.style,
          format: f.format,
          sha256: f.sha256,
          licence: f.licence,
          file: path.join(service.dir, f.fileName),
        })),
    find: (family, weight, style) => face(family, weight, style),
    async install(bytes, expected) {
      // The same bytes installed already come back as they are (created: false).
      const { font, created } = await service.upload(bytes, `${expected.family} (template pack)`);
      const same =
        font.family.toLowerCase() === expected.family.toLowerCase() &&
        font.weight === expected.weight &&
        font.style === expected.style;
      if (!same) {
        if (created) await service.remove(font.id);
        throw new AppError(
          'pack-invalid',
          `The file is not a usable template pack: the font listed as "${expected.family}" ` +
            `${expected.weight} ${expected.style} is ${font.family} ${font.weight} ${font.style}.`,
        );
      }
    },
  };
}
