import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TEXT_VALUE_CHARS } from '../../main/engine/text-limits.js';
import { ledgerBalance, productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

/**
 * A command reads its settings as the server does (config.ts): the render deadline, the
 * subscription and the opening credits follow the same environment variables.
 */
describe('the settings a render-desk command honours', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-settings-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(() => temp.remove());

  const render = (out: string, values: Record<string, unknown>, env: Record<string, string> = {}) =>
    runCli(
      [
        'render',
        '--template',
        REFERENCE,
        '--values',
        JSON.stringify(values),
        '--out',
        out,
        '--data-dir',
        dataDir,
      ],
      env,
    );

  it('stops a render that passes RENDER_DESK_RENDER_TIMEOUT, and charges nothing for it', async () => {
    // A headline of the longest value without a space: a second or more to break into lines.
    const slow = { ...productRow(1), headline: 'x'.repeat(MAX_TEXT_VALUE_CHARS) };
    const out = path.join(temp.dir, 'slow.png');
    const stopped = await render(out, slow, { RENDER_DESK_RENDER_TIMEOUT: '0.1' });
    expect(stopped.code, stopped.stderr).not.toBe(0);
    expect(stopped.stderr).toMatch(/longer than 0\.1 s and was stopped/);
    expect(fs.existsSync(out)).toBe(false);
    expect(ledgerBalance(dataDir).debited).toBe(0);

    // The same render under the default deadline completes: the setting was what stopped it.
    const done = await render(out, slow);
    expect(done.code, done.stderr).toBe(0);
    expect(fs.existsSync(out)).toBe(true);
  }, 120_000);

  it('takes --render-timeout over the environment', async () => {
    const slow = { ...productRow(2), headline: 'x'.repeat(MAX_TEXT_VALUE_CHARS) };
    const out = path.join(temp.dir, 'slow.png');
    const result = await runCli(
      [
        'render',
        '--template',
        REFERENCE,
        '--values',
        JSON.stringify(slow),
        '--out',
        out,
        '--data-dir',
        dataDir,
        '--render-timeout',
        '0.1',
      ],
      { RENDER_DESK_RENDER_TIMEOUT: '600' },
    );
    expect(result.stderr).toMatch(/longer than 0\.1 s and was stopped/);
  }, 120_000);

  it('pauses rendering with RENDER_DESK_SUBSCRIPTION=lapsed, as the server does (exit 3)', async () => {
    const out = path.join(temp.dir, 'paused.png');
    const result = await render(out, productRow(3), { RENDER_DESK_SUBSCRIPTION: 'lapsed' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/subscription has lapsed/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('opens a new data folder with RENDER_DESK_CREDITS and refuses a bad value (exit 2)', async () => {
    const out = path.join(temp.dir, 'card.png');
    const granted = await render(out, productRow(4), { RENDER_DESK_CREDITS: '7' });
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toMatch(/1 credit charged, 6 left/);

    const bad = await render(out, productRow(5), { RENDER_DESK_CREDITS: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/RENDER_DESK_CREDITS must be a whole number/);
  });
});
