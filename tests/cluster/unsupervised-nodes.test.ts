import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callNode,
  startClusterNode,
  sharedInitialisedCluster,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';

/**
 * What `npm run serve -- --role …` runs (main/start.ts --headless; npm itself stopping is
 * tests/supervisor/headless-supervisor.test.ts), `render-desk serve --role …` and the image's
 * entry, as systemd, nohup, compose without a TTY or a CI job start them: with standard input at
 * /dev/null and no supervisor holding a pipe. The nodes must keep running (a batch goes through
 * them end to end) and stop cleanly, with exit code 0, on SIGTERM.
 */
let env: ClusterEnvironment;
const nodes: ClusterNodeProcess[] = [];

beforeAll(async () => {
  env = await sharedInitialisedCluster();
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(nodes.map((node) => node.stop()));
}, 60_000);

const WAYS = [
  { name: '`npm run serve -- --role`', entry: 'npm-serve' },
  { name: '`render-desk serve --role`', entry: 'render-desk' },
  {
    name: 'main/serve.ts directly, as the image (and so compose and Kubernetes) runs it',
    entry: 'serve',
  },
] as const;

describe.each(WAYS)('cluster nodes started by $name with stdin at /dev/null', ({ entry }) => {
  it('run a batch to the end and stop with exit code 0 on SIGTERM', async () => {
    // stdio 'ignore' gives the child /dev/null as its standard input.
    const [api, worker] = await Promise.all([
      startClusterNode(env, 'api', { entry }),
      startClusterNode(env, 'worker', { entry }),
    ]);
    nodes.push(api, worker);

    const created = await callNode(env, api, '/v1/render-batches', {
      method: 'POST',
      json: {
        templateId: 'tmpl_quote_card',
        sourceType: 'json-array',
        source: {
          records: [1, 2, 3].map((i) => ({ quote: `Quote ${i}`, author: 'A. Person' })),
        },
      },
    });
    const body = (await created.json()) as { id: string };
    expect(created.status, JSON.stringify(body)).toBe(202);
    let status = '';
    for (let i = 0; i < 600 && !['succeeded', 'partial', 'failed'].includes(status); i += 1) {
      const batch = (await (await callNode(env, api, `/v1/render-batches/${body.id}`)).json()) as {
        status: string;
      };
      status = batch.status;
      if (status !== 'succeeded') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe('succeeded');
    for (const node of [api, worker]) {
      expect(node.child.exitCode).toBeNull();
      expect(node.output()).not.toMatch(/SIGTERM/);
    }

    for (const node of [api, worker]) {
      const exited = new Promise<number | null>((resolve) =>
        node.child.once('exit', (code) => resolve(code)),
      );
      node.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 240_000);
});
