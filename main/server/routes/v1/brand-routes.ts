import { BrandProfile } from '../../../../shared/brand-profile.js';
import {
  Brand,
  BrandList,
  BrandParams,
  CreateBrandRequest,
  UpdateBrandRequest,
} from '../../../../shared/brand-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import type { BrandProfileRecord } from '../../../data/types/brand-profiles.js';
import { created, problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/** 30 MiB: two logos as data URIs fit comfortably. */
const BRAND_BODY_LIMIT = 30 * 1024 * 1024;

/** A profile the schema refuses, or one whose logo is no readable image (checkProfile). */
const PROFILE_REFUSED = problem('validation-failed or image-invalid');

/**
 * The brand kit: several named brands, one of them the default. `/v1/brand-profile` stays the
 * default brand's profile, as it was before brands had names.
 */
export function registerBrandRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const brands = deps.data.brandProfiles;

  /**
   * What the schema cannot see: logos must be readable images, decoded as renders decode them, and
   * fonts must be installed (bundled or uploaded), or brand-bound text would silently fall back.
   */
  const checkProfile = async (profile: BrandProfile, prefix: string): Promise<void> => {
    if (profile.logo) await deps.checkImageValue(profile.logo, `${prefix}logo`);
    if (profile.logoDark) await deps.checkImageValue(profile.logoDark, `${prefix}logoDark`);
    if (profile.fonts.heading)
      deps.checkFontFamily(profile.fonts.heading, `${prefix}fonts.heading`);
    if (profile.fonts.body) deps.checkFontFamily(profile.fonts.body, `${prefix}fonts.body`);
  };

  const found = async (id: string): Promise<BrandProfileRecord> => {
    const record = await brands.get(id);
    if (!record) throw Errors.notFound('brand', id);
    return record;
  };

  registry.add(
    {
      method: 'GET',
      url: '/v1/brand-profile',
      summary: "The default brand's profile, which brand-bound variables are filled from",
      tags: ['brand'],
      responses: { 200: { description: 'Brand profile', schema: BrandProfile } },
    },
    async () => (await brands.getDefault()).profile,
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/brand-profile',
      summary: "Replace the default brand's profile",
      tags: ['brand'],
      access: { scope: 'templates' },
      body: BrandProfile,
      bodyLimit: BRAND_BODY_LIMIT,
      responses: {
        200: { description: 'The saved profile', schema: BrandProfile },
        422: PROFILE_REFUSED,
      },
    },
    async ({ body }) => {
      await checkProfile(body, '');
      return (await brands.putDefault(body)).profile;
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/brands',
      summary: 'Every brand, the default first, then by name',
      tags: ['brand'],
      responses: { 200: { description: 'Brands', schema: BrandList } },
    },
    async () => brands.list(),
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/brands',
      summary: 'Add a named brand (optionally making it the default)',
      tags: ['brand'],
      access: { scope: 'templates' },
      body: CreateBrandRequest,
      bodyLimit: BRAND_BODY_LIMIT,
      responses: {
        201: { description: 'The new brand', schema: Brand },
        422: PROFILE_REFUSED,
      },
    },
    async ({ body, reply }) => {
      if (body.profile) await checkProfile(body.profile, 'profile.');
      // Two steps: should the second fail, the brand exists and can be made the default again.
      const record = await brands.create(body.name, body.profile ?? {});
      const brand = body.makeDefault ? await brands.setDefault(record.id) : record;
      return created(reply, `/v1/brands/${brand.id}`, brand);
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/brands/:id',
      summary: 'One brand',
      tags: ['brand'],
      params: BrandParams,
      responses: {
        200: { description: 'Brand', schema: Brand },
        404: problem('Unknown brand'),
      },
    },
    async ({ params }) => found(params.id),
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/brands/:id',
      summary: "Replace a brand's profile, and its name when given",
      tags: ['brand'],
      access: { scope: 'templates' },
      params: BrandParams,
      body: UpdateBrandRequest,
      bodyLimit: BRAND_BODY_LIMIT,
      responses: {
        200: { description: 'The saved brand', schema: Brand },
        404: problem('Unknown brand'),
        422: PROFILE_REFUSED,
      },
    },
    async ({ params, body }) => {
      await found(params.id);
      await checkProfile(body.profile, 'profile.');
      return brands.update(params.id, body.profile, body.name);
    },
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/brands/:id',
      summary: 'Remove a brand (not the default: make another brand the default first)',
      tags: ['brand'],
      access: { scope: 'templates' },
      params: BrandParams,
      responses: {
        204: { description: 'Removed' },
        404: problem('Unknown brand'),
        409: problem('conflict: the brand is the default'),
      },
    },
    async ({ params, reply }) => {
      if (!(await brands.remove(params.id))) throw Errors.notFound('brand', params.id);
      return reply.code(204).send();
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/brands/:id/default',
      summary: 'Make a brand the default (renders and batches that name no brand use it)',
      tags: ['brand'],
      access: { scope: 'templates' },
      params: BrandParams,
      responses: {
        200: { description: 'The brand, now the default', schema: Brand },
        404: problem('Unknown brand'),
      },
    },
    async ({ params }) => {
      await found(params.id);
      return brands.setDefault(params.id);
    },
  );
}
