import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** templates/fonts/fonts.json: the bundled families and their files (written by fonts:sync). */
export const FontManifest = z.object({
  families: z.array(
    z.object({
      family: z.string().min(1),
      folder: z.string().regex(/^[a-z0-9-]+$/),
      source: z.string(),
      licence: z.string(),
      /** Code points the family draws (union of its files), as [first, last] ranges. */
      coverage: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
      files: z.array(
        z.object({
          file: z.string().regex(/^[A-Za-z0-9_.-]+\.(ttf|otf|woff2)$/),
          weight: z.number().int(),
          style: z.enum(['normal', 'italic']),
          /** The file's content hash: what a render cache keys the bundled fonts by. */
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
        }),
      ),
    }),
  ),
});
export type FontManifest = z.infer<typeof FontManifest>;

export function readFontManifest(fontsDir: string): FontManifest {
  return FontManifest.parse(JSON.parse(readFileSync(path.join(fontsDir, 'fonts.json'), 'utf8')));
}
