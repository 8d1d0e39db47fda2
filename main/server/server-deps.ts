import type { BatchEvents } from '../batch/batch-events.js';
import type { BatchOutputs } from '../batch/batch-outputs.js';
import type { BatchService } from '../batch/batch-service.js';
import type { UploadService } from '../ingest/upload-service.js';
import type { Catalog } from '../catalog/load-catalog.js';
import type { TemplateLibrary } from '../catalog/template-library.js';
import type { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import type { CustomFonts } from '../fonts/custom-fonts.js';
import type { TeamServiceDeps } from './routes/v1/team-service-routes.js';
import type { PreviewLinkRouteDeps } from './routes/v1/preview-link-routes.js';
import type { WebhookRouteDeps } from './routes/v1/webhook-routes.js';
import type { ThumbnailCache } from '../catalog/thumbnail-cache.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { SingleRenderService } from '../render/single-render-service.js';
import type { CoreData } from '../data/core-data.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { RequestLimiter } from './plugins/auth.js';
import type { UrlSigner } from './signed-url.js';
import type { UiSessions } from './ui-sessions.js';
import type { SubscriptionGate } from '../data/subscription-gate.js';
import type { PreflightDeps } from '../batch/preflight.js';

/** Everything the HTTP layer needs, built by the composition root (main/app.ts) or a test. */
export interface ServerDeps {
  /** The core's data: SQLite in embedded mode, PostgreSQL in cluster mode. */
  data: CoreData;
  /** Stored outputs (batch rows, idempotent single renders): a folder, or S3 in a cluster. */
  objects: ObjectStore;
  /** Cluster mode refuses what only makes sense on one machine (an images folder on disk). */
  mode: 'embedded' | 'cluster';
  /** Cluster API nodes: the Host names they answer to beyond loopback. */
  allowedHosts?: readonly string[];
  catalog: Catalog;
  /** Built-in and workspace templates by id. */
  templates: TemplateLibrary;
  workspace: WorkspaceTemplates;
  renderer: RenderService;
  singleRenders: SingleRenderService;
  thumbnails: ThumbnailCache;
  signer: UrlSigner;
  limiter: RequestLimiter;
  /** Where stored outputs live (idempotent single renders, batch outputs). */
  outputsDir: string;
  outputs: BatchOutputs;
  batches: BatchService;
  events: BatchEvents;
  uploads: UploadService;
  /** What `POST /v1/render-batches/preflight` checks rows with. */
  preflight: PreflightDeps;
  /** Asked by the auth step before routes that render (403 subscription-lapsed). */
  subscription: SubscriptionGate;
  /** Resolves an image value (upload id, data: URI, absolute path) as renders do. */
  resolveImage: ImageResolver;
  /** Outgoing webhooks: their queue is the data's store (SQLite, or a cluster's PostgreSQL). */
  webhooks?: WebhookRouteDeps;
  /** Signed preview links (`/v1/preview-links`). */
  previewLinks?: PreviewLinkRouteDeps;
  /** The image URL setting was saved: renders on this node read it afresh. */
  imageUrlSettingsChanged?: () => void;
  /** Resolves and decodes an image value the way renders do (brand profile logos). */
  checkImageValue: (value: string, path: string) => Promise<void>;
  /** Uploaded fonts. */
  fonts: CustomFonts;
  /** Throws 422 validation-failed at `path` unless the family is bundled or uploaded (brand fonts). */
  checkFontFamily: (family: string, path: string) => void;
  /** Embedded mode: the team service this app uses and the worker lending its threads. */
  team?: TeamServiceDeps;
  /** Cluster mode: why this node should not get traffic now (GET /healthz), or null. */
  healthProblem?: () => string | null;
  /** Cluster mode: brings this node's copy of the shared workspace up to date. */
  workspaceCatchUp?: () => Promise<void>;
  /** The desktop UI's launch tokens and session cookies. */
  sessions: UiSessions;
  /** The built UI (renderer/dist). */
  uiDir: string;
  system: { version: string; dataDir: string; workers: number; port: () => number };
}
