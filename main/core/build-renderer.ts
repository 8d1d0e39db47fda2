import path from 'node:path';
import type { BrandProfile } from '../../shared/brand-profile.js';
import type { CoreData } from '../data/core-data.js';
import { CustomFonts } from '../fonts/custom-fonts.js';
import { ImageUrlCache } from '../remote-images/image-url-cache.js';
import type { ImageUrlFetcher } from '../remote-images/image-url-fetcher.js';
import { imageUrlSettingsSource } from '../remote-images/image-url-settings.js';
import { RemoteImages } from '../remote-images/remote-images.js';
import type { RenderPool } from '../render/render-pool.js';
import {
  RenderService,
  type ImageResolver,
  type TemplateLookup,
} from '../render/render-service.js';
import type { Store } from '../store/create-store.js';
import type { SharedWorkspace } from '../workspace/shared-workspace.js';
import { BUNDLED_FONTS_DIR } from './install-paths.js';

/**
 * A node's own folder and the SQLite store in it, where its workspace templates and uploaded
 * fonts live (in a cluster: its copy of the shared workspace).
 */
export interface LocalFolder {
  dir: string;
  store: Store;
}

/** How image values that are http(s) URLs are fetched. */
export interface ImageUrlParts {
  /** `--allow-image-urls`: on for this command, whatever the saved setting says. */
  alwaysOn?: boolean;
  /** Tests only: a fetcher whose address rules let a loopback server stand in for a host. */
  fetcher?: ImageUrlFetcher;
}

/** The uploaded fonts of a node's folder (`<dir>/fonts`), beside the bundled ones. */
export function customFontsIn(folder: LocalFolder, shared?: SharedWorkspace): CustomFonts {
  return new CustomFonts(
    folder.store.customFonts,
    path.join(folder.dir, 'fonts'),
    BUNDLED_FONTS_DIR,
    shared,
  );
}

export interface RendererParts {
  templates: TemplateLookup;
  pool: RenderPool;
  /** Callers that name no brand (thumbnails, editor previews) draw with this one. */
  defaultBrand: () => BrandProfile;
  resolveImage: ImageResolver;
  fonts: CustomFonts;
  /** Where the image URL setting is saved: the data's settings, so every node follows it. */
  settings: CoreData['settings'];
  /** The node's cache folder; fetched images are kept in its `image-urls`. */
  cacheDir: string;
  imageUrls?: ImageUrlParts;
}

export interface RendererServices {
  renderer: RenderService;
  remoteImages: RemoteImages;
  /** The image URL setting as renders read it, and how a saved change is made to apply now. */
  imageUrlSettings: ReturnType<typeof imageUrlSettingsSource>;
}

/**
 * The render service every mode draws with: the same fonts, image URL fetching and template
 * lookup, whether it serves the API, a command or a cluster worker's chunks.
 */
export function buildRenderer(parts: RendererParts): RendererServices {
  const imageUrlSettings = imageUrlSettingsSource(
    parts.settings,
    parts.imageUrls?.alwaysOn ? { override: { enabled: true } } : {},
  );
  const remoteImages = new RemoteImages({
    cache: new ImageUrlCache(path.join(parts.cacheDir, 'image-urls')),
    settings: imageUrlSettings.read,
    ...(parts.imageUrls?.fetcher ? { fetcher: parts.imageUrls.fetcher } : {}),
  });
  const renderer = new RenderService({
    templates: parts.templates,
    pool: parts.pool,
    brandProfile: parts.defaultBrand,
    resolveImage: parts.resolveImage,
    customFonts: () => parts.fonts.faces(),
    remoteImages,
  });
  return { renderer, remoteImages, imageUrlSettings };
}
