import type { BatchEvents } from './batch/batch-events.js';
import type { BatchWork } from './batch/batch-work.js';
import type { UploadService } from './ingest/upload-service.js';
import type { CoreData } from './data/core-data.js';
import type { ObjectCache } from './objects/object-cache.js';
import type { ObjectStore } from './objects/object-store.js';
import type { RequestLimiter } from './server/plugins/auth.js';
import type { SharedUiSessions } from './server/ui-sessions.js';
import type { WorkspaceMirror } from './store/workspace-mirror.js';
import type { SharedWorkspace } from './workspace/shared-workspace.js';

/** A node's copy of the cluster's shared workspace (templates, their assets, fonts). */
export interface SharedWorkspaceCopy extends SharedWorkspace {
  /** Pulls once, then follows writes made elsewhere. */
  start(): Promise<void>;
  /** Pulls when another node wrote since the last pull. */
  pullIfBehind(): Promise<void>;
  stop(): void;
}

/**
 * What an API node of a cluster uses instead of the embedded parts: PostgreSQL for the data, the
 * shared object store for uploads and outputs, chunk jobs for the work, Redis for rate limits,
 * PostgreSQL notifications for progress, and the address and names it answers on.
 */
export interface ClusterApiParts {
  data: CoreData;
  objects: ObjectStore;
  uploadCache: ObjectCache;
  limiter: RequestLimiter;
  host: string;
  allowedHosts: readonly string[];
  /** The cluster's batch work, given this node's uploads (its ingest reads them). */
  work: (uploads: UploadService) => BatchWork;
  /** Why this node should not get traffic now (GET /healthz answers 503 with it), or null. */
  healthProblem: () => string | null;
  /** UI sessions every API node honours (launch links and sessions signed with one key). */
  sessions: SharedUiSessions;
  /** The shared workspace, copied into this node's store and folders. */
  workspace: (local: {
    mirror: WorkspaceMirror;
    assetsDir: (templateId: string) => string;
    fontsDir: string;
  }) => SharedWorkspaceCopy;
  /** Starts pushing other nodes' progress into this node's events; returns a stop function. */
  progress: (events: BatchEvents) => Promise<() => Promise<void>>;
}
