import type { Migration } from '../migrate.js';
import { initial } from './0001-initial.js';
import { brandProfiles } from './0002-brand-profiles.js';
import { subscription } from './0003-subscription.js';
import { uploads } from './0004-uploads.js';
import { batches } from './0005-batches.js';
import { batchRowFileNames } from './0006-batch-row-file-names.js';
import { workspaceTemplates } from './0007-workspace-templates.js';
import { customFonts } from './0008-custom-fonts.js';
import { batchRowRenderIds } from './0009-batch-row-render-ids.js';
import { apiKeyScopes } from './0010-api-key-scopes.js';
import { outputFormats } from './0011-output-formats.js';
import { batchHolds } from './0012-batch-holds.js';
import { batchSheetOptions } from './0013-batch-sheet-options.js';
import { webhooks } from './0014-webhooks.js';
import { batchTargets } from './0015-batch-targets.js';
import { batchSourceRows } from './0016-batch-source-rows.js';
import { batchBreakers } from './0017-batch-breakers.js';
import { batchSourceTotal } from './0018-batch-source-total.js';

/** Every migration, in version order. Append new ones; never edit or reorder released ones. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  brandProfiles,
  subscription,
  uploads,
  batches,
  batchRowFileNames,
  workspaceTemplates,
  customFonts,
  batchRowRenderIds,
  apiKeyScopes,
  outputFormats,
  batchHolds,
  batchSheetOptions,
  webhooks,
  batchTargets,
  batchSourceRows,
  batchBreakers,
  batchSourceTotal,
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;
