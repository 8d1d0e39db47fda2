import type { Catalog } from '../catalog/load-catalog.js';
import type { ThumbnailCache } from '../catalog/thumbnail-cache.js';
import type { RenderService } from '../render/render-service.js';
import type { Store } from '../store/create-store.js';
import type { CreditReservations } from './credit-reservations.js';
import type { RateLimiter } from './rate-limiter.js';
import type { UrlSigner } from './signed-url.js';

/** Everything the HTTP layer needs, built by the composition root (main/app.ts) or a test. */
export interface ServerDeps {
  store: Store;
  catalog: Catalog;
  renderer: RenderService;
  thumbnails: ThumbnailCache;
  signer: UrlSigner;
  limiter: RateLimiter;
  reservations: CreditReservations;
  /** Where stored outputs live (idempotent single renders, batch outputs). */
  outputsDir: string;
  /** Validates an image value the same way renders do (brand profile logos). */
  checkImageValue: (value: string, path: string) => void;
  /** Session cookie check for the desktop UI; null when no session applies. */
  sessionPrincipal?: (cookieHeader: string | undefined) => { id: string; admin: boolean } | null;
}
