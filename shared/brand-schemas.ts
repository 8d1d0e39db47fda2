import { z } from 'zod';
import { BrandProfile } from './brand-profile.js';

/** Schemas of the brand kit routes (`/v1/brands`): several named brands, one of them the default. */

/** A brand id as the store makes them (`brand_` and 16 url-safe characters). */
export const BrandId = z
  .string()
  .regex(/^brand_[A-Za-z0-9_-]{1,64}$/, 'must be a brand id such as brand_3q2Vt0mXk9bF1cYe')
  .describe('A brand id (brand_…) from GET /v1/brands.');
export type BrandId = z.infer<typeof BrandId>;

export const BrandName = z.string().trim().min(1).max(120);

export const Brand = z.object({
  id: BrandId,
  name: z.string(),
  isDefault: z.boolean().describe('Renders and batches that name no brand use the default.'),
  profile: BrandProfile,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Brand = z.infer<typeof Brand>;

export const BrandList = z.array(Brand);
export type BrandList = z.infer<typeof BrandList>;

export const CreateBrandRequest = z
  .object({
    name: BrandName,
    profile: BrandProfile.optional().describe('Defaults to an empty profile.'),
    makeDefault: z.boolean().default(false),
  })
  .strict();
export type CreateBrandRequest = z.infer<typeof CreateBrandRequest>;

export const UpdateBrandRequest = z
  .object({
    name: BrandName.optional().describe('Keeps the current name when omitted.'),
    profile: BrandProfile,
  })
  .strict();
export type UpdateBrandRequest = z.infer<typeof UpdateBrandRequest>;

export const BrandParams = z.object({ id: z.string().max(100) }).strict();
