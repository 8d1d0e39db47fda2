import type { BrandProfile, BrandRole } from '../../api/types';
import { brandValue } from '../../../shared/brand-value';

/** The profile's value for a brand role: the server's own rule (shared/brand-value.ts). */
export function brandRoleValue(profile: BrandProfile, role: BrandRole): string | null {
  return brandValue(profile, role);
}
