import type { BrandProfile } from '../../shared/brand-profile.js';
import { Errors } from '../../shared/errors.js';
import type { AsyncPort } from '../data/async-port.js';
import type { BrandProfilesRepository } from '../data/types/brand-profiles.js';

/**
 * The profile a render, preview, batch or preflight fills brand-bound variables from: the brand
 * the request names, or the default brand when it names none. An unknown id is a mistake in the
 * request body, so it is a 422 located at `brand` rather than a 404 of the route.
 */
export async function brandProfileFor(
  brands: Pick<AsyncPort<BrandProfilesRepository>, 'get' | 'getDefault'>,
  brandId: string | undefined,
): Promise<BrandProfile> {
  if (brandId === undefined) return (await brands.getDefault()).profile;
  const record = await brands.get(brandId);
  if (!record) {
    throw Errors.validation([
      {
        path: 'brand',
        message: `there is no brand "${brandId}"; GET /v1/brands lists the brands, or omit brand to use the default`,
      },
    ]);
  }
  return record.profile;
}
