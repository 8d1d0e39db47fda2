import type { BrandRole } from './template-format.js';

/** The parts of a brand profile that brand roles read (type-only: no schema library in the UI). */
export interface BrandValues {
  name: string;
  tagline: string;
  website: string;
  logo: string | null;
  logoDark: string | null;
  colours: {
    primary: string | null;
    secondary: string | null;
    accent: string | null;
    text: string | null;
    background: string | null;
  };
  fonts: { heading: string | null; body: string | null };
}

/** The profile's value for a brand role; null when the profile does not set it. */
export function brandValue(profile: BrandValues, role: BrandRole): string | null {
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
