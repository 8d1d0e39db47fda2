import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { BatchEvents } from './batch/batch-events.js';
import { BatchOutputs } from './batch/batch-outputs.js';
import { BatchRunner, batchRowsInFlight } from './batch/batch-runner.js';
import { BatchService } from './batch/batch-service.js';
import { UploadService } from './ingest/upload-service.js';
import { loadCatalog } from './catalog/load-catalog.js';
import { TemplateLibrary } from './catalog/template-library.js';
import { WorkspaceTemplates } from './workspace/workspace-templates.js';
import { removeStaleStaging } from './packs/pack-import.js';
import { ThumbnailCache } from './catalog/thumbnail-cache.js';
import type { CoreConfig } from './config.js';
import { createImageReferenceResolver } from './engine/image-reference.js';
import { FONTS_DIR } from './engine/render-job.js';
import { CustomFonts } from './fonts/custom-fonts.js';
import { fontCoverageCheck } from './fonts/font-coverage-check.js';
import { createRenderPool, type RenderPool, type RenderPoolOptions } from './render/render-pool.js';
import { RenderService } from './render/render-service.js';
import { SingleRenderService } from './render/single-render-service.js';
import { sqliteCoreData } from './data/sqlite-core-data.js';
import { FolderObjectStore } from './objects/folder-object-store.js';
import { API_VERSION, buildServer } from './server/build-server.js';
import { savedPreferences } from './preferences.js';
import { CreditReservations } from './render/credit-reservations.js';
import { loadFittedImage, type ImageFitting } from './engine/load-image.js';
import { Errors } from '../shared/errors.js';
import { RateLimiter } from './server/rate-limiter.js';
import { UrlSigner } from './server/signed-url.js';
import { UiSessions } from './server/ui-sessions.js';
import { LentWorker } from './team/lent-worker.js';
import { TeamServiceClient } from './team/team-service-client.js';
import { TeamServiceSettingsStore } from './team/team-service-settings.js';
import { connectionCap, guardConnections } from './server/connection-guard.js';
import { openFileLimit } from './server/open-file-limit.js';
import { logServerProblem } from './server/server-error-log.js';
import { createStore, type Store } from './store/create-store.js';
import { ImageUrlCache } from './remote-images/image-url-cache.js';
import type { ImageUrlFetcher } from './remote-images/image-url-fetcher.js';
import { imageUrlSettingsSource } from './remote-images/image-url-settings.js';
import { RemoteImages } from './remote-images/remote-images.js';
import { ImageUrlFailure } from './remote-images/image-url-failure.js';
import { PreviewLinkSigner } from './preview-links/preview-link-signer.js';
import { PreviewLinks } from './preview-links/preview-links.js';
import { previewSecret } from './preview-links/preview-secret.js';
import type { WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';
import { coreWebhooks } from './webhooks/core-webhooks.js';
import type { ClusterApiParts, SharedWorkspaceCopy } from './core-mode.js';
import type { CoreData } from './data/core-data.js';
import { EMPTY_BRAND_PROFILE, type BrandProfile } from '../shared/brand-profile.js';

/** Brand logos are decoded at this size to prove they are images. */
const LOGO_CHECK: ImageFitting = {
  width: 64,
  height: 64,
  fit: 'contain',
  focalPoint: { x: 0.5, y: 0.5 },
};

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The app's own version (Settings shows it), not the version of the /v1 API it serves. */
function appVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : API_VERSION;
}
export const TEMPLATES_DIR = path.join(REPO_ROOT, 'templates');

export interface RunningCore {
  url: string;
  port: number;
  dataDir: string;
  server: FastifyInstance;
  store: Store;
  pool: RenderPool;
  /** Set when this start created the first API key: shown once, never stored in clear. */
  createdKeySecret: string | undefined;
  /** A one-time link that opens the UI with a session. */
  uiLink(): string;
  close(): Promise<void>;
}

/** The core put together but not listening: `startCore` listens, tests `inject()`. */
export interface ComposedCore {
  /** The requested config with the saved preferences applied (workers, port). */
  config: CoreConfig;
  server: FastifyInstance;
  store: Store;
  data: CoreData;
  pool: RenderPool;
  /** The embedded batch runner (idle in cluster mode, where cluster workers run the rows). */
  runner: BatchRunner;
  sessions: UiSessions;
  /** Set when this start created the first API key: shown once, never stored in clear. */
  createdKeySecret: string | undefined;
  /** Stops the timers, the runner, the server, the pool and the store, once. */
  close(): Promise<void>;
}

export interface CoreOptions {
  logger?: boolean;
  catalogDir?: string;
  cluster?: ClusterApiParts;
  /**
   * Tests only (nothing a request, flag or setting reaches): a fetcher whose address rules let
   * the test's own loopback server stand in for an internet host.
   */
  imageUrlFetcher?: ImageUrlFetcher;
  /** Tests only: shorter webhook retries (backoff, poll interval, attempts). */
  webhookDispatcher?: Omit<WebhookDispatcherOptions, 'repository' | 'log'>;
  /**
   * How the render pool is made. The app starts its threads with the core, so the first render
   * finds them warm; a test of routes that draw nothing passes `lazyRenderPool`, whose threads
   * start at the first render.
   */
  renderPool?: (options: RenderPoolOptions & { threads: number }) => RenderPool;
}

/**
 * Workers and port chosen in the app's Settings apply from the next start, unless a flag or the
 * environment sets them (scripts and CI keep control).
 */
function withSavedPreferences(config: CoreConfig, store: Store): CoreConfig {
  const saved = savedPreferences((key) => store.settings.get(key));
  return {
    ...config,
    ...(saved.workers !== null && !config.explicit?.workers ? { workers: saved.workers } : {}),
    ...(saved.port !== null && !config.explicit?.port ? { port: saved.port } : {}),
  };
}

/** Composition root: opens the store, starts the pool, builds and starts the server. */
export async function startCore(
  requested: CoreConfig,
  options: CoreOptions = {},
): Promise<RunningCore> {
  const core = await composeCore(requested, options);
  const { config, server, runner, sessions } = core;
  const cluster = options.cluster;
  try {
    guardConnections(server.server, {
      maxConnections: connectionCap(openFileLimit()),
      log: (message) => logServerProblem(message),
    });
    await server.listen({ host: cluster?.host ?? '127.0.0.1', port: config.port });
    if (!cluster) await runner.resume();
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://127.0.0.1:${port}`;
    const serverFile = path.join(config.dataDir, 'server.json');
    fs.writeFileSync(
      serverFile,
      JSON.stringify({ url, port, pid: process.pid, startedAt: new Date().toISOString() }, null, 2),
    );

    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      dataDir: config.dataDir,
      server,
      store: core.store,
      pool: core.pool,
      createdKeySecret: core.createdKeySecret,
      uiLink: () => `${url}/ui/session?token=${sessions.createLaunchToken()}`,
      close() {
        closing ??= (async () => {
          await core.close();
          fs.rmSync(serverFile, { force: true });
        })();
        return closing;
      },
    };
  } catch (error) {
    await core.close();
    throw error;
  }
}

/**
 * Opens the store and the data, starts the pool and builds the server with every service, without
 * listening: `startCore` listens on a port; route tests call `inject()` on `server`.
 */
export async function composeCore(
  requested: CoreConfig,
  options: CoreOptions = {},
): Promise<ComposedCore> {
  const cluster = options.cluster;
  fs.mkdirSync(requested.dataDir, { recursive: true });
  const store = createStore(requested.dataDir);
  const config = withSavedPreferences(requested, store);
  let pool: RenderPool | undefined;
  let shared: SharedWorkspaceCopy | undefined;
  try {
    // The node-local store keeps what is this machine's own (preferences, workspace templates
    // and fonts); the account, keys, batches and the rest live in `data`.
    // Outgoing webhooks: the batch commands queue a delivery in the data as a batch ends or a
    // row fails (a cluster node sets up its own, in start-cluster-node.ts).
    const webhooks = cluster
      ? undefined
      : coreWebhooks(sqliteCoreData(store), {
          ...options.webhookDispatcher,
          log: (message, detail) => console.error(message, detail),
        });
    const data = cluster ? cluster.data : webhooks!.data;
    // A claim left by a process that died mid-render can never complete (in a cluster, other
    // API nodes may hold live claims: theirs expire instead).
    if (!cluster) await data.idempotency.clearInProgress();
    await data.commands.initialiseAccount(config.openingCredits);
    if (config.subscription)
      await data.subscription.set({ status: config.subscription, expiresAt: null });

    let createdKeySecret: string | undefined;
    if (config.apiKey)
      await data.apiKeys.ensure(config.apiKey, { name: 'RENDER_DESK_API_KEY', scope: 'admin' });
    else if ((await data.apiKeys.count()) === 0) {
      createdKeySecret = (await data.apiKeys.create({ name: 'First key', scope: 'admin' })).secret;
    }

    const catalog = loadCatalog(options.catalogDir ?? path.join(TEMPLATES_DIR, 'catalog'));
    const workspaceDir = path.join(config.dataDir, 'workspace-templates');
    const fontsDir = path.join(config.dataDir, 'fonts');
    // In a cluster the local tables and folders are this node's copy of the shared workspace.
    shared = cluster?.workspace({
      mirror: store.workspaceMirror,
      assetsDir: (id) => path.join(workspaceDir, id, 'assets'),
      fontsDir,
    });
    await shared?.start();
    const workspace = new WorkspaceTemplates(store.workspaceTemplates, workspaceDir, shared);
    // A copy keeps every template: batches on other nodes may still render deleted ones.
    if (!shared) workspace.purgeDeleted();
    removeStaleStaging(workspace.rootDir);
    const fonts = new CustomFonts(store.customFonts, fontsDir, FONTS_DIR, shared);
    workspace.addCheck(fontCoverageCheck(fonts));
    const templates = new TemplateLibrary(catalog, workspace);
    pool = (options.renderPool ?? createRenderPool)({
      threads: config.workers,
      log: (message) => logServerProblem(message),
      ...(config.renderTimeoutMs !== undefined ? { deadlineMs: config.renderTimeoutMs } : {}),
    });
    const uploads = new UploadService(
      data,
      path.join(config.dataDir, 'uploads'),
      cluster ? { objects: cluster.objects, cache: cluster.uploadCache } : undefined,
    );
    const resolveImage = createImageReferenceResolver({
      uploadPath: (id: string) => uploads.imagePath(id),
      allowRemote: false,
      protectedDirs: [config.dataDir],
    });
    const defaultBrand = cluster
      ? await followDefaultBrand(data)
      : { current: () => store.brandProfiles.getDefault().profile, stop: () => undefined };
    const imageUrlSettings = imageUrlSettingsSource(data.settings);
    const remoteImages = new RemoteImages({
      cache: new ImageUrlCache(path.join(config.dataDir, 'cache', 'image-urls')),
      settings: imageUrlSettings.read,
      ...(options.imageUrlFetcher ? { fetcher: options.imageUrlFetcher } : {}),
    });
    const renderer = new RenderService({
      templates,
      pool,
      // Callers that name no brand (thumbnails, editor previews) draw with the default brand.
      brandProfile: defaultBrand.current,
      resolveImage,
      customFonts: () => fonts.faces(),
      remoteImages,
    });
    const sessions = new UiSessions(Date.now, cluster?.sessions);
    // The desktop app's team service and the worker that lends this computer's threads to it.
    const team = cluster
      ? undefined
      : {
          settings: new TeamServiceSettingsStore(data.settings),
          client: new TeamServiceClient(),
          worker: new LentWorker({
            dataDir: path.join(config.dataDir, 'lent-worker'),
            log: (line) => console.error(line),
          }),
        };
    const outputs = new BatchOutputs(path.join(config.dataDir, 'outputs'));
    const events = new BatchEvents();
    const runner = new BatchRunner({
      data,
      renderer,
      outputs,
      events,
      openRows: (batch) => uploads.openRows(batch),
      resolveImage,
      concurrency: batchRowsInFlight(pool.threads),
      log: (message, detail) => console.error(message, detail),
    });
    // Outputs keep their folder layout (outputs/batches/<id>/<row>.png); the store reads them.
    fs.mkdirSync(outputs.outputsDir, { recursive: true });
    const outputObjects = cluster?.objects ?? (await FolderObjectStore.open(outputs.outputsDir));
    const batches = new BatchService({
      data,
      renderer,
      work: cluster ? cluster.work(uploads) : runner,
      outputs,
      objects: outputObjects,
      mode: cluster ? 'cluster' : 'embedded',
      countRows: (id, sheet) => uploads.countRows(id, sheet),
      unpackImages: (id, destination) => uploads.unpackImages(id, destination),
      protectedDirs: [config.dataDir],
    });
    // Shared by every API node of a cluster: a link signed by one is honoured by the others.
    const signer = new UrlSigner(
      await data.settings.getOrCreate('url-signing-secret', () =>
        crypto.randomBytes(32).toString('hex'),
      ),
    );
    const reservations = new CreditReservations(async () => (await data.ledger.account()).balance);
    const singleRenders = new SingleRenderService({
      data,
      renderer,
      reservations,
      outputs: outputObjects,
    });
    const secret = previewSecret(data.settings);
    const previewLinks = new PreviewLinks({
      data,
      renderer,
      singleRenders,
      objects: outputObjects,
      signer: new PreviewLinkSigner(secret.current),
    });
    const server = buildServer(
      {
        previewLinks: { previewLinks, rotatePreviewSecret: secret.rotate },
        webhooks: { repository: data.webhooks },
        data,
        objects: outputObjects,
        mode: cluster ? 'cluster' : 'embedded',
        ...(cluster ? { allowedHosts: cluster.allowedHosts } : {}),
        singleRenders,
        catalog,
        templates,
        workspace,
        renderer,
        thumbnails: new ThumbnailCache(path.join(config.dataDir, 'cache', 'thumbnails'), renderer),
        signer,
        limiter: cluster?.limiter ?? new RateLimiter(config.rateLimit),
        outputsDir: outputs.outputsDir,
        outputs,
        batches,
        events,
        uploads,
        sessions,
        uiDir: path.join(REPO_ROOT, 'renderer', 'dist'),
        system: {
          version: appVersion(),
          dataDir: config.dataDir,
          workers: pool.threads,
          port: () => {
            const address = server.server.address();
            return typeof address === 'object' && address ? address.port : config.port;
          },
        },
        resolveImage,
        imageUrlSettingsChanged: imageUrlSettings.invalidate,
        checkImageValue: async (value, valuePath) => {
          // A brand logo may be an image URL when they are on: fetched under the same rules.
          const fetched = (await remoteImages.fetchAll([value.trim()])).get(value.trim());
          if (fetched instanceof ImageUrlFailure) throw fetched.at(valuePath);
          const input = fetched ?? resolveImage(value, valuePath);
          // A full decode, as a render would: a readable file is not yet an image.
          await loadFittedImage(input, LOGO_CHECK).catch((error: unknown) => {
            throw Errors.imageInvalid(valuePath, (error as Error).message);
          });
        },
        fonts,
        checkFontFamily: (family, familyPath) => fonts.checkFontFamily(family, familyPath),
        ...(shared ? { workspaceCatchUp: () => shared!.pullIfBehind() } : {}),
        ...(team ? { team } : {}),
        ...(cluster ? { healthProblem: cluster.healthProblem } : {}),
      },
      { logger: options.logger ?? false },
    );

    const purge = setInterval(() => {
      void (async () => {
        for (const ref of await data.idempotency.purgeExpired(new Date())) {
          // Older results were kept as absolute file paths, newer ones as output keys.
          if (path.isAbsolute(ref)) fs.rmSync(ref, { force: true });
          else await outputObjects.delete(ref);
        }
        await uploads.purgeExpired();
      })().catch((error: unknown) => console.error('purging expired results failed', error));
    }, 10 * 60_000);
    purge.unref();

    if (team) await team.worker.apply(await team.settings.read());
    webhooks?.dispatcher.start();

    // In a cluster, progress of rows run by other nodes reaches this node's event streams.
    const stopProgress = cluster ? await cluster.progress(events) : undefined;

    const startedPool = pool;
    let closing: Promise<void> | undefined;
    return {
      config,
      server,
      store,
      data,
      pool: startedPool,
      runner,
      sessions,
      createdKeySecret,
      close() {
        closing ??= (async () => {
          clearInterval(purge);
          await webhooks?.dispatcher.close();
          shared?.stop();
          defaultBrand.stop();
          await runner.close();
          await team?.worker.close();
          await stopProgress?.();
          await server.close();
          await startedPool.close();
          store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    shared?.stop();
    await pool?.close();
    store.close();
    throw error;
  }
}

/**
 * The default brand for callers that name none, read from PostgreSQL every few seconds (renders
 * are synchronous about it; another API node may change it at any time).
 */
async function followDefaultBrand(
  data: CoreData,
): Promise<{ current: () => BrandProfile; stop: () => void }> {
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
