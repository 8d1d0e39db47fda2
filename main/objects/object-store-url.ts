import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { FolderObjectStore } from './folder-object-store.js';
import type { ObjectStore } from './object-store.js';
import { DEFAULT_S3_REGION, S3ObjectStore, type S3Credentials } from './s3-object-store.js';

/**
 * The object-store setting as `render-desk cluster init --store` takes it and the cluster
 * settings keep it: `s3://bucket?endpoint=http://127.0.0.1:9000&region=eu-west-1` or
 * `dir:/shared/render-desk`. It never holds a secret: S3 credentials come from the environment.
 */
export type ObjectStoreConfig =
  { kind: 'dir'; root: string } | { kind: 's3'; bucket: string; endpoint?: string; region: string };

const S3_PARAMETERS = new Set(['endpoint', 'region']);

/** Bucket names as S3 allows them (3–63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function refuse(setting: string, reason: string): never {
  throw new AppError(
    'validation-failed',
    `The object store "${redact(setting)}" cannot be used: ${reason} ` +
      'Use s3://bucket?endpoint=http://host:port&region=… or dir:/absolute/folder.',
  );
}

/** Hides anything that looks like credentials before a setting is echoed in an error. */
function redact(setting: string): string {
  return setting.replace(/\/\/[^/@]*@/, '//…@');
}

export function parseObjectStoreUrl(setting: string): ObjectStoreConfig {
  const value = setting.trim();
  if (value.startsWith('dir:')) {
    const root = value.slice('dir:'.length);
    if (!path.isAbsolute(root)) refuse(value, 'the folder must be an absolute path.');
    return { kind: 'dir', root: path.resolve(root) };
  }
  if (!value.startsWith('s3://')) refuse(value, 'it is neither s3:// nor dir:.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    refuse(value, 'it is not a valid URL.');
  }
  if (url.username || url.password) {
    refuse(
      value,
      'credentials never go in the setting (command lines and settings are visible to others); ' +
        'set RENDER_DESK_S3_ACCESS_KEY_ID and RENDER_DESK_S3_SECRET_ACCESS_KEY instead.',
    );
  }
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) refuse(value, `"${bucket}" is not a valid bucket name.`);
  if (url.port) refuse(value, 'a port belongs in the endpoint parameter, not after the bucket.');
  if (url.pathname !== '' && url.pathname !== '/') {
    refuse(value, 'keys go at the top of the bucket; give the deployment a bucket of its own.');
  }
  for (const name of url.searchParams.keys()) {
    if (!S3_PARAMETERS.has(name)) {
      refuse(value, `unknown parameter "${name}" (known: ${[...S3_PARAMETERS].join(', ')}).`);
    }
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) checkEndpoint(value, endpoint);
  const region = url.searchParams.get('region') || DEFAULT_S3_REGION;
  return { kind: 's3', bucket, region, ...(endpoint ? { endpoint } : {}) };
}

function checkEndpoint(setting: string, endpoint: string): void {
  let parsed: URL;
  try {
    parsed = new URL(endpoint);
  } catch {
    refuse(setting, `the endpoint "${endpoint}" is not a URL (e.g. http://127.0.0.1:9000).`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    refuse(setting, `the endpoint must be http:// or https:// (got ${parsed.protocol}).`);
  }
  if (parsed.username || parsed.password) {
    refuse(setting, 'the endpoint must not carry credentials; use the environment.');
  }
}

/** The canonical spelling of a config, as the cluster settings store it. */
export function formatObjectStoreUrl(config: ObjectStoreConfig): string {
  if (config.kind === 'dir') return `dir:${config.root}`;
  const query = new URLSearchParams();
  if (config.endpoint) query.set('endpoint', config.endpoint);
  query.set('region', config.region);
  return `s3://${config.bucket}?${query.toString()}`;
}

/** Opens the configured store; S3 credentials come from `env` (see s3CredentialsFromEnv). */
export async function createObjectStore(
  config: ObjectStoreConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ObjectStore> {
  if (config.kind === 'dir') return FolderObjectStore.open(config.root);
  return new S3ObjectStore({
    bucket: config.bucket,
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    credentials: s3CredentialsFromEnv(env),
  });
}

const ACCESS_KEY = 'RENDER_DESK_S3_ACCESS_KEY_ID';
const SECRET_KEY = 'RENDER_DESK_S3_SECRET_ACCESS_KEY';

/**
 * `RENDER_DESK_S3_ACCESS_KEY_ID` / `RENDER_DESK_S3_SECRET_ACCESS_KEY`, or files named by the
 * same names with `_FILE` (container secrets), else the standard `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`). Never from the command line.
 */
export function s3CredentialsFromEnv(env: NodeJS.ProcessEnv): S3Credentials {
  const accessKeyId = readSecret(env, ACCESS_KEY);
  const secretAccessKey = readSecret(env, SECRET_KEY);
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    if (accessKeyId === undefined || secretAccessKey === undefined) {
      throw new AppError(
        'validation-failed',
        `S3 credentials are incomplete: set both ${ACCESS_KEY} and ${SECRET_KEY} ` +
          '(or their _FILE forms).',
      );
    }
    return { accessKeyId, secretAccessKey };
  }
  const awsKey = env.AWS_ACCESS_KEY_ID;
  const awsSecret = env.AWS_SECRET_ACCESS_KEY;
  if (awsKey && awsSecret) {
    return {
      accessKeyId: awsKey,
      secretAccessKey: awsSecret,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  }
  throw new AppError(
    'validation-failed',
    `The S3 object store needs credentials: set ${ACCESS_KEY} and ${SECRET_KEY}, ` +
      `or ${ACCESS_KEY}_FILE and ${SECRET_KEY}_FILE naming files that hold them, ` +
      'or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
  );
}

function readSecret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct && file) {
    throw new AppError('validation-failed', `Set ${name} or ${name}_FILE, not both.`);
  }
  if (direct) return direct;
  if (!file) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError(
      'validation-failed',
      `${name}_FILE names ${file}, which cannot be read ` +
        `(${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  // Secret files usually end with a newline that is not part of the secret.
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '')
    throw new AppError('validation-failed', `${name}_FILE names an empty file, ${file}.`);
  return secret;
}
