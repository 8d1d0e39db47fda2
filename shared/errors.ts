/**
 * One catalogue of coded errors (DESIGN §4). Every error the API returns has a stable `code`, an
 * HTTP status and a message a person can act on; the server turns them into problem+json.
 */

export const ERROR_CATALOGUE = {
  'malformed-json': { status: 400, title: 'The request body is not valid JSON' },
  'bad-request': { status: 400, title: 'The request is malformed' },
  'invalid-idempotency-key': { status: 400, title: 'The Idempotency-Key header is invalid' },
  'missing-host': { status: 400, title: 'The Host header is missing or repeated' },
  'json-too-deep': { status: 400, title: 'The JSON nests too deeply' },
  unauthorized: { status: 401, title: 'A valid API key is required' },
  'insufficient-credits': { status: 402, title: 'Not enough credits' },
  'subscription-lapsed': { status: 403, title: 'The subscription has lapsed' },
  forbidden: { status: 403, title: 'This action is not allowed' },
  'insufficient-scope': { status: 403, title: "The API key's scope does not allow this" },
  'forbidden-origin': { status: 403, title: 'Cross-origin requests are not allowed' },
  'url-expired': { status: 403, title: 'The signed link has expired' },
  'url-invalid': { status: 403, title: 'The signed link is not valid' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'idempotency-key-in-use': {
    status: 409,
    title: 'A request with this Idempotency-Key is in progress',
  },
  'batch-not-terminal': { status: 409, title: 'The batch is still processing' },
  'nothing-to-replay': { status: 409, title: 'The batch has nothing to replay' },
  conflict: { status: 409, title: 'Conflict' },
  'version-conflict': { status: 409, title: 'The template was changed by someone else' },
  'payload-too-large': { status: 413, title: 'The request body is too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'misdirected-request': { status: 421, title: 'This server only answers to its loopback address' },
  'validation-failed': { status: 422, title: 'The request did not pass validation' },
  'idempotency-key-reused': {
    status: 422,
    title: 'The Idempotency-Key was used with a different request',
  },
  'image-invalid': { status: 422, title: 'An image value could not be used' },
  'svg-external-reference': {
    status: 422,
    title: 'SVG images may not reference external resources',
  },
  'url-not-allowed': { status: 422, title: 'Remote image URLs are disabled' },
  'path-not-allowed': { status: 422, title: "The app's own data folder is not an image source" },
  'render-timeout': { status: 422, title: 'The render took longer than the render deadline' },
  'bundle-not-ready': { status: 422, title: 'The bundle is available once the batch has finished' },
  'invalid-spreadsheet': { status: 422, title: 'The file is not a readable spreadsheet' },
  'unsupported-encoding': { status: 422, title: 'The text encoding of the file is not supported' },
  'archive-limits-exceeded': { status: 422, title: 'The archive is too large when unpacked' },
  'invalid-archive': { status: 422, title: 'The archive cannot be used' },
  'spreadsheet-parse-timeout': { status: 422, title: 'Reading the spreadsheet took too long' },
  'no-rows-found': { status: 422, title: 'The spreadsheet has no data rows' },
  'sheet-not-found': { status: 422, title: 'The sheet does not exist' },
  'too-many-rows': { status: 422, title: 'The spreadsheet has too many rows' },
  'template-invalid': { status: 422, title: 'The template is not valid' },
  'font-invalid': { status: 422, title: 'The file is not a usable font' },
  'font-too-large': { status: 422, title: 'The font holds more data than a font may' },
  'font-missing-glyphs': { status: 422, title: 'The font cannot draw some of the text' },
  'font-in-use': { status: 409, title: 'The font is used by a template or brand' },
  'pack-invalid': { status: 422, title: 'The file is not a usable template pack' },
  'pack-unsupported-version': {
    status: 422,
    title: 'The template pack was made by a newer version of Render Desk',
  },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal error' },
  'render-failed': { status: 500, title: 'The render failed' },
  'service-busy': { status: 503, title: 'The service is busy; retry shortly' },
  'disk-full': { status: 507, title: 'The disk holding the data folder is full' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One problem of a validation error, located by a path like `values.headline`. */
export interface Problem {
  path: string;
  message: string;
}

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: Problem[];
  [extension: string]: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly problems: Problem[] | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: {
      problems?: Problem[];
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.problems = options.problems;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  toProblem(): ProblemDetails {
    return {
      type: `https://render-desk.local/problems/${this.code}`,
      title: ERROR_CATALOGUE[this.code].title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.problems ? { errors: this.problems } : {}),
      ...this.extensions,
    };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Factories for the errors raised in more than one place. */
export const Errors = {
  validation: (problems: Problem[], detail?: string) =>
    new AppError(
      'validation-failed',
      detail ??
        `${problems.length} problem${problems.length === 1 ? '' : 's'}: ` +
          problems
            .slice(0, 5)
            .map((p) => `${p.path}: ${p.message}`)
            .join('; '),
      { problems },
    ),
  notFound: (what: string, id: string) => new AppError('not-found', `No ${what} with id "${id}".`),
  insufficientCredits: (needed: number, balance: number) =>
    new AppError(
      'insufficient-credits',
      `This needs ${needed} credit${needed === 1 ? '' : 's'} but the balance is ${balance}. Add credits and retry.`,
      { extensions: { needed, balance } },
    ),
  subscriptionLapsed: () =>
    new AppError(
      'subscription-lapsed',
      'The subscription has lapsed, so rendering is paused. Renew it in Settings → Credits, then retry.',
    ),
  imageInvalid: (path: string, reason: string) =>
    new AppError('image-invalid', `${path}: ${reason}`, { problems: [{ path, message: reason }] }),
  diskFull: () =>
    new AppError(
      'disk-full',
      'The disk holding the data folder is full, so nothing was saved. Free some space, then retry.',
    ),
};
