import { z } from 'zod';

/** Preview links draw raster images: an `<img src>` shows one picture. */
export const PreviewLinkFormat = z.enum(['png', 'jpeg', 'webp', 'avif']);
export type PreviewLinkFormat = z.infer<typeof PreviewLinkFormat>;

/** The longest a preview link may live: 30 days. */
export const MAX_PREVIEW_LINK_SECONDS = 30 * 24 * 60 * 60;

export const CreatePreviewLinkRequest = z
  .object({
    templateId: z.string().min(1).max(200),
    target: z.string().min(1).max(64).optional(),
    format: PreviewLinkFormat.default('png'),
    brand: z.string().min(1).max(200).optional(),
    /**
     * Values as the query string carries them: text, numbers and true/false (a list's items
     * joined by new lines). They are validated when the link is made and again when it is used.
     */
    values: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean()])),
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(MAX_PREVIEW_LINK_SECONDS)
      .default(7 * 24 * 60 * 60),
  })
  .strict();
export type CreatePreviewLinkRequest = z.infer<typeof CreatePreviewLinkRequest>;

export const PreviewLink = z.object({
  /** The absolute link, for `<img src>`: no headers needed. */
  url: z.string(),
  /** The same link without the origin. */
  path: z.string(),
  expiresAt: z.string(),
  templateId: z.string(),
});
export type PreviewLink = z.infer<typeof PreviewLink>;

/** The query of a preview link: its fixed parameters; values ride as `v.<name>`. */
/**
 * The query of a preview link: its fixed parameters; values ride as `v.<name>`. All optional
 * here so that a link missing one is a 403 url-invalid from the signature check, not a 422.
 */
export const PreviewLinkQuery = z.looseObject({
  t: z.string().max(200).optional().describe('template id'),
  target: z.string().max(64).optional().describe('layout'),
  f: z.string().max(8).optional().describe('format: png, jpeg, webp or avif'),
  b: z.string().max(200).optional().describe('brand id'),
  k: z
    .string()
    .max(100)
    .optional()
    .describe('id of the API key that made the link (and is charged)'),
  exp: z.string().max(12).optional().describe('expiry, seconds since the epoch'),
  sig: z.string().max(128).optional().describe('HMAC-SHA256 signature'),
});

export const PreviewSecretRotated = z.object({ rotatedAt: z.string() });
