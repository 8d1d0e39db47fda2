import { z } from 'zod';
import { HexColour, type BrandRole } from './template-format.js';

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

/** The profile's value for a brand role; null or '' when the profile does not set it. */
export function brandValue(profile: BrandProfile, role: BrandRole): string | null {
  switch (role) {
    case 'brand.logo':
      return profile.logo;
    case 'brand.logoDark':
      return profile.logoDark ?? profile.logo;
    case 'brand.name':
      return profile.name || null;
    case 'brand.tagline':
      return profile.tagline || null;
    case 'brand.website':
      return profile.website || null;
    case 'brand.primaryColor':
      return profile.colours.primary;
    case 'brand.secondaryColor':
      return profile.colours.secondary;
    case 'brand.accentColor':
      return profile.colours.accent;
    case 'brand.textColor':
      return profile.colours.text;
    case 'brand.backgroundColor':
      return profile.colours.background;
    case 'brand.font.heading':
      return profile.fonts.heading;
    case 'brand.font.body':
      return profile.fonts.body;
  }
}
