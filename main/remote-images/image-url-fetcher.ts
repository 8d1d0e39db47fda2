import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ALLOWED_IMAGE_TYPES } from '../engine/image-type.js';
import { ACCEPTED_ENCODINGS, decodedBody, type DecodedBody } from './content-encoding.js';
import { forbiddenAddressReason } from './forbidden-address.js';
import { hostAllowed } from './host-allow-list.js';
import { ImageUrlFailure } from './image-url-failure.js';

export interface ImageUrlLimits {
  /** Bytes one image may have; the download stops as soon as it is past this. */
  maxBytes: number;
  /** From asking for a connection to having one (DNS included), per hop. */
  connectTimeoutMs: number;
  /** The whole fetch, every redirect included. */
  totalTimeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_IMAGE_URL_LIMITS: ImageUrlLimits = {
  maxBytes: 20 * 1024 * 1024,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxRedirects: 5,
};

/**
 * Content types taken as images; the bytes decide afterwards (main/engine/image-type.ts). No
 * AVIF: its decoder (libheif) is not reached by outside bytes, and not asking for it lets a CDN
 * that negotiates send WebP or JPEG instead.
 */
export const IMAGE_CONTENT_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/gif',
  'image/svg+xml',
]);

export interface ImageUrlFetcherOptions {
  limits?: Partial<ImageUrlLimits>;
  /**
   * TEST ONLY. Origins (`http://127.0.0.1:41234`) exempt from the address rules, so a test's own
   * loopback server can stand in for an internet host. Nothing the API, the CLI or the settings
   * can reach sets it: only code that constructs a fetcher itself (the tests) can. Without it a
   * positive test would need a real internet host, and the refusal tests need loopback refused.
   */
  testOnlyTrustedOrigins?: readonly string[];
  userAgent?: string;
}

export interface ConditionalHeaders {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

export type FetchOutcome =
  | {
      kind: 'fetched';
      bytes: Buffer;
      contentType: string;
      etag: string | undefined;
      lastModified: string | undefined;
      cacheControl: string | undefined;
    }
  | { kind: 'not-modified'; cacheControl: string | undefined };

type HopOutcome = FetchOutcome | { kind: 'redirect'; location: string };

/**
 * Fetches one image URL under the rules of docs/security.md: http(s) only, hosts on the
 * allow-list, public addresses only (checked on the resolved address the connection is made to,
 * on every redirect), a size limit enforced while streaming and time limits.
 */
export class ImageUrlFetcher {
  readonly limits: ImageUrlLimits;
  private readonly trusted: ReadonlySet<string>;

  constructor(private readonly options: ImageUrlFetcherOptions = {}) {
    this.limits = { ...DEFAULT_IMAGE_URL_LIMITS, ...options.limits };
    this.trusted = new Set(options.testOnlyTrustedOrigins ?? []);
  }

  async fetch(
    rawUrl: string,
    allowedHosts: readonly string[],
    conditional: ConditionalHeaders = {},
  ): Promise<FetchOutcome> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.limits.totalTimeoutMs);
    try {
      let url = parseUrl(rawUrl);
      for (let hop = 0; ; hop++) {
        const outcome = await this.hop(url, allowedHosts, hop === 0 ? conditional : {}, controller);
        if (outcome.kind !== 'redirect') return outcome;
        if (hop >= this.limits.maxRedirects)
          throw new ImageUrlFailure(
            'image-url-unreachable',
            `${rawUrl} redirects more than ${this.limits.maxRedirects} times; use the image's final address.`,
          );
        url = parseUrl(new URL(outcome.location, url).toString());
      }
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof ImageUrlFailure))
        throw new ImageUrlFailure(
          'image-url-timeout',
          `${rawUrl} did not arrive within ${this.limits.totalTimeoutMs / 1000} s; use a faster host or download the image.`,
        );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private hop(
    url: URL,
    allowedHosts: readonly string[],
    conditional: ConditionalHeaders,
    controller: AbortController,
  ): Promise<HopOutcome> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!hostAllowed(host, allowedHosts))
      throw new ImageUrlFailure(
        'image-url-refused',
        `${url.host} is not on the image URL allow-list (${allowedHosts.join(', ')}); add it in Settings → Image URLs (PUT /v1/system/image-urls).`,
      );
    const trusted = this.trusted.has(url.origin);
    if (net.isIP(host) && !trusted) refuseAddress(url, host);
    const lookup = (
      hostname: string,
      options: dns.LookupOptions,
      callback: (
        error: Error | null,
        address: string | dns.LookupAddress[],
        family?: number,
      ) => void,
    ): void => {
      dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
        if (error) return callback(error, '');
        try {
          // Every address is checked: the connection may be made to any of them.
          if (!trusted) for (const { address } of addresses) refuseAddress(url, address);
        } catch (refused) {
          return callback(refused as Error, '');
        }
        const usable = options.family
          ? addresses.filter((a) => a.family === options.family)
          : addresses;
        if (usable.length === 0) return callback(dnsNotFound(hostname), '');
        if (options.all) return callback(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      });
    };
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent ?? 'RenderDesk (image URL fetcher)',
      accept: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml;q=0.8',
      // Decoded on arrival (content-encoding.ts); servers send codings unasked anyway.
      'accept-encoding': ACCEPTED_ENCODINGS,
    };
    if (conditional.etag) headers['if-none-match'] = conditional.etag;
    if (conditional.lastModified) headers['if-modified-since'] = conditional.lastModified;

    return new Promise<HopOutcome>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, {
        method: 'GET',
        headers,
        lookup: lookup as unknown as net.LookupFunction,
        signal: controller.signal,
        agent: false,
      });
      const connectTimer = setTimeout(() => {
        request.destroy(
          new ImageUrlFailure(
            'image-url-timeout',
            `${url.host} did not accept a connection within ${this.limits.connectTimeoutMs / 1000} s; check the address or download the image.`,
          ),
        );
      }, this.limits.connectTimeoutMs);
      request.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (error) => {
        clearTimeout(connectTimer);
        reject(describeNetworkError(url, error));
      });
      request.on('response', (response) => {
        clearTimeout(connectTimer);
        const status = response.statusCode ?? 0;
        const cacheControl = header(response, 'cache-control');
        if ([301, 302, 303, 307, 308].includes(status)) {
          response.resume();
          const location = header(response, 'location');
          if (!location)
            return reject(
              new ImageUrlFailure(
                'image-url-unreachable',
                `${url.toString()} answered ${status} without a Location header.`,
              ),
            );
          return resolve({ kind: 'redirect', location });
        }
        if (status === 304 && (conditional.etag || conditional.lastModified)) {
          response.resume();
          return resolve({ kind: 'not-modified', cacheControl });
        }
        if (status !== 200) {
          response.resume();
          return reject(
            new ImageUrlFailure(
              'image-url-unreachable',
              `${url.toString()} answered ${status} ${response.statusMessage ?? ''}`.trim() +
                '; check the address.',
            ),
          );
        }
        const contentType = (header(response, 'content-type') ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (!IMAGE_CONTENT_TYPES.has(contentType)) {
          response.destroy();
          return reject(
            new ImageUrlFailure(
              'image-url-not-an-image',
              `${url.toString()} is ${contentType || 'of no content type'}, not an image (${ALLOWED_IMAGE_TYPES}).`,
            ),
          );
        }
        const tooLarge = () =>
          new ImageUrlFailure(
            'image-url-too-large',
            `${url.toString()} is over ${this.limits.maxBytes / 1024 / 1024} MB; use a smaller image.`,
          );
        const declared = Number(header(response, 'content-length') ?? NaN);
        if (Number.isFinite(declared) && declared > this.limits.maxBytes) {
          response.destroy();
          return reject(tooLarge());
        }
        let body: DecodedBody;
        try {
          body = decodedBody(response, header(response, 'content-encoding'), url.toString());
        } catch (error) {
          response.destroy();
          return reject(error as Error);
        }
        const chunks: Buffer[] = [];
        let received = 0;
        let decoded = 0;
        const stop = (error: Error) => {
          body.stream.destroy();
          response.destroy();
          reject(error);
        };
        // Both counted: the compressed bytes (empty gzip members inflate to nothing, forever)
        // and what they inflate to, which is what is kept.
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > this.limits.maxBytes) stop(tooLarge());
        });
        body.stream.on('data', (chunk: Buffer) => {
          decoded += chunk.length;
          // Streamed and stopped here: a lying or absent Content-Length cannot make us read more.
          if (decoded > this.limits.maxBytes) return stop(tooLarge());
          chunks.push(chunk);
        });
        // A damaged compressed body fails the response too (pipeline): either says "damaged".
        for (const stream of new Set([response, body.stream]))
          stream.on('error', (error) => reject(describeNetworkError(url, body.failure(error))));
        body.stream.on('end', () => {
          if (received > this.limits.maxBytes || decoded > this.limits.maxBytes) return;
          resolve({
            kind: 'fetched',
            bytes: Buffer.concat(chunks),
            contentType,
            etag: header(response, 'etag'),
            lastModified: header(response, 'last-modified'),
            cacheControl,
          });
        });
      });
      request.end();
    });
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ImageUrlFailure('image-url-refused', `"${raw.slice(0, 200)}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ImageUrlFailure(
      'image-url-refused',
      `${url.protocol} URLs are not fetched; only http and https.`,
    );
  if (url.username || url.password)
    throw new ImageUrlFailure(
      'image-url-refused',
      `${url.host}: URLs with a user name or password are not fetched; use a public address.`,
    );
  return url;
}

function refuseAddress(url: URL, address: string): void {
  const reason = forbiddenAddressReason(address);
  if (reason)
    throw new ImageUrlFailure(
      'image-url-refused',
      `${url.host} is at ${address}, a ${reason} address; image URLs may only reach public internet hosts. Use a file path or an upload for local images.`,
    );
}

function header(response: http.IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function dnsNotFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}

function describeNetworkError(url: URL, error: Error): Error {
  if (error instanceof ImageUrlFailure) return error;
  if (error.name === 'AbortError') return error; // the total deadline: fetch() names it
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOTFOUND' || code === 'EAI_AGAIN'
      ? `no host named ${url.hostname} was found`
      : code === 'ECONNREFUSED'
        ? `${url.host} refused the connection`
        : code === 'ECONNRESET'
          ? `${url.host} closed the connection`
          : `${url.host} could not be reached (${code ?? error.message})`;
  return new ImageUrlFailure(
    'image-url-unreachable',
    `${why}; check the address, or download the image and use its file.`,
  );
}
