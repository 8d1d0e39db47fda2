import { BrandProfile } from '../../../../shared/brand-profile.js';
import { ProblemDetails } from '../../../../shared/api-schemas.js';
import type { RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/** 30 MiB: a logo as a data URI fits comfortably. */
const BRAND_BODY_LIMIT = 30 * 1024 * 1024;

export function registerBrandProfileRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { brandProfiles } = deps.store;

  registry.add(
    {
      method: 'GET',
      url: '/v1/brand-profile',
      summary: 'The brand profile that brand-bound variables are filled from',
      tags: ['brand'],
      responses: { 200: { description: 'Brand profile', schema: BrandProfile } },
    },
    async () => brandProfiles.getDefault().profile,
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/brand-profile',
      summary: 'Replace the brand profile',
      tags: ['brand'],
      body: BrandProfile,
      bodyLimit: BRAND_BODY_LIMIT,
      responses: {
        200: { description: 'The saved profile', schema: BrandProfile },
        422: { description: 'validation-failed or image-invalid', schema: ProblemDetails },
      },
    },
    async ({ body }) => {
      if (body.logo) deps.checkImageValue(body.logo, 'logo');
      if (body.logoDark) deps.checkImageValue(body.logoDark, 'logoDark');
      return brandProfiles.putDefault(body).profile;
    },
  );
}
