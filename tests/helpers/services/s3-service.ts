import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { makeServiceDir } from './service-dir.js';
import { ServiceProcess, waitUntilReady } from './service-process.js';
import type { ServiceScope } from './service-scope.js';

export interface S3Service {
  /** `http://127.0.0.1:<port>`, addressed path-style. */
  readonly endpoint: string;
  /** The first bucket; all of them exist from the start. */
  readonly bucket: string;
  readonly buckets: readonly string[];
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly pid: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface S3Options {
  buckets?: string[];
}

function s3rverScript(): string {
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  } catch {
    throw new Error(
      's3rver is missing from node_modules: it is a devDependency of this project; run npm ci.',
    );
  }
}

/**
 * s3rver (an S3 API over a folder, from npm) as a child process, so it can be stopped by pid and
 * its work does not load the test process. It takes port 0 and prints the port it got, so no
 * other process can take the port in between.
 *
 * Gaps of s3rver 3.7 met by the object-store tests, and what is done about them:
 * - Listings go folder by folder in file-name order, not in S3's byte order of whole keys:
 *   "bat_x/0.png" comes before "bat_x-1.png". Within one folder the order is right, which is
 *   what paging through a batch's outputs needs; the cross-folder order is checked on the
 *   folder store only.
 * - An upload cut short (aborted request) leaves the partial object behind; S3 keeps nothing.
 * - ListObjectsV2 continuation tokens are DES-encrypted; OpenSSL 3 (Node ≥ 17) has DES only in
 *   its legacy provider, so any truncated listing answers 500 unless the server runs with
 *   --openssl-legacy-provider, as here.
 * - PutObject writes straight into the object's file and answers before that file is complete:
 *   concurrent puts of one key can interleave and a reader can see a partial object. Real S3
 *   (and Garage, SeaweedFS, MinIO) replace objects atomically; the contract test checks
 *   concurrent different-bytes puts on the folder store only (see tests/objects).
 * - DeleteObjects deletes its keys in parallel and then removes empty folders; two deletes that
 *   empty a folder race on that and one answers 500 (ENOENT). The SDK retries the request and
 *   the retry succeeds (deleting what exists is idempotent).
 * - It refuses an unknown access key (InvalidAccessKeyId) but accepts any secret for its own
 *   key S3RVER, so a wrong secret cannot be tested against it.
 * - It does not understand aws-chunked bodies: with the SDK's default checksum mode, a streamed
 *   PutObject is sent in chunks with a CRC32 trailer, and s3rver stores the framing
 *   ("5\r\nhello\r\n0\r\nx-amz-checksum-crc32:…") as the object. The S3 store computes checksums
 *   only when an operation requires them, as Garage, SeaweedFS and R2 also need.
 * - Multipart uploads, Content-Type, HeadObject and 404 NoSuchKey behave as S3's.
 */
export async function startS3(scope: ServiceScope, options: S3Options = {}): Promise<S3Service> {
  const buckets = options.buckets ?? ['render-desk'];
  const first = buckets[0];
  if (!first) throw new Error('startS3 needs at least one bucket.');
  const base = scope.trackDir(makeServiceDir('s3'));
  const dataDir = path.join(base, 'data');
  const logFile = path.join(base, 's3rver.log');
  fs.mkdirSync(dataDir);
  const server = scope.track(
    ServiceProcess.start({
      name: 's3rver',
      command: process.execPath,
      args: [
        '--openssl-legacy-provider',
        s3rverScript(),
        '--directory',
        dataDir,
        '--address',
        '127.0.0.1',
        '--port',
        '0',
        '--silent',
        '--no-vhost-buckets',
        ...buckets.flatMap((bucket) => ['--configure-bucket', bucket]),
      ],
      cwd: base,
      logFile,
    }),
  );
  let port = 0;
  await waitUntilReady(server, async () => {
    const match = /S3rver listening on 127\.0\.0\.1:(\d+)/.exec(fs.readFileSync(logFile, 'utf8'));
    port = match?.[1] ? Number(match[1]) : 0;
    return port > 0;
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: first,
    buckets,
    region: 'us-east-1',
    // s3rver's fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    pid: server.pid,
    dataDir,
    stop: () => server.stop('SIGTERM'),
  };
}
