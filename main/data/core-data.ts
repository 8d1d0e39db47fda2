import type { ManifestRow, RowStatus } from '../../shared/batch-schemas.js';
import type { QueuedRow, RowCounts } from '../batch/batch-queue.js';
import type { ApiKeysRepository } from '../store/api-keys-repository.js';
import type { BatchesRepository, BatchRecord } from '../store/batches-repository.js';
import type { BrandProfilesRepository } from '../store/brand-profiles-repository.js';
import type { IdempotencyRepository } from '../store/idempotency-repository.js';
import type { LedgerRepository } from '../store/ledger-repository.js';
import type { RendersRepository } from '../store/renders-repository.js';
import type { SettingsRepository } from '../store/settings-repository.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { UploadsRepository } from '../store/uploads-repository.js';
import type { AsyncPort } from './async-port.js';
import type { DataCommands } from './data-commands.js';

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
  list(options: Parameters<BatchesRepository['list']>[0]): Promise<BatchRecord[]>;
  /** Batches to continue after a restart. */
  unfinished(): Promise<BatchRecord[]>;
  update(...args: Parameters<BatchesRepository['update']>): Promise<void>;
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

/** Everything the core reads and writes, on SQLite (embedded) or PostgreSQL (cluster). */
export interface CoreData {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * How batch row outcomes are grouped into one commit on this store (batch/row-outcomes.ts):
   * the rule is the same in every mode, the numbers are the store's.
   */
  readonly commitGroup: { rows: number; windowMs: number };
  settings: AsyncPort<SettingsRepository>;
  apiKeys: AsyncPort<ApiKeysRepository>;
  ledger: AsyncPort<Omit<LedgerRepository, 'settleHeldRow' | 'debitRender' | 'hold'>>;
  idempotency: AsyncPort<IdempotencyRepository>;
  renders: AsyncPort<Pick<RendersRepository, 'get'>>;
  brandProfiles: AsyncPort<BrandProfilesRepository>;
  subscription: AsyncPort<SubscriptionRepository>;
  uploads: AsyncPort<UploadsRepository>;
  batches: BatchReads;
  commands: DataCommands;
  close(): Promise<void>;
}
