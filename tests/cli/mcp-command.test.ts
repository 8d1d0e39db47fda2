import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import { createWebhooksRepository } from '../../main/store/webhooks-repository.js';
import { verifyWebhook } from '../../main/webhooks/webhook-signature.js';
import { CreateWebhookRequest } from '../../shared/webhook-schemas.js';
import type { KeyScope } from '../../shared/key-scopes.js';
import { ledgerBalance, productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { poppler } from '../helpers/poppler.js';
import { tempDir } from '../helpers/run-cli.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

interface ToolAnswer {
  isError?: boolean;
  content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[];
}

describe('render-desk mcp', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  let allowed: string;
  let client: Client | undefined;
  beforeEach(() => {
    temp = tempDir('rd-cli-mcp-');
    dataDir = path.join(temp.dir, 'data');
    allowed = path.join(temp.dir, 'work');
    fs.mkdirSync(allowed);
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    temp.remove();
  });

  /** A key of the data folder, made as the app makes one, and the command that serves as it. */
  function serverCommand(scope: KeyScope) {
    const secret = `rdk_mcp_test_${scope}_0123456789`;
    const store = createStore(dataDir);
    store.apiKeys.ensure(secret, { name: `mcp ${scope}`, scope });
    store.close();
    return {
      command: process.execPath,
      args: [
        path.join(REPO_ROOT, 'bin', 'render-desk.mjs'),
        'mcp',
        '--allow',
        allowed,
        '--data-dir',
        dataDir,
        '--workers',
        '2',
      ],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), RENDER_DESK_API_KEY: secret },
    };
  }

  /** The server started as a key of `scope`, and a client connected to it. */
  async function connect(scope: KeyScope): Promise<Client> {
    const transport = new StdioClientTransport({ ...serverCommand(scope), stderr: 'pipe' });
    client = new Client({ name: 'render-desk-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  const call = async (mcp: Client, name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as ToolAnswer;
  const text = (answer: ToolAnswer) => {
    const first = answer.content.find((c) => c.type === 'text');
    return JSON.parse(first && first.type === 'text' ? first.text : 'null') as Record<
      string,
      unknown
    >;
  };

  it('lists templates, renders an image charged once per idempotency key, and runs a batch to a bundle', async () => {
    const mcp = await connect('render');
    const tools = (await mcp.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual([
      'batch_status',
      'bundle',
      'list_templates',
      'preflight',
      'render',
      'show_template',
      'start_batch',
      'template_fields',
    ]);

    const list = await call(mcp, 'list_templates', {});
    expect(JSON.stringify(list.content)).toContain(REFERENCE);

    const values = productRow(1);
    const rendered = await call(mcp, 'render', {
      templateId: REFERENCE,
      values,
      idempotencyKey: 'card-1',
    });
    expect(rendered.isError).toBeFalsy();
    const image = rendered.content.find((c) => c.type === 'image');
    expect(image && image.type === 'image' ? image.mimeType : null).toBe('image/png');
    const png = Buffer.from(image && image.type === 'image' ? image.data : '', 'base64');
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
    expect(text(rendered)).toMatchObject({ replayed: false, creditsRemaining: 99 });

    const again = await call(mcp, 'render', {
      templateId: REFERENCE,
      values,
      idempotencyKey: 'card-1',
    });
    expect(text(again)).toMatchObject({ replayed: true, creditsRemaining: 99 });
    expect(ledgerBalance(dataDir).debited).toBe(1);

    const started = await call(mcp, 'start_batch', {
      templateId: REFERENCE,
      records: [0, 1, 2].map(productRow),
    });
    expect(started.isError).toBeFalsy();
    const batchId = text(started).id as string;
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 600; i += 1) {
      status = text(await call(mcp, 'batch_status', { batchId }));
      if (!['queued', 'running'].includes(String(status.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ status: 'succeeded', succeeded: 3, failed: 0 });

    const zipFile = path.join(allowed, 'batch.zip');
    const bundle = await call(mcp, 'bundle', { batchId, outFile: zipFile });
    expect(bundle.isError).toBeFalsy();
    const names = new AdmZip(zipFile)
      .getEntries()
      .map((e) => e.entryName)
      .sort();
    expect(names.filter((name) => name.endsWith('.png'))).toHaveLength(3);
    expect(names).toContain('manifest.csv');
    expect(ledgerBalance(dataDir).debited).toBe(4);
  });

  it("POSTs a batch's end to the data folder's webhook while the client keeps it open", async () => {
    const receiver = await startWebhookReceiver();
    try {
      fs.mkdirSync(dataDir, { recursive: true });
      const store = createStore(dataDir);
      const { secret } = createWebhooksRepository(store.db).create(
        CreateWebhookRequest.parse({ url: receiver.url }),
      );
      store.close();
      const mcp = await connect('render');
      const started = await call(mcp, 'start_batch', {
        templateId: REFERENCE,
        records: [productRow(0)],
      });
      const batchId = text(started).id as string;
      // Sent as the batch ends, as the app sends it: not only when the server exits.
      const [finished] = await receiver.waitFor('batch.finished', 1, 30_000);
      expect(finished!.json.data.batch).toMatchObject({ id: batchId, status: 'succeeded' });
      const signature = String(finished!.headers['render-desk-signature']);
      expect(verifyWebhook(secret, finished!.body, signature)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('starts a batch of badges on sheets, whose bundle holds the sheet PDF', async () => {
    const mcp = await connect('render');
    const badge = (i: number) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i}`,
      attendeeType: 'staff',
    });
    const started = await call(mcp, 'start_batch', {
      templateId: 'tmpl_name_badge',
      target: 'badge',
      format: 'pdf',
      records: [0, 1, 2].map(badge),
      sheets: { preset: 'a6-on-a4', marks: 'crop' },
    });
    expect(started.isError).toBeFalsy();
    const batchId = text(started).id as string;
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 600; i += 1) {
      status = text(await call(mcp, 'batch_status', { batchId }));
      if (!['queued', 'running'].includes(String(status.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ status: 'succeeded', succeeded: 3 });
    const zipFile = path.join(allowed, 'sheets.zip');
    expect((await call(mcp, 'bundle', { batchId, outFile: zipFile })).isError).toBeFalsy();
    const zip = new AdmZip(zipFile);
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['manifest.csv', 'sheets-1.pdf']);
    const info = poppler('pdfinfo', zip.readFile('sheets-1.pdf')!);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toContain('595.276 x 841.89 pts (A4)');

    const wrong = await call(mcp, 'start_batch', {
      templateId: 'tmpl_name_badge',
      records: [badge(0)],
      sheets: { preset: 'a9-on-a4' },
    });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain('a6-on-a4');
  });

  it('starts a batch that reads its codes back, and pre-flights the same check', async () => {
    const mcp = await connect('render');
    const records = [1, 2].map((i) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i}`,
      attendeeType: 'attendee',
      profileUrl: `https://productconf.example/p/guest-${i}`,
    }));
    const checked = await call(mcp, 'preflight', {
      templateId: 'tmpl_name_badge',
      records,
      verifyCodes: true,
    });
    expect(text(checked)).toMatchObject({ total: 2, valid: 2, codesVerified: 2 });
    const started = await call(mcp, 'start_batch', {
      templateId: 'tmpl_name_badge',
      records,
      verifyCodes: true,
    });
    expect(started.isError).toBeFalsy();
    const batchId = text(started).id as string;
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 600; i += 1) {
      status = text(await call(mcp, 'batch_status', { batchId }));
      if (!['queued', 'running'].includes(String(status.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ status: 'succeeded', succeeded: 2, verifyCodes: true });
  });

  it('reads no file outside the allowed folders and keeps a read-only key from rendering', async () => {
    const outside = path.join(temp.dir, 'secret.png');
    fs.copyFileSync(
      path.join(REPO_ROOT, 'templates', 'catalog', 'product-promo', 'logo.png'),
      outside,
    );
    const mcp = await connect('read');
    const source = path.join(temp.dir, 'rows.json');
    fs.writeFileSync(source, JSON.stringify([productRow(0)]));

    const readOnly = await call(mcp, 'render', { templateId: REFERENCE, values: productRow(0) });
    expect(readOnly.isError).toBe(true);
    expect(text(readOnly)).toMatchObject({ code: 'insufficient-scope' });

    // preflight needs the render scope too, as POST /v1/render-batches/preflight does.
    await client?.close();
    const renderer = await connect('render');
    const image = await call(renderer, 'render', {
      templateId: REFERENCE,
      values: { ...productRow(0), logo: outside },
    });
    expect(text(image)).toMatchObject({ code: 'path-not-allowed' });
    const file = await call(renderer, 'preflight', { templateId: REFERENCE, sourceFile: source });
    expect(text(file)).toMatchObject({ code: 'path-not-allowed' });
    const bundle = await call(renderer, 'bundle', {
      batchId: 'bat_nope',
      outFile: path.join(temp.dir, 'x.zip'),
    });
    expect(text(bundle)).toMatchObject({ code: 'not-found' });
    expect(ledgerBalance(dataDir).debited).toBe(0);

    const inside = path.join(allowed, 'rows.json');
    fs.copyFileSync(source, inside);
    const checked = await call(renderer, 'preflight', {
      templateId: REFERENCE,
      sourceFile: inside,
    });
    expect(text(checked)).toMatchObject({ total: 1, valid: 1 });
  });

  it('writes an outFile that is a link out of the allowed folder as a new file, leaving the target untouched', async () => {
    const mcp = await connect('render');
    const victim = path.join(temp.dir, 'victim.txt');
    fs.writeFileSync(victim, 'do not overwrite');
    const linked = path.join(allowed, 'out.png');
    fs.symlinkSync(victim, linked);
    const dangling = path.join(allowed, 'dangling.png');
    const nowhere = path.join(temp.dir, 'created-outside.png');
    fs.symlinkSync(nowhere, dangling);

    for (const outFile of [linked, dangling]) {
      const answer = await call(mcp, 'render', {
        templateId: REFERENCE,
        values: productRow(0),
        outFile,
      });
      expect(answer.isError).toBeFalsy();
      // The name now holds the image itself, not a link.
      expect(fs.lstatSync(outFile).isFile()).toBe(true);
      expect((await sharp(outFile).metadata()).format).toBe('png');
    }
    expect(fs.readFileSync(victim, 'utf8')).toBe('do not overwrite');
    expect(fs.existsSync(nowhere)).toBe(false);

    // The same for a bundle written over a link.
    const started = await call(mcp, 'start_batch', {
      templateId: REFERENCE,
      records: [productRow(1)],
    });
    const batchId = text(started).id as string;
    for (let i = 0; i < 600; i += 1) {
      const status = text(await call(mcp, 'batch_status', { batchId }));
      if (status.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const zipLink = path.join(allowed, 'bundle.zip');
    fs.symlinkSync(victim, zipLink);
    const bundle = await call(mcp, 'bundle', { batchId, outFile: zipLink });
    expect(bundle.isError).toBeFalsy();
    expect(fs.lstatSync(zipLink).isFile()).toBe(true);
    expect(new AdmZip(zipLink).getEntries().map((e) => e.entryName)).toContain('manifest.csv');
    expect(fs.readFileSync(victim, 'utf8')).toBe('do not overwrite');
    // No temp file is left beside it.
    expect(fs.readdirSync(allowed).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a FIFO as sourceFile at once and keeps answering other calls', async () => {
    const mcp = await connect('render');
    const fifo = path.join(allowed, 'rows.csv');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const answer = await call(mcp, 'preflight', { templateId: REFERENCE, sourceFile: fifo });
    expect(text(answer)).toMatchObject({ code: 'path-not-allowed' });
    expect(JSON.stringify(text(answer))).toMatch(/not a regular file/);
    const list = await call(mcp, 'list_templates', {});
    expect(JSON.stringify(list.content)).toContain(REFERENCE);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers a request over 10 MiB with an error pointing to sourceFile, and keeps serving', async () => {
    const mcp = await connect('render');
    // 60,000 short rows inline: about 13 MB as one JSON-RPC line.
    const records = Array.from({ length: 60_000 }, (_, i) => productRow(i));
    expect(JSON.stringify(records).length).toBeGreaterThan(10 * 1024 * 1024);
    const refused = await mcp
      .callTool({ name: 'start_batch', arguments: { templateId: REFERENCE, records } })
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(refused?.message).toMatch(/The message is 1\d\.\d MB; .* at most 10 MiB/);
    expect(refused?.message).toMatch(/--allow and name it in sourceFile/);
    expect(refused).toMatchObject({ code: -32600, data: { code: 'payload-too-large' } });
    // The same server answers the next call.
    const list = await call(mcp, 'list_templates', {});
    expect(JSON.stringify(list.content)).toContain(REFERENCE);
  });

  /** The server as a bare process, its exit code and what it wrote on stderr (bounded wait). */
  function startBare(scope: KeyScope) {
    const { command, args, cwd, env } = serverCommand(scope);
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`render-desk mcp did not exit within 60 s; stderr: ${stderr}`));
      }, 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    return { child, exited };
  }

  const INITIALIZE = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bare', version: '1' },
    },
  };

  it('answers a line that is not JSON with a parse error and keeps serving', async () => {
    const { child, exited } = startBare('render');
    const answers: Record<string, unknown>[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) answers.push(JSON.parse(line) as Record<string, unknown>);
    });
    child.stdin.write('\u0000\u00ff{not json\n');
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const deadline = Date.now() + 30_000;
    while (answers.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answers[1]).toMatchObject({ id: 1, result: { serverInfo: { name: 'render-desk' } } });
    child.stdin.end();
    expect((await exited).code).toBe(0);
  });

  it('says on stderr that stdout failed and exits non-zero', async () => {
    const { child, exited } = startBare('render');
    // The client is gone: the answer to this request cannot be written.
    child.stdout.destroy();
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const { code, stderr } = await exited;
    expect(code).toBe(4);
    expect(stderr).toMatch(/render-desk mcp: stopped: stdio failed \(.*EPIPE/);
  });
});
