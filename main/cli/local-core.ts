import type { CoreServices } from '../core/build-services.js';
import type { CoreData } from '../data/core-data.js';
import type { ImageUrlParts } from '../core/build-renderer.js';
import { openDataFolder } from '../core/open-data-folder.js';
import type { RenderPoolFactory } from '../core/render-pool-factory.js';
import type { ImageResolver } from '../render/render-service.js';
import type { Store } from '../store/create-store.js';
import type { CliSettings } from './cli-options.js';
import type { CliWebhooks } from './cli-webhooks.js';

export { BUNDLED_FONTS_DIR } from '../core/install-paths.js';

/**
 * Who the ledger and the batch list say made a command-line render: the data folder's owner at
 * the keyboard, as `ui-session` is for the desktop window.
 */
export const CLI_PRINCIPAL = 'cli';

/** What a command works with: every service of the core, over the data folder it named. */
export interface LocalCore extends CoreServices {
  dataDir: string;
  store: Store;
  /** Throws 403 subscription-lapsed as the API's render routes do. */
  assertSubscription(): Promise<void>;
  close(): Promise<void>;
}

export interface LocalCoreOptions {
  /** Narrows which image values may be read (the MCP server's allowed folders). */
  restrictImages?: (resolver: ImageResolver) => ImageResolver;
  /** Tests only: a fetcher whose address rules let a loopback server stand in for a host. */
  imageUrlFetcher?: ImageUrlParts['fetcher'];
  /**
   * The command runs batches (batch, mcp): they queue the data folder's webhook events as the
   * app's do, and what is due is sent before `close()` returns (cli-webhooks.ts).
   */
  webhooks?: boolean;
}

/**
 * The embedded core's services in this process, without the HTTP server: built by the same
 * recipe (`buildServices`) as the server's, over the same data folder. The pool is made first by
 * the command's factory, so its threads load the engine while the rest is loaded here.
 */
export async function composeLocalCore(
  settings: CliSettings,
  makePool: RenderPoolFactory,
  options: LocalCoreOptions = {},
): Promise<LocalCore> {
  const { config, store, pool } = openDataFolder(settings, makePool);
  let webhooks: CliWebhooks | undefined;
  let services: CoreServices | undefined;
  // Closed with the store: it holds the WAL file open for the commits' fsyncs.
  let sqliteData: CoreData | undefined;
  const closeStore = async () => {
    await sqliteData?.close();
    store.close();
  };
  try {
    // Loaded once the render threads are starting, so that loading the engine there and the
    // services here overlap (a cached batch that renders 3 rows is mostly this start).
    const [{ buildServices }, { sqliteCoreData }, webhooksModule] = await Promise.all([
      import('../core/build-services.js'),
      import('../data/sqlite-core-data.js'),
      options.webhooks ? import('./cli-webhooks.js') : undefined,
    ]);
    sqliteData = sqliteCoreData(store);
    webhooks = await webhooksModule?.cliWebhooks(sqliteData);
    // Another process (the app) may be rendering on this folder: its claims are live, so they
    // are left to expire rather than cleared as the server does at its start.
    const imageUrls: ImageUrlParts = {
      ...(config.allowImageUrls ? { alwaysOn: true } : {}),
      ...(options.imageUrlFetcher ? { fetcher: options.imageUrlFetcher } : {}),
    };
    services = await buildServices(
      {
        dataDir: config.dataDir,
        store,
        data: webhooks?.data ?? sqliteData,
        pool,
        catalog: { lazy: true },
        imageUrls,
        ...(options.restrictImages ? { restrictImages: options.restrictImages } : {}),
        renewHint: 'Renew it in the app, then run the command again.',
        log: (message, detail) => console.error(message, detail),
      },
      config,
    );
    const started = services;
    let closing: Promise<void> | undefined;
    return {
      ...started,
      dataDir: config.dataDir,
      store,
      assertSubscription: () => started.subscription.assertActive(),
      close() {
        closing ??= (async () => {
          await started.close();
          // After the runner, whose last rows and batch end queue their events as it stops.
          await Promise.all([pool.close(), webhooks?.sendBeforeExit()]);
          await closeStore();
        })();
        return closing;
      },
    };
  } catch (error) {
    await services?.close();
    await webhooks?.close();
    await pool.close();
    await closeStore();
    throw error;
  }
}
