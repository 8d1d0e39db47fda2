import type pg from 'pg';
import type { DataCommands } from '../data-commands.js';
import { ACCOUNT_INITIALISED_SETTING, checkOpeningCredits } from '../rules/account-opening.js';
import { idempotencyCompletion, singleRenderRecord } from '../rules/single-render-commit.js';
import { completeClaim } from './idempotency-repository.js';
import { debitSingleRender, grantCredits } from './ledger-writes.js';
import { insertRender } from './renders-repository.js';
import { readSetting, writeSetting } from './settings-repository.js';
import { inTransaction } from './transaction.js';

export type AccountCommands = Pick<DataCommands, 'commitSingleRender' | 'initialiseAccount'>;

/** Single renders and the opening balance, one transaction each. */
export function postgresAccountCommands(pool: pg.Pool): AccountCommands {
  return {
    commitSingleRender: (commit) =>
      inTransaction(pool, async (client) => {
        const balance = await debitSingleRender(client, commit.renderId, 1, commit.apiKeyId);
        await insertRender(client, singleRenderRecord(commit));
        const completion = idempotencyCompletion(commit);
        if (completion) await completeClaim(client, completion);
        return { balance };
      }),

    async initialiseAccount(openingCredits) {
      checkOpeningCredits(openingCredits);
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
