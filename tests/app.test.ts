import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBatch, waitForBatch } from './helpers/batch-helpers.js';
import { startTestServer } from './helpers/test-server.js';
import { openFiles } from './helpers/open-files.js';

describe('closing a core', () => {
  it.runIf(process.platform === 'linux')(
    'closes the write-ahead log file its batch commits synced, instead of leaving it to the garbage collector',
    async () => {
      const server = await startTestServer();
      const wal = path.join(fs.realpathSync(server.core.dataDir), 'render-desk.db-wal');
      const { id } = await createBatch(server, {
        templateId: 'tmpl_quote_card',
        target: 'square',
        scale: 0.25,
        sourceType: 'json-array',
        source: { records: [{ quote: 'Một', author: 'A' }] },
      });
      expect((await waitForBatch(server, id)).status).toBe('succeeded');
      // The batch's commits are synced through the log file, held open between them.
      expect(openFiles()).toContain(wal);
      await server.stop();
      expect(openFiles().filter((file) => file.startsWith(wal))).toEqual([]);
    },
  );
});
