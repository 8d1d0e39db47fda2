import { isAppError } from '../../shared/errors.js';
import type { ImageUrlSettings } from '../../shared/image-url-schemas.js';
import {
  ALLOWED_IMAGE_TYPES,
  IMAGE_HEAD_BYTES,
  notAnAllowedImage,
  sniffImageType,
} from '../engine/image-type.js';
import { assertSvgBytesSelfContained } from '../engine/svg-self-contained.js';
import type { ImageInput } from '../render/render-protocol.js';
import { hostAllowed } from './host-allow-list.js';
import type { CachedImage, ImageUrlCache } from './image-url-cache.js';
import { ImageUrlFailure } from './image-url-failure.js';
import { ImageUrlFetcher } from './image-url-fetcher.js';

/** Fresh for this long when the server says nothing (`Cache-Control` without `max-age`). */
const DEFAULT_FRESH_MS = 60_000;
/** A server's `max-age` is honoured up to a day: a stale photo must not live for a year. */
const MAX_FRESH_MS = 24 * 60 * 60_000;

/** What a prefetch found for each URL: the image to draw, or why it cannot be used. */
export type FetchedImages = ReadonlyMap<string, ImageInput | ImageUrlFailure>;

export interface RemoteImagesOptions {
  cache: ImageUrlCache;
  /** The user's setting (Settings → Image URLs, `PUT /v1/system/image-urls`). */
  settings: () => Promise<ImageUrlSettings>;
  fetcher?: ImageUrlFetcher;
}

/**
 * Image values that are http(s) URLs, when the user turned them on: fetched under the fetcher's
 * rules, proved to decode, kept in the disk cache and revalidated with their ETag or
 * Last-Modified once stale. The same URL asked for by many rows at once is fetched once.
 */
export class RemoteImages {
  readonly fetcher: ImageUrlFetcher;
  private readonly inFlight = new Map<string, Promise<ImageInput>>();

  constructor(private readonly options: RemoteImagesOptions) {
    this.fetcher = options.fetcher ?? new ImageUrlFetcher();
  }

  /**
   * Each http(s) URL's image or failure (other values are left out); an empty map when image
   * URLs are off (the resolver then
   * refuses them with `url-not-allowed`, saying how to turn them on).
   */
  async fetchAll(urls: readonly string[]): Promise<FetchedImages> {
    const found = new Map<string, ImageInput | ImageUrlFailure>();
    // Only http(s) values are fetched; anything else is the other resolvers' business.
    urls = urls.filter((url) => /^https?:\/\//i.test(url));
    if (urls.length === 0) return found;
    const settings = await this.options.settings();
    if (!settings.enabled) return found;
    await Promise.all(
      [...new Set(urls)].map(async (url) => {
        try {
          found.set(url, await this.fetchOne(url, settings.allowedHosts));
        } catch (error) {
          if (error instanceof ImageUrlFailure) found.set(url, error);
          // The SVG check's refusals (outside references, not well-formed, compressed non-SVG).
          else if (
            isAppError(error) &&
            (error.code === 'svg-external-reference' || error.code === 'image-invalid')
          )
            found.set(url, new ImageUrlFailure('image-url-not-an-image', error.message));
          else throw error;
        }
      }),
    );
    return found;
  }

  private fetchOne(url: string, allowedHosts: readonly string[]): Promise<ImageInput> {
    const key = `${allowedHosts.join(',')}\n${url}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.load(url, allowedHosts).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(url: string, allowedHosts: readonly string[]): Promise<ImageInput> {
    const { cache } = this.options;
    const cached = cache.get(url);
    // A fresh cached copy was fetched under the rules; the allow-list may have changed since.
    if (cached && Date.now() - cached.meta.validatedAt < cached.meta.freshForMs) {
      this.assertStillAllowed(url, allowedHosts);
      return asInput(cached);
    }
    const outcome = await this.fetcher.fetch(
      url,
      allowedHosts,
      cached ? { etag: cached.meta.etag, lastModified: cached.meta.lastModified } : {},
    );
    if (outcome.kind === 'not-modified') {
      const again = cache.revalidated(url, freshFor(outcome.cacheControl));
      if (again) return asInput(again);
      return this.load(url, allowedHosts); // removed meanwhile: fetch it whole
    }
    await assertDecodes(url, outcome.bytes);
    const meta = {
      url,
      contentType: outcome.contentType,
      bytes: outcome.bytes.length,
      etag: outcome.etag,
      lastModified: outcome.lastModified,
      validatedAt: Date.now(),
      freshForMs: freshFor(outcome.cacheControl),
    };
    if (/\bno-store\b/i.test(outcome.cacheControl ?? ''))
      return { kind: 'bytes', bytes: new Uint8Array(outcome.bytes), mime: outcome.contentType };
    return asInput(cache.put(outcome.bytes, meta));
  }

  private assertStillAllowed(url: string, allowedHosts: readonly string[]): void {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!hostAllowed(host, allowedHosts))
      throw new ImageUrlFailure(
        'image-url-refused',
        `${host} is not on the image URL allow-list (${allowedHosts.join(', ')}); add it in Settings → Image URLs (PUT /v1/system/image-urls).`,
      );
  }
}

function asInput(cached: CachedImage): ImageInput {
  return { kind: 'file', path: cached.file };
}

function freshFor(cacheControl: string | undefined): number {
  const header = cacheControl ?? '';
  if (/\b(no-cache|no-store)\b/i.test(header)) return 0;
  const maxAge = /\bmax-age\s*=\s*(\d+)/i.exec(header);
  if (maxAge) return Math.min(MAX_FRESH_MS, Number(maxAge[1]) * 1000);
  return DEFAULT_FRESH_MS;
}

/**
 * The bytes must be of an allowed type by their first bytes (a TIFF served as image/png would
 * reach libtiff), an image sharp reads (a header check), and an SVG must be self-contained.
 */
async function assertDecodes(url: string, bytes: Buffer): Promise<void> {
  const head = bytes.subarray(0, IMAGE_HEAD_BYTES);
  const type = sniffImageType(head);
  if (!type)
    throw new ImageUrlFailure('image-url-not-an-image', `${url}: ${notAnAllowedImage(head)}`);
  if (type === 'svg') assertSvgBytesSelfContained(bytes, url);
  try {
    // Loaded on first use: most renders fetch no URL.
    const { default: sharp } = await import('sharp');
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
  } catch {
    throw new ImageUrlFailure(
      'image-url-not-an-image',
      `${url} does not decode as an image (${ALLOWED_IMAGE_TYPES}); it may be damaged or a web page.`,
    );
  }
}
