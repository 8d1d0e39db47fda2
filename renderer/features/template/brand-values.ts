import type { BrandProfile, BrandRole } from '../../api/types';

/**
 * The profile's value for a brand role. Same rule as shared/brand-profile.ts `brandValue`,
 * restated here because importing that module would pull its validation library into the UI
 * bundle; the `never` check keeps the two in step when a role is added.
 */
export function brandRoleValue(profile: BrandProfile, role: BrandRole): string | null {
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
    default: {
      const unknownRole: never = role;
      return unknownRole;
    }
  }
}
