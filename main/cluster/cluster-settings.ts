import type { CoreData } from '../data/core-data.js';
import { parseObjectStoreUrl } from '../objects/object-store-url.js';
import { ClusterConfigError } from './cluster-config-error.js';
import { hasPassword } from './secret-env.js';

/**
 * Where the cluster's queue and object store are, kept in PostgreSQL so that every node started
 * with only `--cluster` finds them (`render-desk cluster init` writes them). No secret is kept
 * here: a Redis password comes from RENDER_DESK_REDIS_PASSWORD, S3 keys from their variables.
 */
export interface ClusterSettings {
  queue: string;
  store: string;
}

const QUEUE_KEY = 'cluster.queue';
const STORE_KEY = 'cluster.store';

export function validateQueueUrl(queue: string): string {
  let url: URL;
  try {
    url = new URL(queue);
  } catch {
    throw new ClusterConfigError(
      'queue-setting',
      `"${queue}" is not a Redis URL (redis://host:6379/0).`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ClusterConfigError(
      'queue-setting',
      `The queue must be redis:// or rediss://, not ${url.protocol}.`,
    );
  if (hasPassword(queue))
    throw new ClusterConfigError(
      'queue-setting',
      'Keep the Redis password out of the queue setting: set RENDER_DESK_REDIS_PASSWORD (or RENDER_DESK_REDIS_PASSWORD_FILE) on every node.',
    );
  return url.toString();
}

export async function saveClusterSettings(
  data: CoreData,
  settings: ClusterSettings,
): Promise<void> {
  parseObjectStoreUrl(settings.store);
  await data.settings.set(QUEUE_KEY, validateQueueUrl(settings.queue));
  await data.settings.set(STORE_KEY, settings.store);
}

export async function readClusterSettings(data: CoreData): Promise<ClusterSettings> {
  const queue = await data.settings.get(QUEUE_KEY);
  const store = await data.settings.get(STORE_KEY);
  if (!queue || !store)
    throw new ClusterConfigError(
      'cluster-not-initialised',
      'This PostgreSQL database has no cluster settings yet. Run "render-desk cluster init --queue redis://… --store s3://bucket?endpoint=… (or dir:/path)" once, then start the nodes.',
    );
  return { queue, store };
}

/** The Redis URL with the password from the environment, for connecting (never logged). */
export function queueUrlWithSecret(queue: string, password: string | undefined): string {
  if (!password) return queue;
  const url = new URL(queue);
  url.password = password;
  return url.toString();
}
