/**
 * Creates the cluster's bucket if it does not exist yet, then writes, reads back and deletes a
 * probe object through the same store code the nodes use, so wrong credentials, a missing bucket
 * or a store that rejects the requests show up here, once, instead of on every worker.
 *
 *   node --import tsx deploy/create-bucket.ts 's3://renders?endpoint=http://seaweedfs:8333&region=us-east-1'
 *
 * Credentials come from the environment exactly as on a node: RENDER_DESK_S3_ACCESS_KEY_ID and
 * RENDER_DESK_S3_SECRET_ACCESS_KEY (or their _FILE forms), else AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY. A `dir:` store only has its folder checked. Safe to run again.
 */
import crypto from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  createObjectStore,
  parseObjectStoreUrl,
  s3CredentialsFromEnv,
} from '../main/objects/object-store-url.js';

/** The store may still be starting (a filer behind the S3 gateway): retry for about a minute. */
const ATTEMPTS = 30;
const PAUSE_MS = 2000;

async function createBucket(bucket: string, endpoint: string | undefined, region: string) {
  const client = new S3Client({
    region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: true,
    credentials: s3CredentialsFromEnv(process.env),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        console.log(`created bucket ${bucket}`);
        return;
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') {
          console.log(`bucket ${bucket} exists`);
          return;
        }
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        const passing = status === undefined || status >= 500 || status === 429;
        if (!passing || attempt >= ATTEMPTS) throw error;
        console.log(`the store is not ready (${name || String(error)}); retrying`);
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }
  } finally {
    client.destroy();
  }
}

async function main(): Promise<void> {
  const setting = process.argv[2];
  if (!setting) {
    console.error('usage: create-bucket.ts <s3://bucket?endpoint=…&region=… | dir:/folder>');
    process.exit(2);
  }
  const config = parseObjectStoreUrl(setting);
  if (config.kind === 's3') await createBucket(config.bucket, config.endpoint, config.region);
  const store = await createObjectStore(config);
  try {
    const key = `deploy-probe/${crypto.randomUUID()}`;
    const bytes = crypto.randomBytes(1024);
    await store.put(key, bytes, { contentType: 'application/octet-stream' });
    const back = await store.get(key);
    await store.delete(key);
    if (!back || !back.equals(bytes))
      throw new Error(`${store.describe()} returned other bytes than were written`);
    console.log(`${store.describe()}: write, read and delete work`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(`create-bucket: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
});
