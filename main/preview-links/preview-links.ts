import crypto from 'node:crypto';
import { RenderRequest } from '../../shared/api-schemas.js';
import { AppError } from '../../shared/errors.js';
import type { CreatePreviewLinkRequest, PreviewLink } from '../../shared/preview-link-schemas.js';
import { brandProfileFor } from '../brand/named-brand.js';
import { EXTENSIONS, contentTypeOf } from '../batch/output-address.js';
import type { CoreData } from '../data/core-data.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { RenderService } from '../render/render-service.js';
import type { SingleRenderService } from '../render/single-render-service.js';
import type { PreviewLinkClaims, PreviewLinkSigner } from './preview-link-signer.js';
import type { SubscriptionGate } from '../data/subscription-gate.js';

export const PREVIEW_IMAGE_PATH = '/v1/preview-links/image';
/** How long a fetch waits for an image another API node is drawing, and how often it looks. */
const SHARED_RENDER_WAIT_MS = 30_000;
const SHARED_RENDER_POLL_MS = 100;

export interface PreviewLinksDeps {
  data: CoreData;
  renderer: RenderService;
  singleRenders: SingleRenderService;
  /** Where each distinct image is kept once rendered (`previews/<hash>.<ext>`). */
  objects: ObjectStore;
  signer: PreviewLinkSigner;
  /** A lapsed subscription stops a link's first render, as it stops the API's renders. */
  subscription: SubscriptionGate;
}

export type ServedPreview =
  | { status: 304; etag: string; maxAgeSeconds: number }
  | { status: 200; etag: string; maxAgeSeconds: number; contentType: string; bytes: Buffer };

/**
 * Signed, expiring GET links that render a template with the values in their query string, for
 * `<img src>` in a dev server or a CMS preview. Each distinct image (template version, target,
 * format, brand and values) is rendered and charged once, to the key that made the link, then
 * served from the object store however often it is fetched.
 */
export class PreviewLinks {
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(private readonly deps: PreviewLinksDeps) {}

  /** Checks the values as a render would (so a bad link fails now, not in a page), then signs. */
  async create(
    request: CreatePreviewLinkRequest,
    keyId: string,
    origin: string,
    now = Date.now(),
  ): Promise<PreviewLink> {
    const { renderer, data } = this.deps;
    const entry = renderer.entry(request.templateId);
    const target = renderer.ratioFor(entry, request.target);
    const values = Object.fromEntries(
      Object.entries(request.values).map(([name, value]) => [name, String(value)]),
    );
    await renderer.prepareWithImageUrls(
      { templateId: request.templateId, values, target, format: request.format },
      { entry, brand: await brandProfileFor(data.brandProfiles, request.brand) },
    );
    const exp = Math.floor(now / 1000) + request.expiresInSeconds;
    const query = await this.deps.signer.query({
      templateId: request.templateId,
      target,
      format: request.format,
      brand: request.brand,
      keyId,
      exp,
      values,
    });
    const path = `${PREVIEW_IMAGE_PATH}?${query}`;
    return {
      url: `${origin}${path}`,
      path,
      expiresAt: new Date(exp * 1000).toISOString(),
      templateId: request.templateId,
    };
  }

  /** `query` is the link's query string as sent: the signer holds it to exactly what it signed. */
  async serve(
    query: URLSearchParams,
    ifNoneMatch: string | undefined,
    now = Date.now(),
  ): Promise<ServedPreview> {
    const { data, renderer } = this.deps;
    const claims = await this.deps.signer.verify(query, now);
    const key = await data.apiKeys.get(claims.keyId);
    if (!key || key.revokedAt)
      throw new AppError(
        'url-invalid',
        'The API key that made this preview link was revoked. Make a new link with another key.',
      );
    const entry = renderer.entry(claims.templateId);
    const brand = await brandProfileFor(data.brandProfiles, claims.brand);
    // By content: an edited template or brand is another image (and another charge).
    const hash = crypto
      .createHash('sha256')
      .update(
        JSON.stringify([
          entry.template,
          claims.target,
          claims.format,
          brand,
          Object.entries(claims.values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        ]),
      )
      .digest('hex');
    const etag = `"${hash.slice(0, 40)}"`;
    const maxAgeSeconds = Math.max(0, claims.exp - Math.floor(now / 1000));
    if (ifNoneMatch !== undefined && ifNoneMatch.split(/\s*,\s*/).includes(etag))
      return { status: 304, etag, maxAgeSeconds };
    const extension = EXTENSIONS[claims.format as 'png'];
    const contentType = contentTypeOf(extension);
    const objectKey = `previews/${hash}.${extension}`;
    const stored = await this.deps.objects.get(objectKey);
    const bytes = stored ?? (await this.renderOnce(hash, objectKey, claims));
    return { status: 200, etag, maxAgeSeconds, contentType, bytes };
  }

  /**
   * Concurrent first fetches of one image share one render and one charge: in this process by
   * the map, across the API nodes of a cluster by an idempotency key named after the image, so
   * a node that finds another node drawing it waits for that image instead of drawing its own.
   */
  private renderOnce(hash: string, objectKey: string, claims: PreviewLinkClaims): Promise<Buffer> {
    let pending = this.rendering.get(hash);
    if (!pending) {
      pending = this.renderShared(hash, objectKey, claims).finally(() =>
        this.rendering.delete(hash),
      );
      this.rendering.set(hash, pending);
    }
    return pending;
  }

  private async renderShared(
    hash: string,
    objectKey: string,
    claims: PreviewLinkClaims,
  ): Promise<Buffer> {
    await this.deps.subscription.assertActive();
    const deadline = Date.now() + SHARED_RENDER_WAIT_MS;
    for (;;) {
      try {
        const result = await this.deps.singleRenders.render({
          request: RenderRequest.parse({
            templateId: claims.templateId,
            target: claims.target,
            format: claims.format,
            values: claims.values,
            ...(claims.brand !== undefined ? { brand: claims.brand } : {}),
          }),
          apiKeyId: claims.keyId,
          idempotency: { key: `preview-${hash}`, fingerprint: hash },
        });
        const bytes = Buffer.from(result.bytes);
        // A replay is the image another node drew and stores under objectKey itself; it is
        // written here only when that node did not (it stopped between its commit and its write).
        if (!result.replayed || !(await this.deps.objects.head(objectKey)))
          await this.deps.objects.put(objectKey, bytes, { contentType: result.contentType });
        return bytes;
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'idempotency-key-in-use') throw error;
        // Another API node is drawing this image: claim again until its render is committed,
        // then the claim answers with that render's kept result. Not objectKey, which that node
        // writes only after its commit: a store that makes an object visible while it is still
        // being written (s3rver does) would hand out part of an image.
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, SHARED_RENDER_POLL_MS));
      }
    }
  }
}
