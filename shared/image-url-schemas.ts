import { z } from 'zod';

/**
 * A host an image URL may name: `images.example.com`, or `*.cdn.example.com` for every subdomain
 * of `cdn.example.com` (not `cdn.example.com` itself). Letters, digits, hyphens and dots only; no
 * port, path or scheme.
 */
export const HOST_PATTERN =
  /^(\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** How many host patterns the allow-list may hold. */
export const MAX_ALLOWED_HOSTS = 200;

/**
 * Image URLs in data (single renders and batch cells): off unless the user turns them on. With
 * an empty `allowedHosts`, any public host may be fetched; private, loopback and other
 * non-public addresses are refused whatever the list says.
 */
export const ImageUrlSettings = z
  .object({
    enabled: z.boolean().default(false),
    allowedHosts: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .max(253)
          .regex(HOST_PATTERN, 'a host name such as images.example.com or *.cdn.example.com'),
      )
      .max(MAX_ALLOWED_HOSTS)
      .default([]),
  })
  .strict();
export type ImageUrlSettings = z.infer<typeof ImageUrlSettings>;
