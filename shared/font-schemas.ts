import { z } from 'zod';

/** Schemas of the font routes: the bundled families and the fonts the user uploaded. */

export const FontFormat = z.enum(['ttf', 'otf', 'woff', 'woff2']);
export type FontFormat = z.infer<typeof FontFormat>;

/** Scripts a font is reported to cover (enough of the script's letters to set text in it). */
export const FontScript = z.enum([
  'latin',
  'vietnamese',
  'latin-extended',
  'cyrillic',
  'greek',
  'arabic',
  'hebrew',
  'devanagari',
  'thai',
  'han',
  'kana',
  'hangul',
  'emoji',
]);
export type FontScript = z.infer<typeof FontScript>;

export const CustomFont = z.object({
  id: z.string().describe('font_…'),
  family: z.string(),
  weight: z.number().int(),
  style: z.enum(['normal', 'italic']),
  format: FontFormat,
  size: z.number().int(),
  sha256: z.string(),
  scripts: z.array(FontScript),
  licence: z.string().nullable().describe('The licence text or name found in the font, if any.'),
  originalName: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomFont = z.infer<typeof CustomFont>;

export const FontFamilyInfo = z.object({
  family: z.string(),
  source: z.enum(['bundled', 'custom']),
  scripts: z.array(FontScript),
  faces: z.array(
    z.object({
      id: z.string().nullable().describe('The custom font id; null for bundled faces.'),
      weight: z.number().int(),
      style: z.enum(['normal', 'italic']),
    }),
  ),
});
export type FontFamilyInfo = z.infer<typeof FontFamilyInfo>;

export const FontList = z.object({ families: z.array(FontFamilyInfo) });
export type FontList = z.infer<typeof FontList>;

export const FontIdParams = z.object({ id: z.string().max(200) }).strict();

export const FontUploadQuery = z
  .object({ name: z.string().max(255).optional().describe('The original file name, for display.') })
  .strict();
