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

/**
 * One parameter of a preview link, documented as the string it is. Not checked here: the signer
 * checks the query string as sent (main/preview-links/preview-link-signer.ts), so a missing,
 * repeated, over-long or unknown parameter is a 403 url-invalid, never a 422.
 */
const linkParam = (maxLength: number, description: string) =>
  z.unknown().meta({ type: 'string', maxLength, description }).optional();

/**
 * The query of a preview link: its fixed parameters; values ride as `v.<name>`. Nothing else may
 * ride along, and nothing may appear twice.
 */
export const PreviewLinkQuery = z.looseObject({
  t: linkParam(200, 'template id'),
  target: linkParam(64, 'layout'),
  f: linkParam(8, 'format: png, jpeg, webp or avif'),
  b: linkParam(200, 'brand id'),
  k: linkParam(100, 'id of the API key that made the link (and is charged)'),
  exp: linkParam(12, 'expiry, seconds since the epoch'),
  sig: linkParam(128, 'HMAC-SHA256 signature'),
});

export const PreviewSecretRotated = z.object({ rotatedAt: z.string() });
