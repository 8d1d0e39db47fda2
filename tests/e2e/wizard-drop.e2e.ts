import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { templateFields, toCsv } from './csv.js';
import { screenshot, useCoreAndUi } from './harness.js';
import { referenceTemplate } from './reference-template.js';

describe('dropping a spreadsheet on the wizard', () => {
  const session = useCoreAndUi({ launch: false });
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-drop-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a file dropped on the drop zone and takes the window overlay down', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const template = await referenceTemplate(core);
    const fields = await templateFields(core, template.id);
    const columns = fields.fields.map((f) => f.name);
    const file = path.join(dir, 'products.csv');
    fs.writeFileSync(file, toCsv(columns, [columns.map((c) => fields.sampleRow[c])]));

    await page.goto(`${core.url}/ui/batch?template=${template.id}`);
    const zone = page.getByTestId('dropzone');
    await zone.waitFor();
    // Measured once the page has its data: a late answer can still move the zone.
    await page.waitForLoadState('networkidle');
    const box = (await zone.boundingBox())!;
    const at = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    // A real drag from the OS: the browser's input pipeline fires dragenter/over/drop itself.
    const cdp = await page.context().newCDPSession(page);
    const data = { items: [], files: [file], dragOperationsMask: 1 };
    await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', ...at, data });
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', ...at, data });
    await page.locator('.drop-overlay').waitFor();
    await cdp.send('Input.dispatchDragEvent', { type: 'drop', ...at, data });

    await page.locator('.data-preview tbody tr').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.drop-overlay').count()).toBe(0);
    await screenshot(page, 'wizard-dropped');
    expect(ui.consoleErrors).toEqual([]);
  });
});
