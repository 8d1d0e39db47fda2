import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { startCore, type RunningCore } from '../app.js';
import { buildRenderer, customFontsIn } from '../core/build-renderer.js';
import { builtInCatalog } from '../core/built-in-catalog.js';
import { startRenderPool } from '../core/render-pool-factory.js';
import type { CoreConfig } from '../config.js';
import { batchSourceName, toBatchResource } from '../batch/batch-resource.js';
import { migratePostgres } from '../data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../data/postgres/migrations/index.js';
import { LeaderLease } from '../data/postgres/leader-lease.js';
import { openPostgres, postgresClientConfig } from '../data/postgres/open-postgres.js';
import { postgresCoreData } from '../data/postgres/postgres-core-data.js';
import { coreWebhooks } from '../webhooks/core-webhooks.js';
import { createImageReferenceResolver } from '../engine/image-reference.js';
import { ObjectCache } from '../objects/object-cache.js';
import { createObjectStore, parseObjectStoreUrl } from '../objects/object-store-url.js';
import { createRenderPool, type RenderPool } from '../render/render-pool.js';
import { logServerProblem, problemLine } from '../server/server-error-log.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { BatchNotifications } from './batch-notifications.js';
import { ChunkDispatch } from './chunk-dispatch.js';
import { ChunkQueue } from './chunk-queue.js';
import type { ClusterConfig } from './cluster-config.js';
import { ClusterScheduler } from './cluster-scheduler.js';
import { queueUrlWithSecret, readClusterSettings } from './cluster-settings.js';
import { startClusterWorker } from './cluster-worker.js';
import { Coordination } from './coordination.js';
import { Leader } from './leader.js';
import { templatePurge } from './template-purge.js';
import { assertNoEviction, openRedis } from './redis-connection.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { secretFromEnv } from './secret-env.js';
import { WorkspaceReplica } from './workspace-replica.js';
import { EvictionWatch, evictionCheckMs } from './eviction-watch.js';
import { SharedWorkspaceRepository } from '../data/postgres/shared-workspace-repository.js';
import { createStore } from '../store/create-store.js';
import { spendLaunchToken } from '../data/postgres/ui-launch-tokens.js';

export interface RunningClusterNode {
  nodeId: string;
  role: ClusterConfig['role'];
  /** The API part (roles api and all). */
  core: RunningCore | null;
  leader: Leader;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 10_000;

/**
 * A cluster node (DESIGN §6a): PostgreSQL for the truth, BullMQ on Redis for chunk jobs, an
 * S3-compatible store (or a shared folder) for files. Role `api` serves /v1 on PostgreSQL,
 * `worker` renders chunk jobs, `all` does both. Every node may become the leader.
 */
export async function startClusterNode(
  config: CoreConfig & { cluster: ClusterConfig },
  options: { logger?: boolean; log?: (message: string, detail?: unknown) => void } = {},
): Promise<RunningClusterNode> {
  const log =
    options.log ??
    ((message: string, detail?: unknown) => logServerProblem(problemLine(message, detail)));
  const { cluster } = config;
  const nodeId = `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse())
      await closer().catch((error: unknown) => log('a cluster part did not stop cleanly', error));
  };
  try {
    const pg = openPostgres(cluster.postgresUrl, { log });
    closers.push(() => pg.end());
    await migratePostgres(pg, POSTGRES_MIGRATIONS);
    // Webhook events are queued in PostgreSQL by whichever node changes a batch; any node sends.
    const webhooks = coreWebhooks(postgresCoreData(pg), { log });
    webhooks.dispatcher.start();
    closers.push(() => webhooks.dispatcher.close());
    const data = webhooks.data;
    const settings = await readClusterSettings(data);

    const redisUrl = queueUrlWithSecret(
      settings.queue,
      secretFromEnv('RENDER_DESK_REDIS_PASSWORD'),
    );
    const redis = openRedis(redisUrl, `${cluster.role}-${process.pid}`);
    closers.push(async () => redis.disconnect());
    await assertNoEviction(redis);
    const objects = await createObjectStore(parseObjectStoreUrl(settings.store));
    closers.push(() => objects.close());

    const coordination = new Coordination(pg);
    const queue = new ChunkQueue(openRedis(redisUrl, `producer-${process.pid}`));
    closers.push(() => queue.close());
    const scheduler = new ClusterScheduler(data, coordination, queue, log);
    const threads = cluster.role === 'api' ? 0 : config.workers;

    const heartbeat = () =>
      coordination
        .heartbeat({ id: nodeId, role: cluster.role, threads, host: os.hostname() })
        .catch((error: unknown) => log('the node heartbeat could not be written', error));
    await heartbeat();
    const beat = setInterval(() => void heartbeat(), HEARTBEAT_MS);
    beat.unref();
    closers.push(async () => {
      clearInterval(beat);
      await coordination.leave(nodeId).catch(() => undefined);
    });

    // The eviction policy is checked again while the node runs; an unsafe one pauses the worker.
    let chunkWorker: { pause(): Promise<void>; resume(): void } | undefined;
    const eviction = new EvictionWatch(redis, {
      intervalMs: evictionCheckMs(),
      log,
      onUnsafe: () => chunkWorker?.pause(),
      onSafe: () => chunkWorker?.resume(),
    });
    eviction.start();
    closers.push(async () => eviction.stop());

    const cacheDir = path.join(config.dataDir, 'cache', 'cluster');
    const sharedWorkspace = new SharedWorkspaceRepository(pg);
    const uploadCache = new ObjectCache(objects, path.join(cacheDir, 'uploads'));
    let api: ChunkDispatch | undefined;
    let core: RunningCore | null = null;
    if (cluster.role !== 'worker') {
      const dispatch = new ChunkDispatch({ data, coordination, scheduler, nodeId, log });
      api = dispatch;
      core = await startCore(config, {
        ...(options.logger !== undefined ? { logger: options.logger } : {}),
        cluster: {
          data,
          objects,
          uploadCache,
          dispatch: dispatch.dispatch,
          limiter: new RedisRateLimiter(redis, config.rateLimit),
          host: cluster.host,
          allowedHosts: cluster.allowedHosts,
          healthProblem: () => eviction.current(),
          sessions: {
            key: Buffer.from(
              await data.settings.getOrCreate('ui-session-key', () =>
                crypto.randomBytes(32).toString('hex'),
              ),
              'hex',
            ),
            spend: (digest, expiresAt) => spendLaunchToken(pg, digest, expiresAt),
          },
          workspace: (local) =>
            new WorkspaceReplica({ repository: sharedWorkspace, objects, log, ...local }),
          progress: async (events) => {
            const notifications = new BatchNotifications(
              postgresClientConfig(cluster.postgresUrl),
              events,
              async (id) => {
                const batch = await data.batches.get(id);
                return batch
                  ? toBatchResource(batch, 0, undefined, await batchSourceName(data.uploads, batch))
                  : null;
              },
              log,
            );
            await notifications.start();
            return () => notifications.stop();
          },
        },
      });
      const started = core;
      closers.push(() => started.close());
    }

    let pool: RenderPool | undefined;
    if (cluster.role !== 'api') {
      pool = startRenderPool(config, createRenderPool, (message) => log(message));
      const renderPool = pool;
      closers.push(() => renderPool.close());
      const catalog = builtInCatalog();
      // The worker's own copy of the shared workspace (apart from an API part's on the same
      // node, so the two never contend for one SQLite file).
      const copyDir = path.join(cacheDir, 'workspace');
      const copyStore = createStore(copyDir);
      closers.push(async () => copyStore.close());
      const assetsDir = (id: string) => path.join(copyDir, 'workspace-templates', id, 'assets');
      const copy = new WorkspaceReplica({
        repository: sharedWorkspace,
        objects,
        mirror: copyStore.workspaceMirror,
        assetsDir,
        fontsDir: path.join(copyDir, 'fonts'),
        log,
      });
      await copy.start();
      closers.push(async () => copy.stop());
      // The same renderer as every core's. Rows name their brand and templates travel with the
      // chunk (chunk-processor.ts), so the lookup is the catalog and no brand is the default;
      // image URLs of batch rows are fetched here, under the setting every node reads.
      const { renderer } = buildRenderer({
        templates: catalog,
        pool: renderPool,
        defaultBrand: () => EMPTY_BRAND_PROFILE,
        resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
        fonts: customFontsIn({ dir: copyDir, store: copyStore }, copy),
        settings: data.settings,
        cacheDir,
      });
      const worker = startClusterWorker({
        data,
        coordination,
        scheduler,
        objects,
        renderer,
        catalog,
        workspace: { catchUp: () => copy.pullIfBehind(), assetsDir },
        redis: openRedis(redisUrl, `worker-${process.pid}`),
        threads: config.workers,
        cacheDir,
        log,
      });
      closers.push(() => worker.close());
      chunkWorker = {
        pause: () => worker.worker.pause(),
        resume: () => worker.worker.resume(),
      };
    }

    const lease = new LeaderLease(postgresClientConfig(cluster.postgresUrl), { log });
    const leader = new Leader({
      lock: lease,
      coordination,
      scheduler,
      queue,
      objects,
      resumeIngest: async (batchId) => {
        // Only nodes with the API part read sources; a worker-only leader leaves it to them.
        await api?.resumeIngest(batchId);
      },
      purgeTemplates: templatePurge(sharedWorkspace, objects),
      log,
    });
    leader.start();
    closers.push(() => leader.stop());

    return { nodeId, role: cluster.role, core, leader, close };
  } catch (error) {
    await close();
    throw error;
  }
}
