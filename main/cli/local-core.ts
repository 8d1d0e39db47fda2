import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BatchEvents } from '../batch/batch-events.js';
import type { BatchOutputs } from '../batch/batch-outputs.js';
import type { BatchRunner } from '../batch/batch-runner.js';
import type { BatchService } from '../batch/batch-service.js';
import type { PreflightDeps } from '../batch/preflight.js';
import type { UploadService } from '../ingest/upload-service.js';
import type { Catalog } from '../catalog/load-catalog.js';
import type { TemplateLibrary } from '../catalog/template-library.js';
import { DEFAULT_OPENING_CREDITS } from '../config.js';
import type { CoreData } from '../data/core-data.js';
import type { CustomFonts } from '../fonts/custom-fonts.js';
import { savedPreferences } from '../preferences.js';
import { defaultThreadCount, type RenderPool } from '../render/render-pool.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import type { SingleRenderService } from '../render/single-render-service.js';
import { createStore, type Store } from '../store/create-store.js';
import type { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import type { CliSettings } from './cli-options.js';
import type { CliWebhooks } from './cli-webhooks.js';
import type { ImageUrlFetcher } from '../remote-images/image-url-fetcher.js';
import { SubscriptionGate } from '../data/subscription-gate.js';

/**
 * Who the ledger and the batch list say made a command-line render: the data folder's owner at
 * the keyboard, as `ui-session` is for the desktop window.
 */
export const CLI_PRINCIPAL = 'cli';

/**
 * The built-in catalog and fonts, where the server finds them. Neither app.ts (the HTTP stack) nor
 * the engine's render-job.ts (canvas, sharp, every layer) is loaded into this thread for them.
 */
const CATALOG_DIR = fileURLToPath(new URL('../../templates/catalog', import.meta.url));
export const BUNDLED_FONTS_DIR = fileURLToPath(new URL('../../templates/fonts', import.meta.url));

export interface LocalCore {
  dataDir: string;
  store: Store;
  data: CoreData;
  catalog: Catalog;
  workspace: WorkspaceTemplates;
  fonts: CustomFonts;
  templates: TemplateLibrary;
  pool: RenderPool;
  renderer: RenderService;
  resolveImage: ImageResolver;
  uploads: UploadService;
  outputs: BatchOutputs;
  events: BatchEvents;
  runner: BatchRunner;
  batches: BatchService;
  singleRenders: SingleRenderService;
  /** What `preflight()` needs, reading spreadsheet rows with `uploadRows`. */
  preflightDeps(uploadRows: PreflightDeps['uploadRows']): PreflightDeps;
  /** Throws 403 subscription-lapsed as the API's render routes do. */
  assertSubscription(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded core's services in this process, without the HTTP server: the same store, data,
 * catalog, render pool, single-render service (credits, ledger) and batch runner that
 * `composeCore` wires for the server, over the same data folder. `pool` is made by the caller,
 * which can start it before anything else is loaded (a one-off render waits for its thread).
 */
export interface LocalCoreOptions {
  /** Narrows which image values may be read (the MCP server's allowed folders). */
  restrictImages?: (resolver: ImageResolver) => ImageResolver;
  /** Tests only: a fetcher whose address rules let a loopback server stand in for a host. */
  imageUrlFetcher?: ImageUrlFetcher;
  /**
   * The command runs batches (batch, mcp): they queue the data folder's webhook events as the
   * app's do, and what is due is sent before `close()` returns (cli-webhooks.ts).
   */
  webhooks?: boolean;
}

export async function composeLocalCore(
  settings: CliSettings,
  makePool: (threads: number) => RenderPool,
  options: LocalCoreOptions = {},
): Promise<LocalCore> {
  const { dataDir } = settings;
  fs.mkdirSync(dataDir, { recursive: true });
  const store = createStore(dataDir);
  let pool: RenderPool | undefined;
  let webhooks: CliWebhooks | undefined;
  try {
    const saved = savedPreferences((key) => store.settings.get(key));
    pool = makePool(settings.workers ?? saved.workers ?? defaultThreadCount());
    // Loaded once the render threads are starting, so that loading the engine there and the
    // services here overlap (a cached batch that renders 3 rows is mostly this start).
    const [
      { BatchEvents },
      { BatchOutputs },
      { BatchRunner, batchRowsInFlight },
      { BatchService },
      { UploadService },
      { loadCatalogLazily },
      { TemplateLibrary },
      { sqliteCoreData },
      { createImageReferenceResolver },
      { CustomFonts },
      { fontCoverageCheck },
      { FolderObjectStore },
      { CreditReservations },
      { RenderService },
      { SingleRenderService },
      { WorkspaceTemplates },
      { RemoteImages },
      { ImageUrlCache },
      { imageUrlSettingsSource },
      webhooksModule,
    ] = await Promise.all([
      import('../batch/batch-events.js'),
      import('../batch/batch-outputs.js'),
      import('../batch/batch-runner.js'),
      import('../batch/batch-service.js'),
      import('../ingest/upload-service.js'),
      import('../catalog/load-catalog.js'),
      import('../catalog/template-library.js'),
      import('../data/sqlite-core-data.js'),
      import('../engine/image-reference.js'),
      import('../fonts/custom-fonts.js'),
      import('../fonts/font-coverage-check.js'),
      import('../objects/folder-object-store.js'),
      import('../render/credit-reservations.js'),
      import('../render/render-service.js'),
      import('../render/single-render-service.js'),
      import('../workspace/workspace-templates.js'),
      import('../remote-images/remote-images.js'),
      import('../remote-images/image-url-cache.js'),
      import('../remote-images/image-url-settings.js'),
      options.webhooks ? import('./cli-webhooks.js') : undefined,
    ]);
    const sqliteData = sqliteCoreData(store);
    webhooks = await webhooksModule?.cliWebhooks(sqliteData);
    const data = webhooks?.data ?? sqliteData;
    const subscription = new SubscriptionGate(
      data.subscription,
      'Renew it in the app, then run the command again.',
    );
    // Another process (the app) may be rendering on this folder: its claims are live, so they
    // are left to expire rather than cleared as the server does at its start.
    await data.commands.initialiseAccount(openingCredits());

    const catalog = loadCatalogLazily(CATALOG_DIR);
    const workspace = new WorkspaceTemplates(
      store.workspaceTemplates,
      path.join(dataDir, 'workspace-templates'),
    );
    const fonts = new CustomFonts(
      store.customFonts,
      path.join(dataDir, 'fonts'),
      BUNDLED_FONTS_DIR,
    );
    workspace.addCheck(fontCoverageCheck(fonts));
    const templates = new TemplateLibrary(catalog, workspace);
    const uploads = new UploadService(data, path.join(dataDir, 'uploads'));
    const anyImage = createImageReferenceResolver({
      uploadPath: (id: string) => uploads.imagePath(id),
      allowRemote: false,
      protectedDirs: [dataDir],
    });
    const resolveImage = options.restrictImages ? options.restrictImages(anyImage) : anyImage;
    const renderer = new RenderService({
      templates,
      pool,
      brandProfile: () => store.brandProfiles.getDefault().profile,
      resolveImage,
      customFonts: () => fonts.faces(),
      // The app's setting and cache, as for the server; --allow-image-urls turns them on here.
      remoteImages: new RemoteImages({
        cache: new ImageUrlCache(path.join(dataDir, 'cache', 'image-urls')),
        settings: imageUrlSettingsSource(
          data.settings,
          settings.allowImageUrls ? { override: { enabled: true } } : {},
        ).read,
        ...(options.imageUrlFetcher ? { fetcher: options.imageUrlFetcher } : {}),
      }),
    });
    const outputs = new BatchOutputs(path.join(dataDir, 'outputs'));
    fs.mkdirSync(outputs.outputsDir, { recursive: true });
    const objects = await FolderObjectStore.open(outputs.outputsDir);
    const events = new BatchEvents();
    const runner = new BatchRunner({
      data,
      renderer,
      outputs,
      events,
      openRows: (batch) => uploads.openRows(batch),
      resolveImage,
      concurrency: batchRowsInFlight(pool.threads),
      log: (message, detail) => console.error(message, detail),
    });
    const batches = new BatchService({
      data,
      renderer,
      work: runner,
      outputs,
      objects,
      mode: 'embedded',
      countRows: (id, sheet) => uploads.countRows(id, sheet),
      unpackImages: (id, destination) => uploads.unpackImages(id, destination),
      protectedDirs: [dataDir],
    });
    const singleRenders = new SingleRenderService({
      data,
      renderer,
      reservations: new CreditReservations(async () => (await data.ledger.account()).balance),
      outputs: objects,
    });
    const startedPool = pool;
    let closing: Promise<void> | undefined;
    return {
      dataDir,
      store,
      data,
      catalog,
      workspace,
      fonts,
      templates,
      pool: startedPool,
      renderer,
      resolveImage,
      uploads,
      outputs,
      events,
      runner,
      batches,
      singleRenders,
      preflightDeps: (uploadRows) => ({
        data,
        renderer,
        resolveImage,
        protectedDirs: [dataDir],
        unpackImages: (id, destination) => uploads.unpackImages(id, destination),
        scratchDir: path.join(dataDir, 'cache', 'preflight'),
        uploadRows,
      }),
      assertSubscription: () => subscription.assertActive(),
      close() {
        closing ??= (async () => {
          await runner.close();
          // After the runner, whose last rows and batch end queue their events as it stops.
          await Promise.all([startedPool.close(), webhooks?.sendBeforeExit()]);
          store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await webhooks?.close();
    await pool?.close();
    store.close();
    throw error;
  }
}

/** A new data folder's opening balance, as the server grants it (RENDER_DESK_CREDITS). */
function openingCredits(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RENDER_DESK_CREDITS;
  const n = raw === undefined || raw === '' ? DEFAULT_OPENING_CREDITS : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_OPENING_CREDITS;
}
