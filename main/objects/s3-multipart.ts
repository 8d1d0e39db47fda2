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

/** 8 MiB parts: above S3's 5 MiB minimum and small enough that memory stays bounded. */
export const PART_SIZE = 8 * 1024 * 1024;

/**
 * Uploads a stream of unknown (or more than single-put) size in parts, holding one part in
 * memory (each part is sent before the next is read). A stream shorter than one part becomes one PutObject. Parts are buffers, so
 * the SDK can retry each one; a failed upload is aborted so the store does not keep its parts.
 */
export async function putInParts(
  client: S3Client,
  bucket: string,
  key: string,
  source: Readable,
  options: { contentType?: string; size?: number } = {},
): Promise<void> {
  const type = options.contentType ? { ContentType: options.contentType } : {};
  // Past 80 GiB the parts grow, to stay within S3's 10,000.
  const partSize = Math.max(PART_SIZE, Math.ceil((options.size ?? 0) / 9_000));
  const parts = readParts(source, partSize)[Symbol.asyncIterator]();
  const first = await parts.next();
  if (first.done || first.value.length < partSize) {
    const body = first.done ? Buffer.alloc(0) : first.value;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...type }));
    return;
  }
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...type }),
  );
  try {
    const completed: CompletedPart[] = [];
    for (let part: IteratorResult<Buffer> = first; !part.done; part = await parts.next()) {
      const PartNumber = completed.length + 1;
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: part.value }),
      );
      completed.push({ PartNumber, ETag });
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

/**
 * Cuts a stream into parts of exactly `size` bytes (the last one shorter), all in one buffer
 * reused from part to part: the caller is done with a part before it asks for the next one.
 * Reusing it keeps memory at one part, where a fresh 8 MiB buffer per part would leave the
 * allocator holding several.
 */
export async function* readParts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let part: Buffer | undefined;
  let filled = 0;
  for await (const chunk of source) {
    let rest = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    part ??= Buffer.allocUnsafe(size);
    while (rest.length > 0) {
      const take = Math.min(size - filled, rest.length);
      rest.copy(part, filled, 0, take);
      filled += take;
      rest = rest.subarray(take);
      if (filled === size) {
        yield part;
        filled = 0;
      }
    }
  }
  if (part && filled > 0) yield part.subarray(0, filled);
}
