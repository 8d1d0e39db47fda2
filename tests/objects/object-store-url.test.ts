import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createObjectStore,
  formatObjectStoreUrl,
  parseObjectStoreUrl,
  s3CredentialsFromEnv,
} from '../../main/objects/object-store-url.js';
import { sharedBucket } from '../helpers/services/shared-services.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-store-url-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the --store setting', () => {
  it('reads an S3 bucket with its endpoint and region, defaulting the region to us-east-1', () => {
    expect(
      parseObjectStoreUrl('s3://render-out?endpoint=http://127.0.0.1:9000&region=garage'),
    ).toEqual({
      kind: 's3',
      bucket: 'render-out',
      endpoint: 'http://127.0.0.1:9000',
      region: 'garage',
    });
    expect(parseObjectStoreUrl('s3://render.out-2')).toEqual({
      kind: 's3',
      bucket: 'render.out-2',
      region: 'us-east-1',
    });
  });

  it('reads a folder given by an absolute path', () => {
    expect(parseObjectStoreUrl('dir:/srv/render-desk/objects')).toEqual({
      kind: 'dir',
      root: '/srv/render-desk/objects',
    });
  });

  it('writes a config back as a setting that reads the same', () => {
    for (const setting of [
      's3://render-out?endpoint=http://127.0.0.1:9000&region=eu-west-1',
      's3://render-out',
      'dir:/srv/objects',
    ]) {
      const config = parseObjectStoreUrl(setting);
      expect(parseObjectStoreUrl(formatObjectStoreUrl(config))).toEqual(config);
    }
  });

  it.each([
    ['dir:objects', /absolute path/],
    ['ftp://bucket', /neither s3:\/\/ nor dir:/],
    ['s3://Bad_Bucket', /not a valid bucket name/],
    ['s3://bucket:9000', /port belongs in the endpoint/],
    ['s3://bucket/some/prefix', /bucket of its own/],
    ['s3://bucket?endpoint=ftp://host', /http:\/\/ or https:\/\//],
    ['s3://bucket?endpoint=not a url', /not a URL/],
    ['s3://bucket?pathStyle=false', /unknown parameter "pathStyle"/],
  ])('refuses %s, saying why', (setting, reason) => {
    expect(() => parseObjectStoreUrl(setting)).toThrow(reason);
  });

  it('refuses credentials in the setting without repeating them', () => {
    let message = '';
    try {
      parseObjectStoreUrl('s3://AKIAEXAMPLE:hunter2secret@bucket?endpoint=http://127.0.0.1:9000');
    } catch (error) {
      expect(error).toMatchObject({ code: 'validation-failed' });
      message = (error as Error).message;
    }
    expect(message).toMatch(/RENDER_DESK_S3_ACCESS_KEY_ID/);
    expect(message).not.toMatch(/hunter2secret|AKIAEXAMPLE/);
  });
});

describe('S3 credentials', () => {
  it('come from RENDER_DESK_S3_* first, then from AWS_*', () => {
    expect(
      s3CredentialsFromEnv({
        RENDER_DESK_S3_ACCESS_KEY_ID: 'rd-key',
        RENDER_DESK_S3_SECRET_ACCESS_KEY: 'rd-secret',
        AWS_ACCESS_KEY_ID: 'aws-key',
        AWS_SECRET_ACCESS_KEY: 'aws-secret',
      }),
    ).toEqual({ accessKeyId: 'rd-key', secretAccessKey: 'rd-secret' });
    expect(
      s3CredentialsFromEnv({
        AWS_ACCESS_KEY_ID: 'aws-key',
        AWS_SECRET_ACCESS_KEY: 'aws-secret',
        AWS_SESSION_TOKEN: 'aws-token',
      }),
    ).toEqual({ accessKeyId: 'aws-key', secretAccessKey: 'aws-secret', sessionToken: 'aws-token' });
  });

  it('come from files named by the _FILE variables, without their final newline', () => {
    const keyFile = path.join(scratch, 'access-key');
    const secretFile = path.join(scratch, 'secret-key');
    fs.writeFileSync(keyFile, 'file-key\n');
    fs.writeFileSync(secretFile, 'file-secret\r\n');
    expect(
      s3CredentialsFromEnv({
        RENDER_DESK_S3_ACCESS_KEY_ID_FILE: keyFile,
        RENDER_DESK_S3_SECRET_ACCESS_KEY_FILE: secretFile,
      }),
    ).toEqual({ accessKeyId: 'file-key', secretAccessKey: 'file-secret' });
  });

  it.each([
    [
      {},
      /needs credentials: set RENDER_DESK_S3_ACCESS_KEY_ID and RENDER_DESK_S3_SECRET_ACCESS_KEY/,
    ],
    [{ RENDER_DESK_S3_ACCESS_KEY_ID: 'only-key' }, /incomplete/],
    [
      {
        RENDER_DESK_S3_ACCESS_KEY_ID: 'key',
        RENDER_DESK_S3_ACCESS_KEY_ID_FILE: '/x',
        RENDER_DESK_S3_SECRET_ACCESS_KEY: 's',
      },
      /not both/,
    ],
    [
      {
        RENDER_DESK_S3_ACCESS_KEY_ID: 'key',
        RENDER_DESK_S3_SECRET_ACCESS_KEY_FILE: '/nonexistent/secret',
      },
      /\/nonexistent\/secret, which cannot be read \(ENOENT\)/,
    ],
  ])('are refused when incomplete or unreadable (%o)', (env, reason) => {
    expect(() => s3CredentialsFromEnv(env)).toThrow(reason);
  });
});

describe('createObjectStore', () => {
  it('opens a folder store on an existing folder and refuses a missing one', async () => {
    const store = await createObjectStore(parseObjectStoreUrl(`dir:${scratch}`));
    expect(store.describe()).toBe(`dir:${scratch}`);
    await store.put('probe/a.txt', Buffer.from('a'));
    expect(fs.readFileSync(path.join(scratch, 'probe', 'a.txt'), 'utf8')).toBe('a');
    await expect(
      createObjectStore(parseObjectStoreUrl(`dir:${scratch}/not-mounted`)),
    ).rejects.toThrow(/not-mounted cannot be used \(ENOENT\): create it, or mount/);
  });

  it('opens an S3 store with credentials from the environment and never describes them', async () => {
    const s3 = await sharedBucket();
    const store = await createObjectStore(
      parseObjectStoreUrl(`s3://${s3.bucket}?endpoint=${s3.endpoint}`),
      {
        RENDER_DESK_S3_ACCESS_KEY_ID: s3.accessKeyId,
        RENDER_DESK_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      },
    );
    try {
      expect(store.describe()).toBe(`s3://${s3.bucket} (${s3.endpoint}, region us-east-1)`);
      await store.put('probe/b.txt', Buffer.from('through the factory'));
      expect((await store.get('probe/b.txt'))?.toString()).toBe('through the factory');
    } finally {
      await store.close();
    }
    // s3rver knows one access key (it does not check the secret): another key is refused.
    const stranger = await createObjectStore(
      parseObjectStoreUrl(`s3://${s3.bucket}?endpoint=${s3.endpoint}`),
      { AWS_ACCESS_KEY_ID: 'a-key-id', AWS_SECRET_ACCESS_KEY: 'a-very-secret-value' },
    );
    const noBucket = await createObjectStore(
      parseObjectStoreUrl(`s3://no-such-bucket?endpoint=${s3.endpoint}`),
      { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey },
    );
    try {
      expect(stranger.describe()).not.toMatch(/a-key-id|a-very-secret-value/);
      const refused = await stranger.put('probe/c.txt', Buffer.from('x')).catch((error) => error);
      expect(refused).toMatchObject({ code: 'internal' });
      expect(refused.message).toMatch(
        /InvalidAccessKeyId.*refused the credentials: check RENDER_DESK_S3_ACCESS_KEY_ID/,
      );
      expect(refused.message).not.toMatch(/a-very-secret-value/);
      const missing = await noBucket.put('probe/c.txt', Buffer.from('x')).catch((error) => error);
      expect(missing).toMatchObject({ code: 'internal' });
      expect(missing.message).toMatch(
        /NoSuchBucket.*Create the bucket, or correct the store setting/,
      );
    } finally {
      await stranger.close();
      await noBucket.close();
    }
  });
});
