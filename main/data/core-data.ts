import type { ManifestRow, RowStatus } from '../../shared/batch-schemas.js';
import type { QueuedRow, RowCounts } from '../batch/batch-queue.js';
import type { AsyncPort } from './async-port.js';
import type { DataCommands } from './data-commands.js';
import type { ApiKeysRepository } from './types/api-keys.js';
import type { BatchFields, BatchListOptions, BatchRecord } from './types/batch-record.js';
import type { BrandProfilesRepository } from './types/brand-profiles.js';
import type { IdempotencyRepository } from './types/idempotency.js';
import type { CreditLedger } from './types/ledger.js';
import type { RenderLookup } from './types/renders.js';
import type { SettingsRepository } from './types/settings.js';
import type { SubscriptionRepository } from './types/subscription.js';
import type { UploadsRepository } from './types/uploads.js';
import type { WebhooksRepository } from './types/webhooks.js';

/** A succeeded row as the bundle and the manifest read it. */
export interface SucceededRow {
  rowIndex: number;
  outputKey: string;
  fileName: string | null;
}

/**
 * Batches and their rows, as services read them. Writes that must commit together are
 * DataCommands; these are single statements.
 */
export interface BatchReads {
  newId(): string;
  get(id: string): Promise<BatchRecord | null>;
  list(options: BatchListOptions): Promise<BatchRecord[]>;
  /** Batches to continue after a restart. */
  unfinished(): Promise<BatchRecord[]>;
  update(id: string, fields: BatchFields): Promise<void>;
  counts(batchId: string): Promise<RowCounts>;
  manifest(id: string, cursor: number, limit: number, status?: RowStatus): Promise<ManifestRow[]>;
  /** Succeeded rows in rowIndex order, streamed (bundles of any size in bounded memory). */
  succeededRows(id: string): AsyncIterable<SucceededRow>;
  fileNames(id: string): Promise<string[]>;
  recordFields(id: string): Promise<string[]>;
  /**
   * Succeeded rows with their records, rowIndex `from` on, at most `limit` (sheets draw the rows
   * again, part by part).
   */
  succeededRecords(
    batchId: string,
    from: number,
    limit: number,
  ): Promise<{ rowIndex: number; record: Record<string, unknown> }[]>;
  /** Embedded runner: claims up to `limit` pending rows with a lease until `leaseUntil` (ms). */
  claim(batchId: string, limit: number, leaseUntil: number): Promise<QueuedRow[]>;
  /** Cluster worker: the rows of [from, to) not yet succeeded, failed or cancelled. */
  pendingInRange(batchId: string, from: number, to: number): Promise<QueuedRow[]>;
  releaseExpired(now: number, batchId?: string): Promise<number>;
  remove(id: string): Promise<boolean>;
}

/**
 * Everything the core reads and writes, on SQLite (embedded) or PostgreSQL (cluster). The
 * repositories are written once, in ./types, in the synchronous form the SQLite store implements
 * directly; services get their async form, which PostgreSQL implements.
 */
export interface CoreData {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * How batch row outcomes are grouped into one commit on this store (batch/row-outcomes.ts):
   * the rule is the same in every mode, the numbers are the store's.
   */
  readonly commitGroup: { rows: number; windowMs: number };
  settings: AsyncPort<SettingsRepository>;
  apiKeys: AsyncPort<ApiKeysRepository>;
  ledger: AsyncPort<CreditLedger>;
  idempotency: AsyncPort<IdempotencyRepository>;
  renders: AsyncPort<RenderLookup>;
  brandProfiles: AsyncPort<BrandProfilesRepository>;
  subscription: AsyncPort<SubscriptionRepository>;
  uploads: AsyncPort<UploadsRepository>;
  /** Outgoing webhooks and their delivery queue: kept with the data, so every node shares it. */
  webhooks: AsyncPort<WebhooksRepository>;
  batches: BatchReads;
  commands: DataCommands;
  close(): Promise<void>;
}
