import fs from 'node:fs';
import { Readable, Transform, pipeline } from 'node:stream';
import { AppError } from '../../shared/errors.js';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type DeleteObjectsCommandOutput,
} from '@aws-sdk/client-s3';
import { assertFolderPrefix, assertObjectKey, assertObjectPrefix } from './object-key.js';
import type {
  ListOptions,
  ObjectHead,
  ObjectListing,
  ObjectStore,
  PutOptions,
  PutStreamOptions,
} from './object-store.js';
import { MAX_LIST_LIMIT, listLimit } from './object-store.js';
import { isNotFound, isRetryable, s3StoreError } from './s3-errors.js';
import { putInParts, SINGLE_PUT_LIMIT } from './s3-multipart.js';
import { listedSizes } from './object-sizes.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3ObjectStoreOptions {
  bucket: string;
  /** e.g. `http://127.0.0.1:9000`; AWS's own endpoint when absent. */
  endpoint?: string;
  region?: string;
  credentials: S3Credentials;
  maxAttempts?: number;
}

export const DEFAULT_S3_REGION = 'us-east-1';

/**
 * Objects in an S3-compatible bucket. Path-style addressing and checksums only where the API
 * requires them (DeleteObjects), so Garage, SeaweedFS, MinIO, R2 and s3rver accept the requests
 * as AWS does: by default newer SDKs send streamed bodies aws-chunked with a CRC trailer, which
 * such stores reject or, like s3rver, store verbatim as the object's bytes.
 * A PutObject replaces the whole object at once, which gives the atomic write the interface asks.
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly where: string;
  /** Stores without multi-object delete answer it with 501 or 405; they get single deletes. */
  private multiDelete = true;

  constructor(options: S3ObjectStoreOptions) {
    const region = options.region ?? DEFAULT_S3_REGION;
    this.bucket = options.bucket;
    this.where = `s3://${options.bucket} (${options.endpoint ?? 'AWS'}, region ${region})`;
    this.client = new S3Client({
      region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: true,
      credentials: options.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: options.maxAttempts ?? 3,
      // Each command's middleware is resolved once, not on every request: a bundle sends a GET
      // per output, and this took ~15 % of the SDK's CPU per GET against s3rver.
      cacheMiddleware: true,
      // requestTimeout is the socket's idle time, not a cap on a long transfer.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    });
  }

  describe(): string {
    return this.where;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  async put(key: string, bytes: Uint8Array, options?: PutOptions): Promise<void> {
    assertObjectKey(key);
    await this.send('PutObject', key, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ...(options?.contentType ? { ContentType: options.contentType } : {}),
        }),
      ),
    );
  }

  async putFile(key: string, localPath: string, options?: PutOptions): Promise<void> {
    assertObjectKey(key);
    const { size } = await fs.promises.stat(localPath);
    // The SDK does not retry a request whose body is a stream (it was read); a file can be
    // opened again, so failures that may pass are retried here with a fresh stream.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.putStream(key, fs.createReadStream(localPath), { ...options, size });
        return;
      } catch (error) {
        if (attempt >= 3 || !isRetryable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  async putStream(key: string, source: Readable, options?: PutStreamOptions): Promise<void> {
    assertObjectKey(key);
    const size = options?.size;
    if (size === undefined || size > SINGLE_PUT_LIMIT) {
      await this.send('multipart upload', key, () =>
        putInParts(this.client, this.bucket, key, source, options),
      );
      return;
    }
    // The SDK pipes a stream body into the request without watching it for errors: a source
    // that fails or ends short would leave the request waiting for the rest. Such a failure
    // aborts the request instead, and is what the caller sees.
    const abort = new AbortController();
    let failure: Error | undefined;
    const body = pipeline(source, exactLength(key, size), (error) => {
      if (error) {
        failure = error;
        abort.abort();
      }
    });
    try {
      await this.send('PutObject', key, () =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: body,
            ContentLength: size,
            ...(options?.contentType ? { ContentType: options.contentType } : {}),
          }),
          { abortSignal: abort.signal },
        ),
      );
    } catch (error) {
      throw failure ?? error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.getStream(key);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getStream(key: string): Promise<Readable | null> {
    assertObjectKey(key);
    const response = await this.send('GetObject', key, () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })),
    );
    if (!response) return null;
    // Under Node the body is the HTTP response itself: reading it streams from the socket.
    if (!(response.Body instanceof Readable)) {
      throw s3StoreError(this.where, 'GetObject', key, new Error('the body is not a stream'));
    }
    return response.Body;
  }

  async head(key: string): Promise<ObjectHead | null> {
    assertObjectKey(key);
    const response = await this.send('HeadObject', key, () =>
      this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })),
    );
    return response ? { size: response.ContentLength ?? 0 } : null;
  }

  /**
   * From listings of the folder: a bundle of 10,000 outputs is planned with 10 requests instead
   * of 10,000 HEADs, each of which cost the SDK and the store about as much as the GET that
   * follows it.
   */
  async sizes(folder: string, keys: readonly string[]): Promise<(number | null)[]> {
    return listedSizes(this, folder, keys);
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.send('DeleteObject', key, () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertFolderPrefix(prefix);
    let deleted = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.list(prefix, { ...(after ? { after } : {}), limit: MAX_LIST_LIMIT });
      const keys = page.entries.map((entry) => entry.key);
      if (keys.length > 0) await this.deleteKeys(prefix, keys);
      deleted += keys.length;
      if (page.next === null) return deleted;
      after = page.next;
    }
  }

  async list(prefix: string, options?: ListOptions): Promise<ObjectListing> {
    assertObjectPrefix(prefix);
    const limit = listLimit(options);
    // StartAfter rather than continuation tokens: any page can be resumed from its last key,
    // which is what GC keeps between runs.
    const response = await this.send('ListObjectsV2', prefix, () =>
      this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: limit,
          ...(options?.after ? { StartAfter: options.after } : {}),
        }),
      ),
    );
    const entries = (response?.Contents ?? []).flatMap((item) =>
      item.Key ? [{ key: item.Key, size: item.Size ?? 0 }] : [],
    );
    const last = entries[entries.length - 1];
    return { entries, next: response?.IsTruncated && last ? last.key : null };
  }

  private async deleteKeys(prefix: string, keys: string[]): Promise<void> {
    if (this.multiDelete) {
      let response: DeleteObjectsCommandOutput | undefined;
      try {
        response = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        if (status !== 501 && status !== 405) {
          throw s3StoreError(this.where, 'DeleteObjects', prefix, error);
        }
        this.multiDelete = false;
      }
      const failure = response?.Errors?.[0];
      if (failure) {
        const said = Object.assign(new Error(failure.Message ?? 'refused'), {
          name: failure.Code ?? 'DeleteError',
        });
        throw s3StoreError(this.where, 'DeleteObjects', failure.Key ?? prefix, said);
      }
      if (response) return;
    }
    for (const key of keys) await this.delete(key);
  }

  /**
   * Runs one request and turns failures into actionable AppErrors. Only reads turn "no such
   * key" into null: a 404 on a write (NoSuchUpload, say) must not pass for success.
   */
  private async send<T>(operation: string, key: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      const isRead = operation === 'GetObject' || operation === 'HeadObject';
      if (isRead && isNotFound(error)) return null;
      throw s3StoreError(this.where, operation, key, error);
    }
  }
}

/** Passes a stream through, failing it when it yields more or fewer than `size` bytes. */
function exactLength(key: string, size: number): Transform {
  let seen = 0;
  const wrong = () =>
    new AppError(
      'validation-failed',
      seen > size
        ? `The upload of ${key} is longer than its announced ${size} bytes.`
        : `The upload of ${key} ended after ${seen} of ${size} bytes.`,
    );
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? wrong() : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : wrong());
    },
  });
}
