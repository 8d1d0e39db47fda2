import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { RenderRequest } from '../../shared/api-schemas.js';
import { brandProfileFor } from '../brand/named-brand.js';
import type { CoreData } from '../data/core-data.js';
import { singleRenderKey } from '../batch/output-address.js';
import type { BrandFill } from '../engine/resolve-values.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { CreditReservations } from './credit-reservations.js';
import { newRenderId } from '../data/ids.js';
import type { RenderService } from './render-service.js';

export interface SingleRenderDeps {
  data: CoreData;
  renderer: RenderService;
  reservations: CreditReservations;
  /** Where results kept for Idempotency-Key replays live (`renders/<id>.<ext>`). */
  outputs: ObjectStore;
}

export interface SingleRenderInput {
  request: RenderRequest;
  apiKeyId: string;
  /** With a key, the result is kept for replays and the key's other uses are checked. */
  idempotency?: { key: string; fingerprint: string };
}

export type SingleRenderResult =
  | {
      replayed: true;
      renderId: string;
      contentType: string;
      bytes: Uint8Array;
      balance: number;
    }
  | {
      replayed: false;
      renderId: string;
      contentType: string;
      bytes: Uint8Array;
      balance: number;
      missingGlyphs: readonly string[];
      brandFill: readonly BrandFill[];
    };

/**
 * POST /v1/render as a service: idempotency, a credit reserved while drawing, the render, the
 * durable write of a result kept for replays, and the debit with its render record and
 * idempotency record in one transaction. The route only translates HTTP.
 */
export class SingleRenderService {
  constructor(private readonly deps: SingleRenderDeps) {}

  async render(input: SingleRenderInput): Promise<SingleRenderResult> {
    const { data, renderer, reservations, outputs } = this.deps;
    const { request, apiKeyId, idempotency } = input;
    if (idempotency) {
      const replay = await this.claim(apiKeyId, idempotency);
      if (replay) return replay;
    }

    let release: (() => void) | undefined;
    let outputKey: string | undefined;
    let committed = false;
    try {
      const brandFill: BrandFill[] = [];
      const job = await renderer.prepareWithImageUrls(request, {
        brand: await brandProfileFor(data.brandProfiles, request.brand),
        brandFill,
      });
      release = await reservations.reserve(1);
      const result = await renderer.run(job, { lane: 'interactive' });
      const renderId = newRenderId();
      const now = new Date();
      if (idempotency) {
        outputKey = singleRenderKey(renderId, request.format, result.contentType);
        await outputs.put(outputKey, result.bytes, { contentType: result.contentType });
      }
      const { balance } = await data.commands.commitSingleRender({
        renderId,
        apiKeyId,
        templateId: request.templateId,
        ratio: job.ratio,
        format: request.format,
        bytes: result.bytes.byteLength,
        ...(idempotency && outputKey
          ? {
              idempotency: {
                key: idempotency.key,
                contentType: result.contentType,
                outputRef: outputKey,
                now,
              },
            }
          : {}),
      });
      committed = true;
      return {
        replayed: false,
        renderId,
        contentType: result.contentType,
        bytes: result.bytes,
        balance,
        missingGlyphs: result.report.missingGlyphs,
        brandFill,
      };
    } finally {
      release?.();
      if (!committed) {
        if (idempotency)
          await data.idempotency.abandon({ apiKeyId, key: idempotency.key }).catch(() => false);
        if (outputKey !== undefined) await outputs.delete(outputKey).catch(() => undefined);
      }
    }
  }

  /** Claims the key; returns the stored result when this request was already answered. */
  private async claim(
    apiKeyId: string,
    idempotency: { key: string; fingerprint: string },
  ): Promise<SingleRenderResult | null> {
    const { data } = this.deps;
    const claim = await data.idempotency.claim({
      apiKeyId,
      key: idempotency.key,
      requestHash: idempotency.fingerprint,
      now: new Date(),
    });
    if (claim.state === 'claimed') {
      if (claim.staleOutputPath) await this.removeKept(claim.staleOutputPath);
      return null;
    }
    if (claim.state === 'mismatch') {
      throw new AppError(
        'idempotency-key-reused',
        'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
      );
    }
    if (claim.state === 'in-progress') {
      throw new AppError(
        'idempotency-key-in-use',
        'A request with this Idempotency-Key is still rendering. Retry in a second to get its result.',
        { headers: { 'Retry-After': '1' } },
      );
    }
    const { record } = claim;
    const bytes = await this.readKept(record.outputPath);
    if (!bytes)
      throw new AppError('internal', 'The stored result of this Idempotency-Key is missing.');
    return {
      replayed: true,
      renderId: record.renderId,
      contentType: record.contentType,
      bytes,
      balance: (await data.ledger.account()).balance,
    };
  }

  /** Results kept before outputs became store keys were absolute file paths. */
  private async readKept(ref: string): Promise<Buffer | null> {
    if (path.isAbsolute(ref)) return fs.existsSync(ref) ? fs.readFileSync(ref) : null;
    return this.deps.outputs.get(ref);
  }

  private async removeKept(ref: string): Promise<void> {
    if (path.isAbsolute(ref)) fs.rmSync(ref, { force: true });
    else await this.deps.outputs.delete(ref);
  }
}
