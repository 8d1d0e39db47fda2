import type { PostgresMigration } from '../migrate.js';
import { initial } from './0001-initial.js';
import { apiKeyScopes } from './0002-api-key-scopes.js';
import { clusterCoordination } from './0003-cluster-coordination.js';
import { sharedWorkspace } from './0004-shared-workspace.js';
import { uiLaunchTokens } from './0005-ui-launch-tokens.js';
import { outputFormats } from './0006-output-formats.js';
import { batchSheetOptions } from './0007-batch-sheet-options.js';
import { workspacePurge } from './0008-workspace-purge.js';
import { batchSourceRows } from './0009-batch-source-rows.js';
import { batchTargets } from './0010-batch-targets.js';
import { batchBreakers } from './0011-batch-breakers.js';
import { webhooks } from './0012-webhooks.js';
import { batchSourceTotal } from './0013-batch-source-total.js';

/** Every migration, in version order. Append new ones; never edit or reorder released ones. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  initial,
  apiKeyScopes,
  clusterCoordination,
  sharedWorkspace,
  uiLaunchTokens,
  outputFormats,
  batchSheetOptions,
  workspacePurge,
  batchSourceRows,
  batchTargets,
  batchBreakers,
  webhooks,
  batchSourceTotal,
];

export const LATEST_POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;
