import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { removeStaleStaging } from './packs/pack-import.js';
import type { Catalog } from './catalog/load-catalog.js';
import { ThumbnailCache } from './catalog/thumbnail-cache.js';
import type { CoreConfig } from './config.js';
import { buildServices, type CoreServices } from './core/build-services.js';
import type { BatchDispatch } from './core/core-parts.js';
import { REPO_ROOT, UI_DIR } from './core/install-paths.js';
import { openDataFolder } from './core/open-data-folder.js';
import type { RenderPoolFactory } from './core/render-pool-factory.js';
import { createRenderPool, type RenderPool } from './render/render-pool.js';
import { sqliteCoreData } from './data/sqlite-core-data.js';
import { API_VERSION, buildServer } from './server/build-server.js';
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
import type { Store } from './store/create-store.js';
import type { ImageUrlFetcher } from './remote-images/image-url-fetcher.js';
import { ImageUrlFailure } from './remote-images/image-url-failure.js';
import type { WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';
import { coreWebhooks } from './webhooks/core-webhooks.js';
import type { ClusterApiParts } from './core-mode.js';
import type { CoreData } from './data/core-data.js';

export { REPO_ROOT, TEMPLATES_DIR } from './core/install-paths.js';

/** Brand logos are decoded at this size to prove they are images. */
const LOGO_CHECK: ImageFitting = {
  width: 64,
  height: 64,
  fit: 'contain',
  focalPoint: { x: 0.5, y: 0.5 },
};

/** The app's own version (Settings shows it), not the version of the /v1 API it serves. */
function appVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : API_VERSION;
}

export interface RunningCore {
  url: string;
  port: number;
  dataDir: string;
  server: FastifyInstance;
  store: Store;
  pool: RenderPool;
  /** The built-in templates, as loaded at this start. */
  catalog: Catalog;
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
  catalog: Catalog;
  /** Where batch rows are drawn: the in-process runner, or a cluster's chunk jobs. */
  work: BatchDispatch;
  sessions: UiSessions;
  /** Set when this start created the first API key: shown once, never stored in clear. */
  createdKeySecret: string | undefined;
  /** Stops the timers, the batch work, the server, the pool and the store, once. */
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
  renderPool?: RenderPoolFactory;
}

/** Composition root: opens the store, starts the pool, builds and starts the server. */
export async function startCore(
  requested: CoreConfig,
  options: CoreOptions = {},
): Promise<RunningCore> {
  const core = await composeCore(requested, options);
  const { config, server, work, sessions } = core;
  const cluster = options.cluster;
  try {
    guardConnections(server.server, {
      maxConnections: connectionCap(openFileLimit()),
      log: (message) => logServerProblem(message),
    });
    await server.listen({ host: cluster?.host ?? '127.0.0.1', port: config.port });
    // Batches a previous run left unfinished (a cluster's leader sees to its own).
    await work.resume?.();
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
      catalog: core.catalog,
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
  const { config, store, pool } = openDataFolder(
    requested,
    options.renderPool ?? createRenderPool,
    (message) => logServerProblem(message),
  );
  let services: CoreServices | undefined;
  // Embedded mode's data on the store; closed with it (it holds the WAL file open for fsyncs).
  const local = cluster ? undefined : sqliteCoreData(store);
  const closeStore = async () => {
    await local?.close();
    store.close();
  };
  try {
    // The node-local store keeps what is this machine's own (preferences, workspace templates
    // and fonts); the account, keys, batches and the rest live in `data`.
    // Outgoing webhooks: the batch commands queue a delivery in the data as a batch ends or a
    // row fails (a cluster node sets up its own, in start-cluster-node.ts).
    const webhooks = !local
      ? undefined
      : coreWebhooks(local, {
          ...options.webhookDispatcher,
          log: (message, detail) => console.error(message, detail),
        });
    const data = cluster ? cluster.data : webhooks!.data;
    // A claim left by a process that died mid-render can never complete (in a cluster, other
    // API nodes may hold live claims: theirs expire instead).
    if (!cluster) await data.idempotency.clearInProgress();
    services = await buildServices(
      {
        dataDir: config.dataDir,
        store,
        data,
        pool,
        ...(options.catalogDir ? { catalog: { dir: options.catalogDir } } : {}),
        ...(cluster ? { cluster } : {}),
        ...(options.imageUrlFetcher ? { imageUrls: { fetcher: options.imageUrlFetcher } } : {}),
        previewLinks: true,
        log: (message, detail) => console.error(message, detail),
      },
      config,
    );
    // What the HTTP side and this start use by name; the rest is handed on as `services.…`.
    const built = services;
    const { catalog, workspace, renderer, resolveImage, uploads, objects } = built;
    const { remoteImages, imageUrlSettings, sharedWorkspace: shared } = built;

    let createdKeySecret: string | undefined;
    if (config.apiKey)
      await data.apiKeys.ensure(config.apiKey, { name: 'RENDER_DESK_API_KEY', scope: 'admin' });
    else if ((await data.apiKeys.count()) === 0) {
      createdKeySecret = (await data.apiKeys.create({ name: 'First key', scope: 'admin' })).secret;
    }

    // A copy keeps every template: batches on other nodes may still render deleted ones.
    if (!shared) workspace.purgeDeleted();
    removeStaleStaging(workspace.rootDir);
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
    // Shared by every API node of a cluster: a link signed by one is honoured by the others.
    const signer = new UrlSigner(
      await data.settings.getOrCreate('url-signing-secret', () =>
        crypto.randomBytes(32).toString('hex'),
      ),
    );
    const server = buildServer(
      {
        ...(services.previewLinks ? { previewLinks: services.previewLinks } : {}),
        webhooks: { repository: data.webhooks },
        data,
        objects,
        mode: cluster ? 'cluster' : 'embedded',
        ...(cluster ? { allowedHosts: cluster.allowedHosts } : {}),
        singleRenders: services.singleRenders,
        catalog,
        templates: services.templates,
        workspace,
        renderer,
        thumbnails: new ThumbnailCache(path.join(config.dataDir, 'cache', 'thumbnails'), renderer),
        signer,
        limiter: cluster?.limiter ?? new RateLimiter(config.rateLimit),
        outputsDir: services.outputs.outputsDir,
        outputs: services.outputs,
        batches: services.batches,
        events: services.events,
        uploads,
        preflight: services.preflightDeps(),
        subscription: services.subscription,
        sessions,
        uiDir: UI_DIR,
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
        fonts: services.fonts,
        checkFontFamily: (family, familyPath) => built.fonts.checkFontFamily(family, familyPath),
        ...(shared ? { workspaceCatchUp: () => shared.pullIfBehind() } : {}),
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
          else await objects.delete(ref);
        }
        await uploads.purgeExpired();
      })().catch((error: unknown) => console.error('purging expired results failed', error));
    }, 10 * 60_000);
    purge.unref();

    if (team) await team.worker.apply(await team.settings.read());
    webhooks?.dispatcher.start();

    // In a cluster, progress of rows run by other nodes reaches this node's event streams.
    const stopProgress = cluster ? await cluster.progress(services.events) : undefined;

    const started = services;
    let closing: Promise<void> | undefined;
    return {
      config,
      server,
      store,
      data,
      pool,
      catalog,
      work: started.work,
      sessions,
      createdKeySecret,
      close() {
        closing ??= (async () => {
          clearInterval(purge);
          await webhooks?.dispatcher.close();
          await started.close();
          await team?.worker.close();
          await stopProgress?.();
          await server.close();
          await pool.close();
          await closeStore();
        })();
        return closing;
      },
    };
  } catch (error) {
    await services?.close();
    await pool.close();
    await closeStore();
    throw error;
  }
}
