import { AppError } from '../../shared/errors.js';

interface SdkErrorShape {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function shape(error: unknown): SdkErrorShape {
  const outer = (error ?? {}) as SdkErrorShape & { cause?: unknown };
  // A store error wraps the SDK's: look at what the server or the network said.
  return (outer instanceof AppError ? (outer.cause ?? {}) : outer) as SdkErrorShape;
}

/** "No such key" (GetObject's NoSuchKey; HeadObject has no body, only its 404). */
export function isNotFound(error: unknown): boolean {
  const { name, $metadata } = shape(error);
  return (
    name === 'NoSuchKey' ||
    name === 'NotFound' ||
    ($metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket')
  );
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

function isNetworkFailure(error: SdkErrorShape): boolean {
  return NETWORK_CODES.has(error.code ?? '') || error.name === 'TimeoutError';
}

/** Failures that may pass on their own: the network, the store's 5xx, throttling. */
export function isRetryable(error: unknown): boolean {
  const inner = shape(error);
  const status = inner.$metadata?.httpStatusCode ?? 0;
  return Boolean(inner.$retryable) || status >= 500 || status === 429 || isNetworkFailure(inner);
}

const CREDENTIAL_ERRORS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'Forbidden',
]);

/** Says what went wrong with a store request and what an operator can do about it. */
export function s3StoreError(
  where: string,
  operation: string,
  key: string,
  error: unknown,
): AppError {
  const inner = shape(error);
  const said = `${inner.name ?? inner.code ?? 'Error'}: ${(error as Error | undefined)?.message ?? String(error)}`;
  const status = inner.$metadata?.httpStatusCode;
  const head = `Object store ${where}: ${operation} ${key} failed (${said}).`;
  let appError: AppError;
  if (CREDENTIAL_ERRORS.has(inner.name ?? '') || status === 403) {
    appError = new AppError(
      'internal',
      `${head} The store refused the credentials: check RENDER_DESK_S3_ACCESS_KEY_ID and ` +
        'RENDER_DESK_S3_SECRET_ACCESS_KEY (or their _FILE forms) and the key’s rights on the bucket.',
    );
  } else if (inner.name === 'NoSuchBucket') {
    appError = new AppError('internal', `${head} Create the bucket, or correct the store setting.`);
  } else if (isNetworkFailure(inner)) {
    appError = new AppError(
      'service-busy',
      `${head} The store cannot be reached: check its endpoint and that it is running.`,
    );
  } else if (isRetryable(inner)) {
    appError = new AppError('service-busy', `${head} Retry; if it persists, see the store’s logs.`);
  } else {
    appError = new AppError('internal', head);
  }
  appError.cause = error;
  return appError;
}
