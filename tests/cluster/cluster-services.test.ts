import fs from 'node:fs';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  ServiceScope,
  startPostgres,
  startRedis,
  startS3,
  useServiceScope,
} from '../helpers/cluster-services.js';

const scope = useServiceScope();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

describe('cluster test services', () => {
  it('runs PostgreSQL on 127.0.0.1 for the app role, keeps committed rows through SIGKILL and restart, and leaves no process', async () => {
    const postgres = await startPostgres(scope);
    expect(postgres.url).toBe(`postgres://render:render@127.0.0.1:${postgres.port}/render_desk`);
    await query(postgres.url, 'CREATE TABLE probe (id integer PRIMARY KEY, label text NOT NULL)');
    await query(postgres.url, "INSERT INTO probe VALUES (1, 'first'), (2, 'second')");
    expect(await query(postgres.url, 'SELECT id, label FROM probe ORDER BY id')).toEqual([
      { id: 1, label: 'first' },
      { id: 2, label: 'second' },
    ]);
    const [settings] = await query<{ user: string; listen: string; fsync: string }>(
      postgres.url,
      "SELECT current_user AS user, current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync",
    );
    expect(settings).toEqual({ user: 'render', listen: '127.0.0.1', fsync: 'on' });

    const crashed = postgres.pid;
    postgres.kill('SIGKILL');
    await expect.poll(() => isAlive(crashed), { timeout: 10_000 }).toBe(false);
    await postgres.restart();
    expect(postgres.pid).not.toBe(crashed);
    expect(await query(postgres.url, 'SELECT count(*)::int AS n FROM probe')).toEqual([{ n: 2 }]);

    const pid = postgres.pid;
    await postgres.stop();
    expect(isAlive(pid)).toBe(false);
    await expect(query(postgres.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('runs Redis with noeviction and an AOF that survives SIGKILL, and restarts it empty on request', async () => {
    const redis = await startRedis(scope);
    await withRedis(redis.url, async (client) => {
      expect(await client.set('render-desk:probe', 'kept')).toBe('OK');
      expect(await client.get('render-desk:probe')).toBe('kept');
      expect(await client.config('GET', 'maxmemory-policy')).toEqual([
        'maxmemory-policy',
        'noeviction',
      ]);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    });

    const crashed = redis.pid;
    redis.kill('SIGKILL');
    await expect.poll(() => isAlive(crashed), { timeout: 10_000 }).toBe(false);
    await redis.restart();
    expect(await withRedis(redis.url, (client) => client.get('render-desk:probe'))).toBe('kept');

    await redis.restart({ empty: true });
    expect(await withRedis(redis.url, (client) => client.get('render-desk:probe'))).toBeNull();
    expect(await withRedis(redis.url, (client) => client.dbsize())).toBe(0);

    const pid = redis.pid;
    await redis.stop();
    expect(isAlive(pid)).toBe(false);
  });

  it('starts Redis with another eviction policy when asked (for the refusal test)', async () => {
    const redis = await startRedis(scope, { maxmemoryPolicy: 'allkeys-lru' });
    const policy = await withRedis(redis.url, (client) => client.config('GET', 'maxmemory-policy'));
    expect(policy).toEqual(['maxmemory-policy', 'allkeys-lru']);
    await redis.stop();
  });

  it('serves an S3 API with its bucket ready: put, get, list in pages, delete, and no process once stopped', async () => {
    const s3 = await startS3(scope, { buckets: ['render-desk', 'second-bucket'] });
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    try {
      const bytes = Buffer.from('round trip through s3rver');
      for (const key of ['probe/a.txt', 'probe/b.txt']) {
        await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: bytes }));
      }
      const got = await client.send(
        new GetObjectCommand({ Bucket: s3.bucket, Key: 'probe/a.txt' }),
      );
      expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(bytes);

      // A truncated page needs s3rver's continuation token (the legacy OpenSSL provider).
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'probe/', MaxKeys: 1 }),
      );
      expect(page.Contents?.map((item) => item.Key)).toEqual(['probe/a.txt']);
      expect(page.IsTruncated).toBe(true);
      const rest = await client.send(
        new ListObjectsV2Command({
          Bucket: s3.bucket,
          Prefix: 'probe/',
          ContinuationToken: page.NextContinuationToken,
        }),
      );
      expect(rest.Contents?.map((item) => item.Key)).toEqual(['probe/b.txt']);

      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'probe/a.txt' }));
      const after = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'probe/' }),
      );
      expect(after.Contents?.map((item) => item.Key)).toEqual(['probe/b.txt']);
      const second = await client.send(new ListObjectsV2Command({ Bucket: 'second-bucket' }));
      expect(second.KeyCount).toBe(0);
    } finally {
      client.destroy();
    }
    await s3.stop();
    expect(isAlive(s3.pid)).toBe(false);
  });

  it('reports a service that dies on its own with its log, and removes every folder it made', async () => {
    const local = new ServiceScope();
    const redis = await startRedis(local);
    expect(fs.existsSync(redis.dir)).toBe(true);
    // Not through redis.kill(): this is a crash nobody asked for.
    process.kill(redis.pid, 'SIGKILL');
    await expect.poll(() => isAlive(redis.pid), { timeout: 10_000 }).toBe(false);
    await expect(local.stopAll()).rejects.toThrow(
      new RegExp(`Redis \\(pid ${redis.pid}\\) exited unexpectedly[^]*Ready to accept connections`),
    );
    expect(fs.existsSync(redis.dir)).toBe(false);
  });
});
