import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, upload, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATE = 'tmpl_event_ticket';
let server: InjectServer;
let samples: Record<string, unknown>;

beforeAll(async () => {
  server = await buildInjectServer({ openingCredits: 100 });
  const detail: Json = await (await server.api(`/v1/catalog/${TEMPLATE}`)).json();
  samples = detail.sampleValues as Record<string, unknown>;
});
afterAll(() => server.stop());

const CSV = ['name', 'An', 'Bình', 'Chi', 'Dũng', 'Hà'].join('\n');
const SERIAL = { start: 1001, step: 5, pad: 6, prefix: 'TIX-' };

const sha = (bytes: ArrayBuffer) =>
  crypto.createHash('sha256').update(Buffer.from(bytes)).digest('hex');

function request(sourceRef: string, rows?: number[]) {
  const { attendeeName: _a, ticketId: _t, seat: _s, ...others } = samples;
  return {
    templateId: TEMPLATE,
    target: 'square',
    sourceType: 'csv',
    source: { sourceRef, ...(rows ? { rows } : {}) },
    bindings: {
      ...Object.fromEntries(
        Object.entries(others).map(([name, value]) => [name, { constant: value }]),
      ),
      attendeeName: { field: 'name' },
      ticketId: { serial: SERIAL },
      seat: { generated: 'total' },
    },
  };
}

async function outputs(batchId: string): Promise<Map<number, string>> {
  const rows = await fullManifest(server, batchId);
  const out = new Map<number, string>();
  for (const row of rows)
    out.set(
      row.rowIndex,
      sha(await (await server.api(`/v1/outputs/${row.outputKey}`)).arrayBuffer()),
    );
  return out;
}

describe('serial numbers and the row count in a batch', () => {
  it('draws row n as the single render of its serial and the count, and a rerun of chosen rows draws the same bytes', async () => {
    const uploaded: Json = await (
      await upload(server, Buffer.from(CSV), 'guests.csv', 'text/csv')
    ).json();
    const full = await createBatch(server, request(uploaded.id));
    expect(await waitForBatch(server, full.id)).toMatchObject({ status: 'succeeded', total: 5 });
    const drawn = await outputs(full.id);

    const single = await server.api('/v1/render', {
      method: 'POST',
      json: {
        templateId: TEMPLATE,
        target: 'square',
        values: { ...samples, attendeeName: 'Dũng', ticketId: 'TIX-001016', seat: '5' },
      },
    });
    expect(single.status).toBe(200);
    expect(drawn.get(3)).toBe(sha(await single.arrayBuffer()));

    // Rows 1 and 3 alone keep the serials of their positions and the sheet's count.
    const chosen = await createBatch(server, request(uploaded.id, [1, 3]));
    expect(await waitForBatch(server, chosen.id)).toMatchObject({ status: 'succeeded', total: 2 });
    const redrawn = await outputs(chosen.id);
    expect([...redrawn.keys()]).toEqual([1, 3]);
    expect(redrawn.get(1)).toBe(drawn.get(1));
    expect(redrawn.get(3)).toBe(drawn.get(3));
  });

  it('refuses a count down that goes below 0 before any row is drawn, naming the binding', async () => {
    const uploaded: Json = await (
      await upload(server, Buffer.from(CSV), 'guests.csv', 'text/csv')
    ).json();
    const body = request(uploaded.id);
    const bindings = { ...body.bindings, ticketId: { serial: { start: 6, step: -2 } } };
    const refused = await server.api('/v1/render-batches', {
      method: 'POST',
      json: { ...body, bindings },
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Json).errors).toEqual([
      {
        path: 'bindings.ticketId.serial',
        message: expect.stringContaining('row 5 would be numbered -2'),
      },
    ]);
    // The first three rows alone stay at 0 or above.
    const few = await server.api('/v1/render-batches', {
      method: 'POST',
      json: { ...body, bindings, source: { sourceRef: uploaded.id, rows: [0, 1, 3] } },
    });
    expect(few.status).toBe(202);
    await waitForBatch(server, ((await few.json()) as Json).id);
  });
});
