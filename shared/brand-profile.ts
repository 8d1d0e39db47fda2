import { z } from 'zod';
import { HexColour } from './template-format.js';

/** The brand profile that brand-bound variables (`bindsTo: "brand.logo"`, …) are filled from. */
export const BrandProfile = z
  .object({
    name: z.string().max(120).default(''),
    tagline: z.string().max(200).default(''),
    website: z.string().max(200).default(''),
    /** Image values: an upload id, a data: URI or an absolute file path. */
    logo: z.string().max(50_000_000).nullable().default(null),
    logoDark: z.string().max(50_000_000).nullable().default(null),
    colours: z
      .object({
        primary: HexColour.nullable().default(null),
        secondary: HexColour.nullable().default(null),
        accent: HexColour.nullable().default(null),
        text: HexColour.nullable().default(null),
        background: HexColour.nullable().default(null),
      })
      .strict()
      .default({ primary: null, secondary: null, accent: null, text: null, background: null }),
    fonts: z
      .object({
        heading: z.string().max(120).nullable().default(null),
        body: z.string().max(120).nullable().default(null),
      })
      .strict()
      .default({ heading: null, body: null }),
  })
  .strict();
export type BrandProfile = z.infer<typeof BrandProfile>;

export const EMPTY_BRAND_PROFILE: BrandProfile = BrandProfile.parse({});

export { brandValue } from './brand-value.js';
