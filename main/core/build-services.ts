import fs from 'node:fs';
import path from 'node:path';
import { BatchEvents } from '../batch/batch-events.js';
import { BatchOutputs } from '../batch/batch-outputs.js';
import { BatchService } from '../batch/batch-service.js';
import type { PreflightDeps } from '../batch/preflight.js';
import type { Catalog } from '../catalog/load-catalog.js';
import { TemplateLibrary } from '../catalog/template-library.js';
import type { CoreSettings } from '../config.js';
import type { CoreData } from '../data/core-data.js';
import { SubscriptionGate } from '../data/subscription-gate.js';
import { createImageReferenceResolver } from '../engine/image-reference.js';
import type { CustomFonts } from '../fonts/custom-fonts.js';
import { fontCoverageCheck } from '../fonts/font-coverage-check.js';
import { UploadService } from '../ingest/upload-service.js';
import { FolderObjectStore } from '../objects/folder-object-store.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { PreviewLinks } from '../preview-links/preview-links.js';
import { CreditReservations } from '../render/credit-reservations.js';
import type { RenderPool } from '../render/render-pool.js';
import type { ImageResolver, RenderService } from '../render/render-service.js';
import { SingleRenderService } from '../render/single-render-service.js';
import { WorkspaceTemplates } from '../workspace/workspace-templates.js';
import { buildRenderer, customFontsIn, type RendererServices } from './build-renderer.js';
import { builtInCatalog } from './built-in-catalog.js';
import type { BatchDispatch, CoreParts, SharedWorkspaceCopy } from './core-parts.js';
import { followedDefaultBrand, storedDefaultBrand, type DefaultBrand } from './default-brand.js';
import { inProcessDispatch } from './in-process-dispatch.js';

/** Every service of a core, made once from its parts by `buildServices`. */
export interface CoreServices {
  data: CoreData;
  pool: RenderPool;
  catalog: Catalog;
  workspace: WorkspaceTemplates;
  fonts: CustomFonts;
  /** Built-in and workspace templates by id. */
  templates: TemplateLibrary;
  renderer: RenderService;
  remoteImages: RendererServices['remoteImages'];
  imageUrlSettings: RendererServices['imageUrlSettings'];
  /** Resolves an image value (upload id, data: URI, absolute path) as renders do. */
  resolveImage: ImageResolver;
  uploads: UploadService;
  outputs: BatchOutputs;
  events: BatchEvents;
  /** Where outputs are kept: the data folder's `outputs`, or the cluster's shared store. */
  objects: ObjectStore;
  /** Where batch rows are drawn. */
  work: BatchDispatch;
  batches: BatchService;
  reservations: CreditReservations;
  singleRenders: SingleRenderService;
  /** Whether rendering may start (403 subscription-lapsed), asked by every front end. */
  subscription: SubscriptionGate;
  /** Signed preview links (when the parts asked for them). */
  previewLinks?: { previewLinks: PreviewLinks; rotatePreviewSecret: () => Promise<void> };
  /** Cluster mode: this node's copy of the shared workspace. */
  sharedWorkspace?: SharedWorkspaceCopy;
  /** What `preflight()` needs; spreadsheet rows come from the uploads unless `uploadRows` says. */
  preflightDeps(uploadRows?: PreflightDeps['uploadRows']): PreflightDeps;
  /**
   * Stops what the services run by themselves (the batch dispatch, the shared workspace and the
   * default brand's polls); the pool and the store are the front end's.
   */
  close(): Promise<void>;
}

/**
 * The composition recipe: every service a core offers, built once from the parts that differ by
 * mode (`CoreParts`), for the app and headless server, a cluster API node and the command line.
 * Each front end adds only its own (HTTP, progress bars, the cluster's roles).
 */
export async function buildServices(
  parts: CoreParts,
  settings: Pick<CoreSettings, 'openingCredits' | 'subscription'>,
): Promise<CoreServices> {
  const { data, store, pool, dataDir, cluster, log } = parts;
  await data.commands.initialiseAccount(settings.openingCredits);
  if (settings.subscription)
    await data.subscription.set({ status: settings.subscription, expiresAt: null });
  const subscription = new SubscriptionGate(data.subscription, parts.renewHint);

  const catalog = builtInCatalog(parts.catalog);
  const workspaceDir = path.join(dataDir, 'workspace-templates');
  let sharedWorkspace: SharedWorkspaceCopy | undefined;
  let defaultBrand: DefaultBrand | undefined;
  try {
    // In a cluster the local tables and folders are this node's copy of the shared workspace.
    sharedWorkspace = cluster?.workspace({
      mirror: store.workspaceMirror,
      assetsDir: (id) => path.join(workspaceDir, id, 'assets'),
      fontsDir: path.join(dataDir, 'fonts'),
    });
    await sharedWorkspace?.start();
    const workspace = new WorkspaceTemplates(
      store.workspaceTemplates,
      workspaceDir,
      sharedWorkspace,
    );
    const fonts = customFontsIn({ dir: dataDir, store }, sharedWorkspace);
    workspace.addCheck(fontCoverageCheck(fonts));
    const templates = new TemplateLibrary(catalog, workspace);
    const uploads = new UploadService(
      data,
      path.join(dataDir, 'uploads'),
      cluster ? { objects: cluster.objects, cache: cluster.uploadCache } : undefined,
    );
    const anyImage = createImageReferenceResolver({
      uploadPath: (id: string) => uploads.imagePath(id),
      allowRemote: false,
      protectedDirs: [dataDir],
    });
    const resolveImage = parts.restrictImages ? parts.restrictImages(anyImage) : anyImage;
    defaultBrand = cluster ? await followedDefaultBrand(data) : storedDefaultBrand(store);
    const { renderer, remoteImages, imageUrlSettings } = buildRenderer({
      templates,
      pool,
      defaultBrand: defaultBrand.current,
      resolveImage,
      fonts,
      settings: data.settings,
      cacheDir: path.join(dataDir, 'cache'),
      ...(parts.imageUrls ? { imageUrls: parts.imageUrls } : {}),
    });
    const outputs = new BatchOutputs(path.join(dataDir, 'outputs'));
    // Outputs keep their folder layout (outputs/batches/<id>/<row>.png); the store reads them.
    fs.mkdirSync(outputs.outputsDir, { recursive: true });
    const objects = cluster?.objects ?? (await FolderObjectStore.open(outputs.outputsDir));
    const events = new BatchEvents();
    const work = (cluster?.dispatch ?? inProcessDispatch)({
      data,
      renderer,
      outputs,
      objects,
      events,
      uploads,
      resolveImage,
      pool,
      log,
    });
    const batches = new BatchService({
      data,
      renderer,
      work,
      outputs,
      objects,
      mode: cluster ? 'cluster' : 'embedded',
      countRows: (id, sheet) => uploads.countRows(id, sheet),
      unpackImages: (id, destination) => uploads.unpackImages(id, destination),
      protectedDirs: [dataDir],
    });
    const reservations = new CreditReservations(async () => (await data.ledger.account()).balance);
    const singleRenders = new SingleRenderService({
      data,
      renderer,
      reservations,
      outputs: objects,
    });
    const previewLinks = parts.previewLinks
      ? await previewLinkService({ data, renderer, singleRenders, objects, subscription })
      : undefined;
    const brand = defaultBrand;
    const shared = sharedWorkspace;
    return {
      data,
      pool,
      catalog,
      workspace,
      fonts,
      templates,
      renderer,
      remoteImages,
      imageUrlSettings,
      resolveImage,
      uploads,
      outputs,
      events,
      objects,
      work,
      batches,
      reservations,
      singleRenders,
      subscription,
      ...(previewLinks ? { previewLinks } : {}),
      ...(shared ? { sharedWorkspace: shared } : {}),
      preflightDeps: (uploadRows = (id, sheet) => uploads.rowsFor(id, sheet)) => ({
        data,
        renderer,
        resolveImage,
        protectedDirs: [dataDir],
        unpackImages: (id, destination) => uploads.unpackImages(id, destination),
        scratchDir: path.join(dataDir, 'cache', 'preflight'),
        uploadRows,
      }),
      async close() {
        shared?.stop();
        brand.stop();
        await work.close();
      },
    };
  } catch (error) {
    sharedWorkspace?.stop();
    defaultBrand?.stop();
    throw error;
  }
}

/**
 * Preview links and the secret they are signed with; loaded only by a core that serves them (a
 * command never does).
 */
async function previewLinkService(
  deps: Omit<ConstructorParameters<typeof PreviewLinks>[0], 'signer'>,
): Promise<NonNullable<CoreServices['previewLinks']>> {
  const [{ PreviewLinks }, { PreviewLinkSigner }, { previewSecret }] = await Promise.all([
    import('../preview-links/preview-links.js'),
    import('../preview-links/preview-link-signer.js'),
    import('../preview-links/preview-secret.js'),
  ]);
  const secret = previewSecret(deps.data.settings);
  return {
    previewLinks: new PreviewLinks({ ...deps, signer: new PreviewLinkSigner(secret.current) }),
    rotatePreviewSecret: secret.rotate,
  };
}
