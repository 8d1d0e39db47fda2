import { Redis } from 'ioredis';
import { ClusterConfigError } from './cluster-config-error.js';

/**
 * One ioredis connection per use (BullMQ wants its own blocking connections anyway). Commands
 * never fail fast while Redis restarts: BullMQ workers must wait for it, not crash.
 */
export function openRedis(url: string, name: string): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `render-desk-${name}`,
    // Reconnect quickly at first, then every 2 s: a restarted Redis is back within seconds.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
  });
  // Without a listener an unreachable Redis would be an unhandled 'error' event (a crash).
  redis.on('error', () => undefined);
  return redis;
}

/**
 * BullMQ only warns when Redis may evict keys; an evicted job is lost work the leader must
 * find again, and an evicted rate-limit counter lets requests through. Refuse to start instead.
 */
export async function assertNoEviction(redis: Redis): Promise<void> {
  const policy = await evictionPolicy(redis);
  if (policy !== 'noeviction') {
    throw new ClusterConfigError(
      'redis-eviction-policy',
      `Redis must run with maxmemory-policy noeviction (it has ${policy ?? 'an unknown policy'}): an evicted job or counter would be lost work. Set "maxmemory-policy noeviction" in redis.conf or with CONFIG SET, then start again.`,
    );
  }
}

/** Redis's `maxmemory-policy` (undefined when it does not say). */
export async function evictionPolicy(redis: Redis): Promise<string | undefined> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    return reply[1];
  } catch {
    // Managed Redis services often disable CONFIG; INFO says the same.
    const info = await redis.info('memory');
    return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  }
}
