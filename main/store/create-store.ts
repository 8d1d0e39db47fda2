import { join } from 'node:path';
import { ACCOUNT_INITIALISED_SETTING, checkOpeningCredits } from '../data/rules/account-opening.js';
import { createApiKeysRepository } from './api-keys-repository.js';
import { createBatchesRepository } from './batches-repository.js';
import type { BatchesRepository } from './batches-repository.js';
import { createUploadsRepository } from './uploads-repository.js';
import { createWorkspaceTemplatesRepository } from './workspace-templates-repository.js';
import type { WorkspaceTemplatesRepository } from './workspace-templates-repository.js';
import type { UploadsRepository } from '../data/types/uploads.js';
import type { ApiKeysRepository } from '../data/types/api-keys.js';
import { createCustomFontsRepository } from './custom-fonts-repository.js';
import type { CustomFontsRepository } from './custom-fonts-repository.js';
import { createWorkspaceMirror, type WorkspaceMirror } from './workspace-mirror.js';
import { createBrandProfilesRepository } from './brand-profiles-repository.js';
import type { BrandProfilesRepository } from '../data/types/brand-profiles.js';
import { createIdempotencyRepository } from './idempotency-repository.js';
import type { IdempotencyRepository } from '../data/types/idempotency.js';
import { createLedgerRepository } from './ledger-repository.js';
import type { LedgerRepository } from './ledger-repository.js';
import { openDatabase } from './open-database.js';
import type { Database, OpenDatabaseOptions } from './open-database.js';
import { createRendersRepository } from './renders-repository.js';
import type { RendersRepository } from './renders-repository.js';
import { createSettingsRepository } from './settings-repository.js';
import type { SettingsRepository } from '../data/types/settings.js';
import { createSubscriptionRepository } from './subscription-repository.js';
import type { SubscriptionRepository } from '../data/types/subscription.js';

export const DATABASE_FILE_NAME = 'render-desk.db';
export const DEFAULT_OPENING_CREDITS = 100;

export interface Store {
  /** The connection, for transactions spanning repositories (`store.db.transaction(fn)`). */
  db: Database;
  file: string;
  settings: SettingsRepository;
  apiKeys: ApiKeysRepository;
  ledger: LedgerRepository;
  idempotency: IdempotencyRepository;
  renders: RendersRepository;
  brandProfiles: BrandProfilesRepository;
  subscription: SubscriptionRepository;
  uploads: UploadsRepository;
  batches: BatchesRepository;
  workspaceTemplates: WorkspaceTemplatesRepository;
  customFonts: CustomFontsRepository;
  /** Where a cluster node copies the shared workspace (unused in embedded mode). */
  workspaceMirror: WorkspaceMirror;
  close(): void;
}

/** Opens `<dataDir>/render-desk.db` (creating the folder and schema) and its repositories. */
export function createStore(dataDir: string, options: OpenDatabaseOptions = {}): Store {
  const file = join(dataDir, DATABASE_FILE_NAME);
  const db = openDatabase(file, options);
  return {
    db,
    file,
    settings: createSettingsRepository(db),
    apiKeys: createApiKeysRepository(db),
    ledger: createLedgerRepository(db),
    idempotency: createIdempotencyRepository(db),
    renders: createRendersRepository(db),
    brandProfiles: createBrandProfilesRepository(db),
    subscription: createSubscriptionRepository(db),
    uploads: createUploadsRepository(db),
    batches: createBatchesRepository(db),
    workspaceTemplates: createWorkspaceTemplatesRepository(db),
    customFonts: createCustomFontsRepository(db),
    workspaceMirror: createWorkspaceMirror(db),
    close() {
      if (db.open) db.close();
    },
  };
}

/**
 * Grants the opening balance (RENDER_DESK_CREDITS, default 100) to a new data directory, once.
 * "New" means no ledger entries and no marker: spending the balance to zero, or restarting with a
 * different RENDER_DESK_CREDITS, never grants it again. Returns what was granted (0 after the first time).
 */
export function initialiseAccount(
  store: Store,
  options: { openingCredits?: number } = {},
): { granted: number } {
  const openingCredits = options.openingCredits ?? DEFAULT_OPENING_CREDITS;
  checkOpeningCredits(openingCredits);
  const run = store.db.transaction((): number => {
    if (store.settings.get(ACCOUNT_INITIALISED_SETTING) !== null) return 0;
    const hasEntries = store.ledger.list({ limit: 1 }).entries.length > 0;
    if (!hasEntries && openingCredits > 0) {
      store.ledger.grant(openingCredits, { note: 'Opening balance' });
    }
    store.settings.set(ACCOUNT_INITIALISED_SETTING, new Date().toISOString());
    return hasEntries ? 0 : openingCredits;
  });
  return { granted: run.immediate() };
}
