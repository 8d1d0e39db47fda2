import { parseArgs } from 'node:util';
import { ClusterConfigError } from '../cluster/cluster-config-error.js';
import { resolveClusterConfig } from '../cluster/cluster-config.js';
import { assertNoEviction, openRedis } from '../cluster/redis-connection.js';
import {
  queueUrlWithSecret,
  saveClusterSettings,
  validateQueueUrl,
} from '../cluster/cluster-settings.js';
import { secretFromEnv } from '../cluster/secret-env.js';
import { migratePostgres } from '../data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../data/postgres/migrations/index.js';
import { openPostgres } from '../data/postgres/open-postgres.js';
import { postgresCoreData } from '../data/postgres/postgres-core-data.js';
import {
  createObjectStore,
  formatObjectStoreUrl,
  parseObjectStoreUrl,
} from '../objects/object-store-url.js';

export const CLUSTER_INIT_HELP = `render-desk cluster init --queue redis://HOST:6379/0 --store s3://BUCKET?endpoint=URL | dir:/PATH

Prepares a PostgreSQL database for cluster mode: applies the migrations and records where the
queue (Redis) and the object store are, after checking both. Run it once; start the nodes with
--cluster (or RENDER_DESK_CLUSTER) afterwards.

  --cluster URL   PostgreSQL (or RENDER_DESK_CLUSTER / RENDER_DESK_CLUSTER_FILE); its password
                  from PGPASSWORD, never on the command line
  --queue URL     Redis; its password from RENDER_DESK_REDIS_PASSWORD(_FILE)
  --store URL     s3://bucket?endpoint=…&region=… (keys from RENDER_DESK_S3_ACCESS_KEY_ID and
                  RENDER_DESK_S3_SECRET_ACCESS_KEY, or their _FILE forms) or dir:/shared/folder

Exit codes: 0 done, 2 bad arguments, 1 a service refused (the message says which).`;

/** `render-desk cluster init`: migrate PostgreSQL, check Redis and the store, save the settings. */
export async function clusterInit(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      cluster: { type: 'string' },
      queue: { type: 'string' },
      store: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    out(CLUSTER_INIT_HELP);
    return 0;
  }
  if (!values.queue || !values.store) throw new ClusterConfigError('usage', CLUSTER_INIT_HELP);
  const cluster = resolveClusterConfig({ cluster: values.cluster ?? true });
  if (!cluster) throw new ClusterConfigError('usage', CLUSTER_INIT_HELP);
  const queue = validateQueueUrl(values.queue);
  const storeConfig = parseObjectStoreUrl(values.store);

  const redis = openRedis(
    queueUrlWithSecret(queue, secretFromEnv('RENDER_DESK_REDIS_PASSWORD')),
    'init',
  );
  try {
    await assertNoEviction(redis);
  } finally {
    redis.disconnect();
  }
  const objects = await createObjectStore(storeConfig);
  try {
    // A write, a read and a delete: the same rights every node will need.
    const key = `render-desk-init/${Date.now()}.probe`;
    await objects.put(key, Buffer.from('render-desk'));
    if ((await objects.get(key))?.toString() !== 'render-desk')
      throw new ClusterConfigError(
        'store-check',
        `The object store ${objects.describe()} did not return what was written.`,
      );
    await objects.delete(key);
  } finally {
    await objects.close();
  }
  const pool = openPostgres(cluster.postgresUrl);
  try {
    const migrated = await migratePostgres(pool, POSTGRES_MIGRATIONS);
    const data = postgresCoreData(pool);
    await saveClusterSettings(data, { queue, store: formatObjectStoreUrl(storeConfig) });
    out(
      `Cluster ready: PostgreSQL at schema version ${migrated.to}, queue ${queue}, store ${formatObjectStoreUrl(storeConfig)}.`,
    );
  } finally {
    await pool.end();
  }
  return 0;
}
