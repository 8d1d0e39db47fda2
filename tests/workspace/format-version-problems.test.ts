import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVersionProblems } from '../../main/workspace/format-version-problems.js';
import { Template } from '../../shared/template-format.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

let server: InjectServer;
/** The forked workspace template's id and document. */
let id: string;
let template: Json;

beforeAll(async () => {
  server = await buildInjectServer();
  const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
    method: 'POST',
    json: { name: 'Format 2 text' },
  });
  const detail = await fork.json();
  id = detail.id;
  template = detail.template;
});
afterAll(() => server.stop());

/** The fork's square layout with its first text layer given `extra`. */
function layoutsWith(extra: Record<string, unknown>) {
  const layouts = structuredClone(template.layouts) as Record<string, { layers: Json[] }>;
  const layer = layouts.square!.layers.find((l) => l.kind === 'text')!;
  Object.assign(layer, extra);
  return { layouts, index: layouts.square!.layers.indexOf(layer) };
}

describe('format 2 text properties in a format 1 template', () => {
  it('are refused with 422, naming each property and the schemaVersion it needs', async () => {
    expect(template.schemaVersion).toBe(1);
    const { layouts, index } = layoutsWith({ markup: true, decoration: 'strikethrough' });
    const problem = await expectProblem(
      await server.api(`/v1/templates/${id}`, { method: 'PATCH', json: { layouts } }),
      422,
      'validation-failed',
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        {
          path: `layouts.square.layers[${index}].markup`,
          message:
            'markup needs schemaVersion 2; set "schemaVersion": 2 on the template or remove markup',
        },
        expect.objectContaining({ path: `layouts.square.layers[${index}].decoration` }),
      ]),
    );
  });

  it('are accepted once the template says schemaVersion 2', async () => {
    const { layouts } = layoutsWith({ markup: true, wrap: 'greedy', path: { kind: 'arc' } });
    const res = await server.api(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: { layouts, schemaVersion: 2 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).template.schemaVersion).toBe(2);
  });

  it('leave a template at format 2 once it is there', async () => {
    const problem = await expectProblem(
      await server.api(`/v1/templates/${id}`, { method: 'PATCH', json: { schemaVersion: 1 } }),
      422,
      'validation-failed',
    );
    expect(problem.errors?.[0]?.path).toBe('schemaVersion');
  });

  it("include a list's price column, refused with 422 until the template is format 2", async () => {
    // A fresh format 1 copy: the one above is at format 2 by now.
    const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
      method: 'POST',
      json: { name: 'Price column' },
    });
    const { id: copyId } = (await fork.json()) as { id: string };
    expect(template.schemaVersion).toBe(1);
    const layouts = structuredClone(template.layouts) as Record<string, { layers: Json[] }>;
    const index = layouts.square!.layers.length;
    layouts.square!.layers.push({
      kind: 'list',
      id: 'menu',
      items: { var: 'dishes' },
      x: 72,
      y: 72,
      width: 600,
      height: 400,
      size: 32,
      font: { family: 'Be Vietnam Pro' },
      colour: '#000000',
      priceColumn: {},
    });
    const variables = [...(template.variables as Json[]), { name: 'dishes', type: 'list' }];
    const problem = await expectProblem(
      await server.api(`/v1/templates/${copyId}`, {
        method: 'PATCH',
        json: { layouts, variables },
      }),
      422,
      'validation-failed',
    );
    expect(problem.errors).toEqual([
      {
        path: `layouts.square.layers[${index}].priceColumn`,
        message:
          'priceColumn needs schemaVersion 2; set "schemaVersion": 2 on the template or remove priceColumn',
      },
    ]);
    const parsed = Template.parse({ ...template, schemaVersion: 1, layouts, variables });
    expect(formatVersionProblems({ ...parsed, schemaVersion: 2 })).toEqual([]);
  });

  it('include a compact number format', () => {
    const parsed = Template.parse({
      ...template,
      schemaVersion: 1,
      variables: [{ name: 'price', type: 'number', format: { notation: 'compact' } }],
    });
    expect(formatVersionProblems(parsed).map((p) => p.path)).toEqual([
      'variables[0].format.notation',
    ]);
    expect(formatVersionProblems({ ...parsed, schemaVersion: 2 })).toEqual([]);
  });
});
