import { getJson, send, sendJson, withQuery } from './http';
import { signedLink } from './session';
import { DRAWN_BOXES_HEADER, parseDrawnBoxes, type DrawnBox } from '../../shared/drawn-boxes';
import type { CellEditBody } from '../../shared/upload-schemas';
import type { KeyScope } from '../../shared/key-scopes';
import type {
  Account,
  ApiKey,
  AssetCreated,
  Batch,
  BatchAccepted,
  BatchProgressEvent,
  Brand,
  BrandProfile,
  CreateBrandRequest,
  CustomFont,
  UpdateBrandRequest,
  BundleLinkT,
  CatalogDetail,
  CatalogListItem,
  CatalogQuery,
  CreateBatchRequest,
  LedgerKind,
  LedgerPageT,
  ManifestPage,
  NewApiKey,
  OutputFormat,
  Preferences,
  PreflightResult,
  RenderedImage,
  RenderRequest,
  RowStatus,
  SystemInfo,
  Taxonomy,
  TeamServiceCheck,
  TeamServiceLink,
  TeamServiceStatus,
  TeamServiceUpdate,
  TemplateFields,
  Upload,
  FontList,
  ImageUrlSettings,
  CreatedWebhook,
  Webhook,
  WebhookDelivery,
  Ratio,
  Template,
  TemplatePatch,
  WorkspaceTemplateDetail,
  WorkspaceTemplateItem,
  UploadRows,
} from './types';

/**
 * Every URL the UI uses lives in this file. Screens call these functions and never build paths.
 */

/**
 * Where live previews are rendered. `/v1/render` charges one credit per call; when a free preview
 * endpoint exists the UI switches to it by itself (see `detectPreviewEndpoint`).
 */
const PAID_RENDER_PATH = '/v1/render';
const FREE_PREVIEW_PATH = '/v1/render/preview';

let previewPath = PAID_RENDER_PATH;

export const previewEndpoint = {
  get isFree(): boolean {
    return previewPath !== PAID_RENDER_PATH;
  },
};

/** The OpenAPI document's answer, asked for once (again after a failure). */
let discovery: Promise<boolean> | null = null;

/** Uses the free preview route when the server publishes it in its OpenAPI document. */
export function detectPreviewEndpoint(): Promise<boolean> {
  discovery ??= getJson<{ paths?: Record<string, unknown> }>('/v1/openapi.json').then(
    (doc) => {
      if (doc.paths && FREE_PREVIEW_PATH in doc.paths) previewPath = FREE_PREVIEW_PATH;
      return previewEndpoint.isFree;
    },
    // Keep the paid route; the UI says so next to the preview. A later call asks again.
    () => {
      discovery = null;
      return false;
    },
  );
  return discovery;
}

async function renderTo(
  path: string,
  request: RenderRequest,
  options: { idempotencyKey?: string; signal?: AbortSignal } = {},
): Promise<RenderedImage> {
  const response = await send('POST', path, {
    body: request,
    headers: {
      Accept: 'image/*, application/problem+json',
      ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const blob = await response.blob();
  const renderId = response.headers.get('x-render-id');
  const credits = response.headers.get('x-credits-remaining');
  const ext = request.format === 'jpeg' ? 'jpg' : (request.format ?? 'png');
  return {
    blob,
    renderId,
    creditsRemaining: credits === null ? null : Number(credits),
    outputKey: options.idempotencyKey && renderId ? `${renderId}.${ext}` : null,
  };
}

export const api = {
  catalog: {
    list: (query: CatalogQuery = {}) =>
      getJson<CatalogListItem[]>(withQuery('/v1/catalog', { ...query })),
    taxonomy: () => getJson<Taxonomy>('/v1/catalog/taxonomy'),
    detail: (id: string) => getJson<CatalogDetail>(`/v1/catalog/${encodeURIComponent(id)}`),
  },

  /** A charged render; with an Idempotency-Key the server also stores it (for "Save image…"). */
  render: (request: RenderRequest, options: { idempotencyKey?: string } = {}) =>
    renderTo(PAID_RENDER_PATH, request, options),

  /**
   * A live preview. The first one waits for the endpoint to be known: a user who types before
   * the OpenAPI document has arrived (a slow machine) must not be charged for a free preview.
   */
  preview: async (request: RenderRequest, signal?: AbortSignal) => {
    if (previewPath === PAID_RENDER_PATH) await detectPreviewEndpoint();
    return renderTo(previewPath, request, signal ? { signal } : {});
  },

  account: {
    get: () => getJson<Account>('/v1/account'),
    ledger: (query: {
      cursor?: string | null;
      limit?: number;
      kind?: LedgerKind | null;
      group?: 'batch' | null;
    }) => getJson<LedgerPageT>('/v1/account/ledger', { query }),
    grant: (amount: number, note?: string) =>
      sendJson<Account>('POST', '/v1/account/credits', {
        body: { amount, ...(note ? { note } : {}) },
      }),
    setSubscription: (status: 'active' | 'lapsed') =>
      sendJson<Account>('PUT', '/v1/account/subscription', { body: { status } }),
  },

  apiKeys: {
    list: () => getJson<ApiKey[]>('/v1/api-keys'),
    create: (name: string, scope: KeyScope) =>
      sendJson<NewApiKey>('POST', '/v1/api-keys', { body: { name, scope } }),
    revoke: (id: string) => sendJson<void>('DELETE', `/v1/api-keys/${encodeURIComponent(id)}`),
  },

  brand: {
    get: () => getJson<BrandProfile>('/v1/brand-profile'),
    put: (profile: BrandProfile) =>
      sendJson<BrandProfile>('PUT', '/v1/brand-profile', { body: profile }),
  },

  /** The brand kit: named brands, one of them the default (what `brand` left out means). */
  brands: {
    list: () => getJson<Brand[]>('/v1/brands'),
    create: (request: Partial<CreateBrandRequest> & { name: string }) =>
      sendJson<Brand>('POST', '/v1/brands', { body: request }),
    update: (id: string, request: UpdateBrandRequest) =>
      sendJson<Brand>('PUT', `/v1/brands/${encodeURIComponent(id)}`, { body: request }),
    remove: (id: string) => sendJson<void>('DELETE', `/v1/brands/${encodeURIComponent(id)}`),
    makeDefault: (id: string) =>
      sendJson<Brand>('POST', `/v1/brands/${encodeURIComponent(id)}/default`),
  },

  uploads: {
    /** The raw file as the body; the server decides the kind from the bytes. */
    create: (file: Blob, filename: string, sheet?: string | number) =>
      sendJson<Upload>('POST', '/v1/uploads', {
        body: file,
        query: { filename, sheet: sheet === undefined ? undefined : String(sheet) },
      }),
    /** The same upload read with another sheet (by index or name), without sending it again. */
    describe: (id: string, sheet?: string | number) =>
      getJson<Upload>(`/v1/uploads/${encodeURIComponent(id)}`, {
        query: { sheet: sheet === undefined ? undefined : String(sheet) },
      }),
    /** Rows past the preview's first ones (the row picker, a problem in row 500). */
    rows: (id: string, query: { sheet?: string | null; offset: number; limit: number }) =>
      getJson<UploadRows>(`/v1/uploads/${encodeURIComponent(id)}/rows`, {
        query: { sheet: query.sheet ?? undefined, offset: query.offset, limit: query.limit },
      }),
    /** Changes one cell in the upload (this batch's copy of the data, not the user's file). */
    editCell: (id: string, body: CellEditBody) =>
      sendJson<Upload>('PUT', `/v1/uploads/${encodeURIComponent(id)}/cells`, { body }),
  },

  batches: {
    list: (limit = 200) => getJson<Batch[]>('/v1/render-batches', { query: { limit } }),
    get: (id: string) => getJson<Batch>(`/v1/render-batches/${encodeURIComponent(id)}`),
    create: (request: CreateBatchRequest) =>
      sendJson<BatchAccepted>('POST', '/v1/render-batches', { body: request }),
    preflight: (request: CreateBatchRequest) =>
      sendJson<PreflightResult>('POST', '/v1/render-batches/preflight', { body: request }),
    manifest: (id: string, query: { cursor?: string; limit?: number; status?: RowStatus }) =>
      getJson<ManifestPage>(`/v1/render-batches/${encodeURIComponent(id)}/renders`, { query }),
    bundle: (id: string) =>
      getJson<BundleLinkT>(`/v1/render-batches/${encodeURIComponent(id)}/bundle`),
    replay: (id: string) =>
      sendJson<Batch>('POST', `/v1/render-batches/${encodeURIComponent(id)}/replay`),
    cancel: (id: string) =>
      sendJson<Batch>('POST', `/v1/render-batches/${encodeURIComponent(id)}/cancel`),
    remove: (id: string) =>
      sendJson<void>('DELETE', `/v1/render-batches/${encodeURIComponent(id)}`),
    templateFields: (templateId: string) =>
      getJson<TemplateFields>('/v1/render-batches/template-fields', { query: { templateId } }),
    /** A signed link to the one-row CSV (downloads carry no headers). */
    templateFieldsCsvLink: (templateId: string) =>
      signedLink(withQuery('/v1/render-batches/template-fields', { templateId, format: 'csv' })),
  },

  /** Workspace templates (`wtpl_…`): forks of built-ins and imported packs, edited in the editor. */
  workspace: {
    list: (query: CatalogQuery = {}) =>
      getJson<WorkspaceTemplateItem[]>(withQuery('/v1/templates', { ...query })),
    get: (id: string) =>
      getJson<WorkspaceTemplateDetail>(`/v1/templates/${encodeURIComponent(id)}`),
    /** Forks a built-in or a workspace template into a new workspace template. */
    fork: (id: string, name?: string) =>
      sendJson<WorkspaceTemplateDetail>('POST', `/v1/catalog/${encodeURIComponent(id)}/fork`, {
        body: name ? { name } : {},
      }),
    patch: (id: string, patch: TemplatePatch) =>
      sendJson<WorkspaceTemplateDetail>('PATCH', `/v1/templates/${encodeURIComponent(id)}`, {
        body: patch,
      }),
    remove: (id: string) => sendJson<void>('DELETE', `/v1/templates/${encodeURIComponent(id)}`),
    /** The engine's own render of an unsaved draft (free, UI session only). */
    preview: async (
      id: string,
      request: {
        template: Template;
        values: Record<string, unknown>;
        target: Ratio;
        width: number;
        /** The page of a multi-page layout, from 1. */
        page: number;
      },
      signal?: AbortSignal,
    ): Promise<{ blob: Blob; boxes: DrawnBox[] }> => {
      const response = await send('POST', `/v1/templates/${encodeURIComponent(id)}/preview`, {
        body: request,
        headers: { Accept: 'image/jpeg, application/problem+json' },
        ...(signal ? { signal } : {}),
      });
      // Where the engine drew each layer: the editor outlines a stack's children by them.
      const boxes = parseDrawnBoxes(response.headers.get(DRAWN_BOXES_HEADER));
      return { blob: await response.blob(), boxes };
    },
    /** Adds an image to the template; layers name it as `{ asset }`. */
    addAsset: (id: string, file: Blob) =>
      sendJson<AssetCreated>('POST', `/v1/templates/${encodeURIComponent(id)}/assets`, {
        body: file,
      }),
    /** The path of one of the template's images, scaled down to `width`; show it with useSignedLink. */
    assetPath: (id: string, name: string, width: number) =>
      withQuery(`/v1/templates/${encodeURIComponent(id)}/assets/${encodeURIComponent(name)}`, {
        width,
      }),
    /** A signed link to the template pack (a zip): downloads carry no headers. */
    packLink: (id: string) => signedLink(`/v1/templates/${encodeURIComponent(id)}/pack`),
    importPack: (zip: Blob) =>
      sendJson<WorkspaceTemplateDetail>('POST', '/v1/templates/import', {
        body: zip,
        headers: { 'Content-Type': 'application/zip' },
      }),
  },

  fonts: {
    list: () => getJson<FontList>('/v1/fonts'),
    /** The font file as the raw body; the server reads its family, weight and scripts. */
    upload: (file: Blob, name: string) =>
      sendJson<CustomFont>('POST', '/v1/fonts', { body: file, query: { name } }),
    remove: (id: string) => sendJson<void>('DELETE', `/v1/fonts/${encodeURIComponent(id)}`),
  },

  /** The path of a stored output; show it with useSignedLink, save it with outputLink. */
  outputPath: (outputKey: string) => `/v1/outputs/${encodeURIComponent(outputKey)}`,
  /** A signed link to a stored output (downloads carry no headers). */
  outputLink: (outputKey: string) => signedLink(`/v1/outputs/${encodeURIComponent(outputKey)}`),
  /** A small JPEG of a stored output (the results table shows dozens at once). */
  outputThumbPath: (outputKey: string, width = 96) =>
    withQuery(`/v1/outputs/${encodeURIComponent(outputKey)}`, { width }),

  system: {
    get: () => getJson<SystemInfo>('/v1/system'),
    putPreferences: (preferences: Preferences) =>
      sendJson<Preferences>('PUT', '/v1/system/preferences', { body: preferences }),
    imageUrls: () => getJson<ImageUrlSettings>('/v1/system/image-urls'),
    putImageUrls: (settings: ImageUrlSettings) =>
      sendJson<ImageUrlSettings>('PUT', '/v1/system/image-urls', { body: settings }),
  },

  /** Settings → Team service (this computer's app only; a team service has none). */
  previewLinks: {
    rotateSecret: () =>
      sendJson<{ rotatedAt: string }>('POST', '/v1/preview-links/rotate-secret', { body: {} }),
  },
  webhooks: {
    list: () => getJson<{ items: Webhook[] }>('/v1/webhooks'),
    create: (body: { url: string; events: Webhook['events'] }) =>
      sendJson<CreatedWebhook>('POST', '/v1/webhooks', { body }),
    remove: (id: string) => send('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`),
    deliveries: () =>
      getJson<{ items: WebhookDelivery[] }>(withQuery('/v1/webhooks/deliveries', { limit: 20 })),
  },
  teamService: {
    get: () => getJson<TeamServiceStatus>('/v1/team-service'),
    save: (update: TeamServiceUpdate) =>
      sendJson<TeamServiceStatus>('PUT', '/v1/team-service', { body: update }),
    check: () => sendJson<TeamServiceCheck>('POST', '/v1/team-service/check'),
    open: () => sendJson<TeamServiceLink>('POST', '/v1/team-service/open'),
  },
};

/**
 * Live progress of a batch over server-sent events. Calls `onProgress` for every event and
 * `onEnd` once with the terminal batch; reconnects by itself (EventSource) while the batch runs.
 */
export function subscribeBatchEvents(
  id: string,
  handlers: {
    onProgress: (event: BatchProgressEvent) => void;
    onEnd: (batch: Batch) => void;
    onError?: () => void;
  },
): () => void {
  let source: EventSource | null = null;
  let stopped = false;
  // EventSource sends no headers, so the stream is opened with a signed link.
  void signedLink(`/v1/render-batches/${encodeURIComponent(id)}/events`).then((link) => {
    if (stopped) return;
    const events = new EventSource(link);
    source = events;
    events.addEventListener('progress', (event) => {
      handlers.onProgress(JSON.parse((event as MessageEvent<string>).data) as BatchProgressEvent);
    });
    events.addEventListener('end', (event) => {
      events.close();
      handlers.onEnd(JSON.parse((event as MessageEvent<string>).data) as Batch);
    });
    events.onerror = () => handlers.onError?.();
  });
  return () => {
    stopped = true;
    source?.close();
  };
}

/** The curl/Python examples on the Local API screen use the server's real address. */
export function exampleRenderUrl(baseUrl: string): string {
  return `${baseUrl}/v1/render`;
}

export type { OutputFormat };
