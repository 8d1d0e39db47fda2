import type { BatchEvents } from '../batch/batch-events.js';
import type { BatchOutputs } from '../batch/batch-outputs.js';
import type { BatchWork } from '../batch/batch-work.js';
import type { CoreData } from '../data/core-data.js';
import type { UploadService } from '../ingest/upload-service.js';
import type { ObjectCache } from '../objects/object-cache.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { RenderPool } from '../render/render-pool.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { Store } from '../store/create-store.js';
import type { WorkspaceMirror } from '../store/workspace-mirror.js';
import type { SharedWorkspace } from '../workspace/shared-workspace.js';
import type { ImageUrlParts } from './build-renderer.js';
import type { CatalogChoice } from './built-in-catalog.js';

/** A node's copy of the cluster's shared workspace (templates, their assets, fonts). */
export interface SharedWorkspaceCopy extends SharedWorkspace {
  /** Pulls once, then follows writes made elsewhere. */
  start(): Promise<void>;
  /** Pulls when another node wrote since the last pull. */
  pullIfBehind(): Promise<void>;
  stop(): void;
}

/** Where a batch's rows get drawn, and how that stops with the core. */
export interface BatchDispatch extends BatchWork {
  /** Picks up batches a previous run left unfinished (the in-process runner). */
  resume?(): Promise<void>;
  close(): Promise<void>;
}

/** The services a dispatch draws rows with. */
export interface DispatchDeps {
  data: CoreData;
  renderer: RenderService;
  outputs: BatchOutputs;
  /** Where rows are written: the data folder's outputs, or the cluster's shared store. */
  objects: ObjectStore;
  events: BatchEvents;
  uploads: UploadService;
  resolveImage: ImageResolver;
  pool: RenderPool;
  log: (message: string, detail?: unknown) => void;
}

/** Makes the batch dispatch once the services it needs exist: in-process, or chunk jobs. */
export type BatchDispatchFactory = (deps: DispatchDeps) => BatchDispatch;

/** What a node of a cluster uses instead of its data folder's parts. */
export interface ClusterParts {
  /** The shared object store: outputs, and uploads every node can read. */
  objects: ObjectStore;
  /** This node's copies of uploads kept in `objects` (one per node, whatever its roles). */
  uploadCache: ObjectCache;
  /** The shared workspace, copied into this node's store and folders. */
  workspace: (local: {
    mirror: WorkspaceMirror;
    assetsDir: (templateId: string) => string;
    fontsDir: string;
  }) => SharedWorkspaceCopy;
  /** Chunk jobs on the cluster's queue instead of the in-process runner. */
  dispatch: BatchDispatchFactory;
}

/**
 * The parts of a core that differ by mode, made by each front end (the app and headless server,
 * the command line, a cluster API node); `buildServices` makes every service from them.
 */
export interface CoreParts {
  /** This node's data folder: uploads, outputs, caches, workspace templates and fonts. */
  dataDir: string;
  /**
   * The SQLite store in `dataDir`. It keeps what is this machine's own (preferences, workspace
   * templates and fonts, or in a cluster its copy of them); in embedded mode `data` is it too.
   */
  store: Store;
  /**
   * The account, keys, batches and the rest: the folder's SQLite (its batch commands queueing
   * webhook events where the front end sends them) or the cluster's PostgreSQL.
   */
  data: CoreData;
  /** Started by the front end (`startRenderPool`), so its threads load while the rest is made. */
  pool: RenderPool;
  /** The built-in templates: all at the start (a server), or as they are used (a command). */
  catalog?: CatalogChoice;
  /** Cluster mode: the shared store, upload cache, workspace and chunk dispatch. */
  cluster?: ClusterParts;
  /** Narrows which image values may be read (the MCP server's allowed folders). */
  restrictImages?: (resolver: ImageResolver) => ImageResolver;
  imageUrls?: ImageUrlParts;
  /** Where this user renews a lapsed subscription (the command line: "run the command again"). */
  renewHint?: string;
  /** Signed preview links, which only the server serves. */
  previewLinks?: boolean;
  log: (message: string, detail?: unknown) => void;
}
