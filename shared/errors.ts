/**
 * One catalogue of coded errors (DESIGN §4). Every error the API returns has a stable `code`, an
 * HTTP status and a message a person can act on; the server turns them into problem+json.
 * `when` says, for the people calling the API, what leads to it: docs/errors.md is written from
 * this table (`npm run docs:errors`), so a code added here is documented by the same change.
 */

export interface ErrorEntry {
  status: number;
  title: string;
  when: string;
}

export const ERROR_CATALOGUE = {
  'malformed-json': {
    status: 400,
    title: 'The request body is not valid JSON',
    when: 'A JSON body does not parse, is empty while `Content-Type` says JSON, or has a key named `__proto__` or `constructor.prototype`.',
  },
  'bad-request': {
    status: 400,
    title: 'The request is malformed',
    when: '`Content-Length` does not match the body, a multipart upload is cut short or has no field named `file`, or the request is refused for another reason that `detail` gives (e.g. a multipart part named `constructor`).',
  },
  'invalid-idempotency-key': {
    status: 400,
    title: 'The Idempotency-Key header is invalid',
    when: '`Idempotency-Key` is empty, repeated, longer than 255 characters or not printable ASCII.',
  },
  'missing-host': {
    status: 400,
    title: 'The Host header is missing or repeated',
    when: 'The request has no `Host` header, or more than one.',
  },
  'json-too-deep': {
    status: 400,
    title: 'The JSON nests too deeply',
    when: 'A JSON body nests objects and arrays more than 64 levels deep.',
  },
  'json-too-many-keys': {
    status: 400,
    title: 'An object in the JSON has too many keys',
    when: 'An object in a JSON body has more than 1,000 keys.',
  },
  unauthorized: {
    status: 401,
    title: 'A valid API key is required',
    when: "No `Authorization: Bearer` key was sent, or the key is unknown or revoked (for the app's pages: the session is unknown, e.g. after the core restarted).",
  },
  'insufficient-credits': {
    status: 402,
    title: 'Not enough credits',
    when: 'A render needs more credits than the balance has left (credits promised to renders still drawing count as spent). `needed` and `balance` say how many. A batch without enough credits is not refused this way: it is created `failed` with `rejectedReason: "insufficient-credits"`.',
  },
  'subscription-lapsed': {
    status: 403,
    title: 'The subscription has lapsed',
    when: 'A render, a new batch or a replay while the subscription has lapsed (`--subscription lapsed`); reading and pre-flight still work.',
  },
  forbidden: {
    status: 403,
    title: 'This action is not allowed',
    when: "An API key asked for an editor preview; previews are for the app's own pages (scripts use `POST /v1/render`).",
  },
  'insufficient-scope': {
    status: 403,
    title: "The API key's scope does not allow this",
    when: "The key's scope is below the least scope of the operation (`x-required-scope` in the OpenAPI document); `requiredScope` and `scope` name both.",
  },
  'forbidden-origin': {
    status: 403,
    title: 'Cross-origin requests are not allowed',
    when: 'A browser sent the request from another web page (an `Origin` other than this server).',
  },
  'url-expired': {
    status: 403,
    title: 'The signed link has expired',
    when: 'A signed link (a bundle download, a thumbnail, a preview link) is past its expiry, or a one-time link that opens the app was used already or is too old.',
  },
  'url-invalid': {
    status: 403,
    title: 'The signed link is not valid',
    when: "A signed link is unsigned, altered or signed for another resource, or a link of the app's pages was not signed by an open session. A preview link also when its signing secret was rotated or the API key that made it was revoked.",
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    when: 'No route has this method and path, or no template, batch, upload, output, brand, font or API key has this id. A non-admin key gets the same for what another key created; uploads no batch uses are deleted after 24 hours.',
  },
  'idempotency-key-in-use': {
    status: 409,
    title: 'A request with this Idempotency-Key is in progress',
    when: 'The first request with this `Idempotency-Key` is still rendering; retry after `Retry-After` (1 s) to get its result.',
  },
  'batch-not-terminal': {
    status: 409,
    title: 'The batch is still processing',
    when: 'A replay of a batch that is still queued or running.',
  },
  'nothing-to-replay': {
    status: 409,
    title: 'The batch has nothing to replay',
    when: 'A replay of a batch whose every row succeeded.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: 'The change clashes with what exists: removing the default brand, uploading a bundled font or a font already installed with other contents, or importing a pack whose font differs from the installed font of the same name.',
  },
  'version-conflict': {
    status: 409,
    title: 'The template was changed by someone else',
    when: "A template edit names a `baseVersion` older than the template's current version: it was saved elsewhere since you opened it.",
  },
  'payload-too-large': {
    status: 413,
    title: 'The request body is too large',
    when: "The body is over the endpoint's limit (1 MiB for most JSON bodies; renders, batches, brands, template images, uploads and packs have larger ones), or a JSON body holds an array of more than 100,000 items or more than 5,000,000 values in all.",
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    when: "The body's `Content-Type` is not one the endpoint takes (JSON bodies want `application/json`; fonts, template images and packs are sent as raw bytes), or an uploaded file is of a kind Render Desk does not read (`.xls`, `.xlsb`, a PDF …).",
  },
  'misdirected-request': {
    status: 421,
    title: 'This server only answers to its loopback address',
    when: "The `Host` header, or the host of an absolute-form request target (`GET http://host/…`), is not `127.0.0.1`, `localhost` or `[::1]` with the server's port (DNS-rebinding protection); a cluster API node also answers to its `--allowed-hosts`.",
  },
  'validation-failed': {
    status: 422,
    title: 'The request did not pass validation',
    when: 'A body, query or value breaks the contract; `errors` lists each problem with its path (`values.headline`). For example a required variable is missing, a text value is over 10,000 characters, `fileNamePattern` names a column the source lacks, or an edited template is not a valid template.',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'The Idempotency-Key was used with a different request',
    when: 'This `Idempotency-Key` was used in the last 24 hours with another request body.',
  },
  'image-invalid': {
    status: 422,
    title: 'An image value could not be used',
    when: 'An image value (upload id, `data:` URI, file path, brand logo, images folder or zip) cannot be read or decoded, or its bytes are not PNG, JPEG, WebP, GIF or SVG (TIFF, AVIF, HEIF … are refused whatever the name or declared type says), or a template image is not PNG, JPEG or WebP or is over the pixel limit; `errors` names the value.',
  },
  'barcode-invalid': {
    status: 422,
    title: 'A barcode value cannot be encoded',
    when: "A value drawn as a barcode is not one its symbology can encode: the wrong number of digits for an EAN, UPC or ITF-14, a check digit that does not match (leave it out to have it computed), characters outside the symbology's set (Code 39 has capitals only, Code 128 ASCII only), a GS1 element string that breaks the GS1 rules, or a value too long for the code; `errors` names the value (`values.barcode`) and says why. In a batch, the row fails with this reason.",
  },
  'vietqr-invalid': {
    status: 422,
    title: 'A VietQR payment cannot be made',
    when: "A VietQR's fields cannot make a payload: the bank is neither a NAPAS BIN nor a listed bank's name, the account number is not 6–19 digits, the amount is not a whole number of đồng over 0, or the message is over 25 characters or holds characters other than letters, digits and spaces (Vietnamese marks are dropped, not refused); `errors` names the value (`values.amount`) and says why. In a batch, the row fails with this reason.",
  },
  'code-unreadable': {
    status: 422,
    title: 'A code does not scan',
    when: "A batch (or its pre-flight) asked to verify its codes (`verifyCodes`), and a QR code or barcode of a row, read back from the output's pixels by an independent reader (ZXing; a PDF from its pages drawn at the print DPI), was not found or did not read exactly as its value: drawn too small, with too little contrast between its colours, or covered by another layer. `errors` names the value (`values.ticketId`, or `layers.<id>` for fixed text) and the layer. The row fails with this reason.",
  },
  'svg-external-reference': {
    status: 422,
    title: 'SVG images may not reference external resources',
    when: 'An SVG image refers to files or URLs outside itself; embed them as `data:` URIs.',
  },
  'url-not-allowed': {
    status: 422,
    title: 'Image URLs are turned off',
    when: 'An image value is an `http(s)` URL while image URLs are off (the default). Turn them on in Settings → Image URLs (`PUT /v1/system/image-urls`, or `--allow-image-urls` on the command line), or download the image and pass a file path, a `data:` URI or an upload id.',
  },
  'image-url-refused': {
    status: 422,
    title: 'The image URL is not allowed',
    when: 'An image URL (or a redirect it led to) is not http(s), names a host that is not on the allow-list, carries a user name or password, or resolves to a loopback, private, link-local, CGNAT, multicast, unspecified or IPv4-mapped address.',
  },
  'image-url-unreachable': {
    status: 422,
    title: 'The image URL could not be fetched',
    when: 'The host of an image URL was not found, refused or dropped the connection, answered with a status other than 200 (or 304 to a revalidation), or redirected more than 5 times.',
  },
  'image-url-too-large': {
    status: 422,
    title: 'The image at the URL is too large',
    when: 'An image URL answered with more than 20 MB (declared or streamed); the download stops there.',
  },
  'image-url-not-an-image': {
    status: 422,
    title: 'The URL does not hold an image',
    when: 'An image URL answered with a content type other than PNG, JPEG, WebP, GIF or SVG, its bytes are of another type (decided by the bytes, not the content type) or do not decode as an image, or an SVG refers to outside resources; or its body is compressed with a Content-Encoding other than gzip, deflate or br, or the compressed data is damaged.',
  },
  'image-url-timeout': {
    status: 422,
    title: 'The image URL took too long',
    when: 'The host of an image URL did not accept a connection within 5 s, or the image did not arrive within 15 s (redirects included).',
  },
  'path-not-allowed': {
    status: 422,
    title: "The app's own data folder is not an image source",
    when: "An image path, or a batch's `imagesDir`, is inside Render Desk's data folder or contains it.",
  },
  'render-timeout': {
    status: 422,
    title: 'The render took longer than the render deadline',
    when: 'One render took longer than `--render-timeout` (20 s by default) and was stopped; in a batch, the row fails with this reason.',
  },
  'bundle-not-ready': {
    status: 422,
    title: 'The bundle is available once the batch has finished',
    when: "A batch's bundle was asked for while the batch is still queued or running; `batchStatus` says which.",
  },
  'invalid-spreadsheet': {
    status: 422,
    title: 'The file is not a readable spreadsheet',
    when: 'An upload cannot be read as CSV or XLSX: a zip that is not a workbook, a damaged workbook, a quote that is never closed, a cell beyond column XFD.',
  },
  'unsupported-encoding': {
    status: 422,
    title: 'The text encoding of the file is not supported',
    when: 'A CSV is not valid text in its encoding (UTF-8 unless another was detected or chosen), or the encoding asked for is not one Render Desk reads.',
  },
  'archive-limits-exceeded': {
    status: 422,
    title: 'The archive is too large when unpacked',
    when: 'A zip (an XLSX workbook, a zip of images, a template pack) holds too many files or would unpack to too many bytes, or a workbook needs more memory to read than allowed.',
  },
  'invalid-archive': {
    status: 422,
    title: 'The archive cannot be used',
    when: 'A template pack or a zip of images is not a readable zip (damaged, password-protected, an unknown compression method); a zip of images also when an entry is unsafe to unpack (a path outside the zip, a link, a duplicate).',
  },
  'spreadsheet-parse-timeout': {
    status: 422,
    title: 'Reading the spreadsheet took too long',
    when: 'Reading a workbook took longer than allowed; it may be damaged or built to be slow to read.',
  },
  'no-rows-found': {
    status: 422,
    title: 'The spreadsheet has no data rows',
    when: 'The file is empty, has a header row but no data rows, or the workbook has no worksheets.',
  },
  'sheet-not-found': {
    status: 422,
    title: 'The sheet does not exist',
    when: 'The sheet named or numbered in the request is not in the workbook; the message lists its sheets.',
  },
  'too-many-rows': {
    status: 422,
    title: 'The spreadsheet has too many rows',
    when: 'A CSV or sheet has more than 1,000,000 data rows.',
  },
  'too-many-columns': {
    status: 422,
    title: 'The spreadsheet has too many columns',
    when: 'A CSV row has more than 1,000 cells (the header or any other row), or json-array records use more than 1,000 different keys; `line` names the CSV row.',
  },
  'cell-too-large': {
    status: 422,
    title: 'A cell of the spreadsheet holds too much text',
    when: 'A CSV cell holds more than 1,000,000 characters (about 1 MB); `line` names the line where the cell starts.',
  },
  'row-too-large': {
    status: 422,
    title: 'A row of the spreadsheet holds too much text',
    when: 'A CSV row holds more than 8,000,000 characters; `line` names the line where it starts.',
  },
  'font-invalid': {
    status: 422,
    title: 'The file is not a usable font',
    when: 'An uploaded font is damaged or not a font, has no family name or no glyphs, maps no characters, or the font engine cannot load it.',
  },
  'font-too-large': {
    status: 422,
    title: 'The font holds more data than a font may',
    when: 'A font declares more than 32 MiB of font data once decompressed.',
  },
  'font-in-use': {
    status: 409,
    title: 'The font is used by a template or brand',
    when: 'Deleting a font that a template or brand uses; `users` names them.',
  },
  'pack-invalid': {
    status: 422,
    title: 'The file is not a usable template pack',
    when: 'A template pack lacks a part or has one over its size, holds an entry that is unsafe to unpack (a path outside the pack, a link, a duplicate), its template is not valid, or a font in it is not the one its manifest names.',
  },
  'pack-unsupported-version': {
    status: 422,
    title: 'The template pack was made by a newer version of Render Desk',
    when: 'A pack uses a pack or template format newer than this version of Render Desk reads.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    when: 'The key made more requests this minute than `--rate-limit` allows (600 by default; requests without a valid key count against their address); retry after `Retry-After`.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    when: 'Something failed inside Render Desk; it is written to stderr with the request. In a cluster, also when the object store refuses the request.',
  },
  'render-failed': {
    status: 500,
    title: 'The render failed',
    when: 'Drawing or encoding the image failed, or its render thread stopped while drawing it; retry, and if it happens again the template or its values are at fault.',
  },
  'service-busy': {
    status: 503,
    title: 'The service is busy; retry shortly',
    when: 'No render thread could take the job, Render Desk is stopping, or (in a cluster) the object store or the rate limiter cannot be reached; retry after `Retry-After`.',
  },
  'team-service-unreachable': {
    status: 502,
    title: 'The team service cannot be reached',
    when: 'The app asked the team service set in Settings (to check it or to open it) and got no answer, an answer that is not Render Desk, or an error; `detail` says which.',
  },
  'team-service-key-refused': {
    status: 422,
    title: 'The team service refused the API key',
    when: 'The team service set in Settings answered 401 or 403 to its API key: the key is unknown, revoked, or not an admin key (opening the app there needs one).',
  },
  'disk-full': {
    status: 507,
    title: 'The disk holding the data folder is full',
    when: 'The disk holding the data folder (or a quota on it) is full, wherever that is found; nothing was saved.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One problem of a validation error, located by a path like `values.headline`. */
export interface Problem {
  path: string;
  message: string;
  /** The error code of this one problem, where it has its own (`image-url-timeout`). */
  code?: string;
}

/**
 * How many problems one error lists; `problemsNotListed` counts the rest. A values object of
 * 300,000 unknown keys made a 422 of 44 MB.
 */
export const MAX_LISTED_PROBLEMS = 100;

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
      ...(this.problems ? { errors: this.problems.slice(0, MAX_LISTED_PROBLEMS) } : {}),
      ...(this.problems && this.problems.length > MAX_LISTED_PROBLEMS
        ? { problemsNotListed: this.problems.length - MAX_LISTED_PROBLEMS }
        : {}),
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
        `${problems.length.toLocaleString('en')} problem${problems.length === 1 ? '' : 's'}` +
          (problems.length > MAX_LISTED_PROBLEMS
            ? ` (the first ${MAX_LISTED_PROBLEMS} are listed)`
            : '') +
          ': ' +
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
  subscriptionLapsed: (renewHint = 'Renew it in Settings → Credits, then retry.') =>
    new AppError(
      'subscription-lapsed',
      `The subscription has lapsed, so rendering is paused. ${renewHint}`,
    ),
  imageInvalid: (path: string, reason: string) =>
    new AppError('image-invalid', `${path}: ${reason}`, { problems: [{ path, message: reason }] }),
  barcodeInvalid: (problems: Problem[]) =>
    new AppError(
      'barcode-invalid',
      problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; '),
      { problems },
    ),
  vietQrInvalid: (problems: Problem[]) =>
    new AppError(
      'vietqr-invalid',
      problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; '),
      { problems },
    ),
  codeUnreadable: (problems: Problem[]) =>
    new AppError(
      'code-unreadable',
      problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; '),
      { problems },
    ),
  diskFull: () =>
    new AppError(
      'disk-full',
      'The disk holding the data folder is full, so nothing was saved. Free some space, then retry.',
    ),
};
