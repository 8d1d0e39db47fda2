import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Ratio } from '../../shared/template-format.js';
import type { RenderService } from '../render/render-service.js';
import type { CatalogEntry } from './load-catalog.js';

/** Thumbnails are this wide; the layout is drawn at full size and scaled down. */
export const THUMBNAIL_WIDTH = 480;
/** Bump when the engine's drawing changes, so cached thumbnails are redrawn. */
const THUMBNAIL_REVISION = 2;

/**
 * Renders each template × ratio once from its sample values and keeps the PNG on disk, keyed by
 * a hash of the template so an edited template gets a new thumbnail.
 */
export class ThumbnailCache {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly dir: string,
    private readonly renderer: RenderService,
  ) {}

  async file(entry: CatalogEntry, ratio: Ratio): Promise<string> {
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify([THUMBNAIL_REVISION, THUMBNAIL_WIDTH, ratio, entry.template]))
      .digest('hex')
      .slice(0, 32);
    const file = path.join(this.dir, `${entry.template.id}-${ratio}-${key}.png`);
    if (fs.existsSync(file)) return file;
    const pending = this.inFlight.get(file);
    if (pending) return pending;
    const work = this.render(entry, ratio, file).finally(() => this.inFlight.delete(file));
    this.inFlight.set(file, work);
    return work;
  }

  private async render(entry: CatalogEntry, ratio: Ratio, file: string): Promise<string> {
    const job = this.renderer.prepare({
      templateId: entry.template.id,
      values: entry.template.sampleValues,
      target: ratio,
      format: 'png',
      outputWidth: THUMBNAIL_WIDTH,
    });
    const result = await this.renderer.run(job, { lane: 'interactive' });
    fs.mkdirSync(this.dir, { recursive: true });
    const temp = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
    fs.writeFileSync(temp, result.bytes);
    fs.renameSync(temp, file);
    return file;
  }
}
