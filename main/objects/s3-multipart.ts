import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';

/** S3's cap on one PutObject; larger objects must go in parts. */
export const SINGLE_PUT_LIMIT = 5 * 1024 ** 3;

/**
 * 8 MiB parts: above S3's 5 MiB minimum, small enough that memory stays bounded, and 10,000 parts
 * (S3's maximum) still allow 80 GiB.
 */
export const PART_SIZE = 8 * 1024 * 1024;

/**
 * Uploads a stream of unknown (or more than single-put) size in parts, holding at most two parts
 * in memory. A stream shorter than one part becomes one PutObject. Parts are buffers, so the SDK
 * can retry each one; a failed upload is aborted so the store does not keep its parts.
 */
export async function putInParts(
  client: S3Client,
  bucket: string,
  key: string,
  source: Readable,
  contentType: string | undefined,
): Promise<void> {
  const type = contentType ? { ContentType: contentType } : {};
  const parts = readParts(source, PART_SIZE)[Symbol.asyncIterator]();
  const first = await parts.next();
  let pending = await parts.next();
  if (pending.done) {
    const body = first.done ? Buffer.alloc(0) : first.value;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...type }));
    return;
  }
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...type }),
  );
  try {
    const completed: CompletedPart[] = [];
    let body: Buffer | undefined = first.done ? undefined : first.value;
    while (body) {
      const PartNumber = completed.length + 1;
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body }),
      );
      completed.push({ PartNumber, ETag });
      body = pending.done ? undefined : pending.value;
      if (body) pending = await parts.next();
    }
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: completed },
      }),
    );
  } catch (error) {
    await client
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }))
      .catch(() => undefined);
    throw error;
  }
}

/** Cuts a stream into buffers of exactly `size` bytes (the last one shorter). */
export async function* readParts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    let rest = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    while (length + rest.length >= size) {
      const take = size - length;
      chunks.push(rest.subarray(0, take));
      yield Buffer.concat(chunks);
      chunks = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      chunks.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(chunks);
}
