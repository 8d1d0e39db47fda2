import type pg from 'pg';
import type { DataCommands } from '../data-commands.js';
import { completeClaim } from './idempotency-repository.js';
import { debitSingleRender, grantCredits } from './ledger-writes.js';
import { insertRender } from './renders-repository.js';
import { readSetting, writeSetting } from './settings-repository.js';
import { inTransaction } from './transaction.js';

export type AccountCommands = Pick<DataCommands, 'commitSingleRender' | 'initialiseAccount'>;

/** The embedded store's marker, under the same key: the account is opened once, ever. */
const ACCOUNT_INITIALISED_SETTING = 'account.initialised';

/** Single renders and the opening balance, one transaction each. */
export function postgresAccountCommands(pool: pg.Pool): AccountCommands {
  return {
    commitSingleRender: (commit) =>
      inTransaction(pool, async (client) => {
        const balance = await debitSingleRender(client, commit.renderId, 1, commit.apiKeyId);
        await insertRender(client, {
          id: commit.renderId,
          templateId: commit.templateId,
          ratio: commit.ratio,
          format: commit.format,
          apiKeyId: commit.apiKeyId,
          batchId: null,
          rowIndex: null,
          outputKey: null,
          bytes: commit.bytes,
          createdAt: (commit.idempotency?.now ?? new Date()).toISOString(),
        });
        if (commit.idempotency) {
          await completeClaim(client, {
            apiKeyId: commit.apiKeyId,
            key: commit.idempotency.key,
            renderId: commit.renderId,
            contentType: commit.idempotency.contentType,
            outputPath: commit.idempotency.outputRef,
            now: commit.idempotency.now,
          });
        }
        return { balance };
      }),

    async initialiseAccount(openingCredits) {
      if (!Number.isSafeInteger(openingCredits) || openingCredits < 0) {
        throw new RangeError(
          `The opening balance must be a whole number of credits, not ${openingCredits}.`,
        );
      }
      return inTransaction(pool, async (client) => {
        // Nodes starting together queue on the account row; the first one grants.
        await client.query('SELECT 1 FROM account WHERE id = 1 FOR UPDATE');
        if ((await readSetting(client, ACCOUNT_INITIALISED_SETTING)) !== null)
          return { granted: 0 };
        const entries = await client.query<{ any: boolean }>(
          'SELECT EXISTS (SELECT 1 FROM ledger) AS any',
        );
        const hasEntries = entries.rows[0]?.any ?? false;
        if (!hasEntries && openingCredits > 0) {
          await grantCredits(client, openingCredits, 'Opening balance', null);
        }
        await writeSetting(client, ACCOUNT_INITIALISED_SETTING, new Date().toISOString());
        return { granted: hasEntries ? 0 : openingCredits };
      });
    },
  };
}
