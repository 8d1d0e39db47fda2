import type { z } from 'zod';
import { BrandProfile } from '../../../shared/brand-profile.js';
import { Errors } from '../../../shared/errors.js';
import type { Problem } from '../../../shared/errors.js';

/** The rules for brand profiles, the same in the embedded store and in a cluster's database. */

/** The name of the default profile a store creates on first use. */
export const DEFAULT_BRAND_NAME = 'Default';
const MAX_NAME_LENGTH = 120;

/** The profile as given by a client, validated (400 validation-failed). */
export function parseProfile(input: unknown): BrandProfile {
  const result = BrandProfile.safeParse(input);
  if (!result.success) throw Errors.validation(brandProblems(result.error));
  return result.data;
}

/** The name trimmed; refused when empty or too long. */
export function checkName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
    throw Errors.validation([
      { path: 'name', message: `must be 1 to ${MAX_NAME_LENGTH} characters` },
    ]);
  }
  return trimmed;
}

export function brandProblems(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}
