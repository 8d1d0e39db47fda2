import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { migratePostgres } from '../../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../../main/data/postgres/open-postgres.js';
import { startPostgres } from './postgres-service.js';
import { startRedis } from './redis-service.js';
import { startS3 } from './s3-service.js';
import { ServiceScope } from './service-scope.js';
import { alive, type SharedServiceRecord } from './shared-services-teardown.js';

/**
 * One PostgreSQL, one Redis and one S3 server for the whole test run, started by the first test
 * file that asks for one and stopped by the run's global teardown (tests/global-setup.ts). Each
 * file still shares nothing with the others: it gets databases of its own (cloned from a
 * migrated template), a Redis database number of its own and buckets of its own.
 *
 * Files that stop, kill or restart a server, or change its configuration, start their own
 * (startPostgres, startRedis, startS3 with a file scope) as before.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where the run's shared services are recorded (tests/global-setup.ts). */
    sharedServicesDir: string;
  }
}

interface PostgresRecord extends SharedServiceRecord {
  port: number;
  user: string;
  password: string;
}

interface RedisRecord extends SharedServiceRecord {
  port: number;
}

interface S3Record extends SharedServiceRecord {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

function registryDir(): string {
  const dir = inject('sharedServicesDir');
  if (!dir || !fs.existsSync(dir))
    throw new Error(
      "The run's shared services are not set up: run the tests through the project's vitest configs (their global setup provides them).",
    );
  return dir;
}

/** A lock across the run's test processes: a folder made atomically, holding its owner's pid. */
async function withLock<T>(name: string, run: () => Promise<T>): Promise<T> {
  const lock = path.join(registryDir(), `${name}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A holder that died mid-start leaves its lock behind: take it over.
      const holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim() || '0');
      if (holder > 0 && !alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`The shared-service lock ${lock} was held too long.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await run();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The run's record of `name`, started (once) by `start` under the lock. */
async function shared<T extends SharedServiceRecord>(
  name: string,
  start: (scope: ServiceScope) => Promise<Omit<T, keyof SharedServiceRecord>>,
): Promise<T> {
  const file = path.join(registryDir(), `${name}.json`);
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  if (fs.existsSync(file)) return read();
  return withLock(name, async () => {
    if (fs.existsSync(file)) return read();
    const scope = new ServiceScope({ outlivesFile: true });
    const details = await start(scope);
    const record = { ...details, ...scope.entries() } as T;
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(record));
    fs.renameSync(`${file}.tmp`, file);
    return record;
  });
}

const MIGRATED_TEMPLATE = 'render_desk_migrated';

async function postgresRecord(): Promise<PostgresRecord> {
  return shared<PostgresRecord>('postgres', async (scope) => {
    const server = await startPostgres(scope);
    // Every file's migrated databases are copies of this one: migrated once per run.
    await withAdmin(server.port, async (admin) => {
      await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE} OWNER render`);
    });
    const pool = openPostgres(databaseUrl(server.port, 'render', 'render', MIGRATED_TEMPLATE), {
      max: 1,
    });
    try {
      await migratePostgres(pool, POSTGRES_MIGRATIONS);
    } finally {
      await closePostgres(pool);
    }
    return { port: server.port, user: 'render', password: 'render' };
  });
}

function databaseUrl(port: number, user: string, password: string, database: string): string {
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function withAdmin<T>(port: number, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
  });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

export interface SharedDatabase {
  /** The app's role on this database (owner). */
  readonly url: string;
  /** The superuser on the same database. */
  readonly adminUrl: string;
  readonly port: number;
  readonly database: string;
}

/**
 * A new database of its own on the run's PostgreSQL, owned by the app's role: empty, or (with
 * `migrated`) a copy of the template every migration has run on.
 */
export async function sharedPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<SharedDatabase> {
  const record = await postgresRecord();
  const database = `t_${process.pid}_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(record.port, async (admin) => {
    const template = options.migrated ? ` TEMPLATE ${MIGRATED_TEMPLATE}` : '';
    // Two copies of one template at the same moment may be refused while the other reads it.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${database}${template} OWNER render`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message))
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  return {
    url: databaseUrl(record.port, record.user, record.password, database),
    adminUrl: `postgres://postgres@127.0.0.1:${record.port}/${database}`,
    port: record.port,
    database,
  };
}

/** Redis databases 1..REDIS_DATABASES-1 are handed out, one per asking file. */
const REDIS_DATABASES = 256;

/** A Redis database number of its own on the run's Redis: `redis://127.0.0.1:<port>/<n>`. */
export async function sharedRedisDatabase(): Promise<{ url: string; port: number; db: number }> {
  const record = await shared<RedisRecord>('redis', async (scope) => {
    const server = await startRedis(scope, { databases: REDIS_DATABASES });
    return { port: server.port };
  });
  const db = await withLock('redis-db', async () => {
    const counter = path.join(registryDir(), 'redis-db.next');
    const next = fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 1;
    if (next >= REDIS_DATABASES)
      throw new Error(`The run's Redis has no database left (${REDIS_DATABASES}).`);
    fs.writeFileSync(counter, String(next + 1));
    return next;
  });
  return { url: `redis://127.0.0.1:${record.port}/${db}`, port: record.port, db };
}

export interface SharedBucket {
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** A new, empty bucket of its own on the run's S3 server. */
export async function sharedBucket(): Promise<SharedBucket> {
  const record = await shared<S3Record>('s3', async (scope) => {
    const server = await startS3(scope);
    return {
      endpoint: server.endpoint,
      region: server.region,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
    };
  });
  const bucket = `t-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  const client = new S3Client({
    endpoint: record.endpoint,
    region: record.region,
    forcePathStyle: true,
    credentials: { accessKeyId: record.accessKeyId, secretAccessKey: record.secretAccessKey },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return {
    endpoint: record.endpoint,
    bucket,
    region: record.region,
    accessKeyId: record.accessKeyId,
    secretAccessKey: record.secretAccessKey,
  };
}
