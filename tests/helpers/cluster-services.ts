import {
  startPostgres,
  type PostgresOptions,
  type PostgresService,
} from './services/postgres-service.js';
import { startRedis, type RedisOptions, type RedisService } from './services/redis-service.js';
import { startS3, type S3Options, type S3Service } from './services/s3-service.js';
import type { ServiceScope } from './services/service-scope.js';

/**
 * Real services for the cluster suite, each on a random loopback port in a temporary folder and
 * stopped by pid: PostgreSQL from the system's binaries, Debian's redis-server and s3rver. A file
 * takes a scope (`useServiceScope()`), whose afterAll stops everything even when a test fails.
 */
export { freePort } from './services/free-port.js';
export { findPostgresBinaries, startPostgres } from './services/postgres-service.js';
export type { PostgresOptions, PostgresService } from './services/postgres-service.js';
export { findRedisServer, startRedis } from './services/redis-service.js';
export type { RedisOptions, RedisService } from './services/redis-service.js';
export { startS3 } from './services/s3-service.js';
export type { S3Options, S3Service } from './services/s3-service.js';
export { ServiceScope, useServiceScope } from './services/service-scope.js';

export interface ClusterServices {
  postgres: PostgresService;
  redis: RedisService;
  s3: S3Service;
}

/** All three, started side by side. */
export async function startClusterServices(
  scope: ServiceScope,
  options: { postgres?: PostgresOptions; redis?: RedisOptions; s3?: S3Options } = {},
): Promise<ClusterServices> {
  const [postgres, redis, s3] = await Promise.all([
    startPostgres(scope, options.postgres),
    startRedis(scope, options.redis),
    startS3(scope, options.s3),
  ]);
  return { postgres, redis, s3 };
}
