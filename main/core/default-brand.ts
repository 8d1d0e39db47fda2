import { EMPTY_BRAND_PROFILE, type BrandProfile } from '../../shared/brand-profile.js';
import type { CoreData } from '../data/core-data.js';
import type { Store } from '../store/create-store.js';

/** The brand profile of callers that name none (thumbnails, editor previews, plain renders). */
export interface DefaultBrand {
  current(): BrandProfile;
  stop(): void;
}

/** This data folder's default brand, read from its SQLite store at each render. */
export function storedDefaultBrand(store: Store): DefaultBrand {
  return { current: () => store.brandProfiles.getDefault().profile, stop: () => undefined };
}

/**
 * The default brand for callers that name none, read from PostgreSQL every few seconds (renders
 * are synchronous about it; another API node may change it at any time).
 */
export async function followedDefaultBrand(data: CoreData): Promise<DefaultBrand> {
  let profile: BrandProfile =
    (await data.brandProfiles.getDefault()).profile ?? EMPTY_BRAND_PROFILE;
  const timer = setInterval(() => {
    data.brandProfiles.getDefault().then(
      (record) => (profile = record.profile),
      () => undefined,
    );
  }, 5000);
  timer.unref();
  return { current: () => profile, stop: () => clearInterval(timer) };
}
