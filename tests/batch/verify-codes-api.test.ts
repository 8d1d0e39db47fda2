import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * `verifyCodes`: a batch reads every row's QR code back from its pixels and fails the row whose
 * code does not scan, with `code-unreadable` naming the value; the rows whose codes scan pass.
 * Pre-flight gives the same verdict on its first rows.
 */

let server: InjectServer;
let templateId: string;

/** The name badge with its QR code in an ink the row chooses, also on the printed badge. */
beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
  const fork = await server.api('/v1/catalog/tmpl_name_badge/fork', { method: 'POST', json: {} });
  expect(fork.status).toBe(201);
  const created: Json = await fork.json();
  const { layouts } = created.template;
  const qr = layouts.square.layers.find((layer: Json) => layer.id === 'profile-qr');
  const inked = (layer: Json) =>
    layer.id === 'profile-qr' ? { ...layer, foreground: { var: 'qrInk' } } : layer;
  const saved = await server.api(`/v1/templates/${created.id}`, {
    method: 'PATCH',
    json: {
      variables: [
        ...created.template.variables,
        { name: 'qrInk', type: 'colour', default: '#0F172A' },
      ],
      layouts: {
        ...layouts,
        square: { ...layouts.square, layers: layouts.square.layers.map(inked) },
        badge: {
          ...layouts.badge,
          layers: [
            ...layouts.badge.layers,
            { ...qr, x: 600, y: 880, width: 240, height: 240, foreground: { var: 'qrInk' } },
          ],
        },
      },
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  templateId = created.id;
});
afterAll(() => server.stop());

const guest = (i: number, qrInk?: string) => ({
  eventName: 'ProductConf 2026',
  firstName: `Guest ${i}`,
  attendeeType: 'attendee',
  profileUrl: `https://productconf.example/p/guest-${i}`,
  ...(qrInk ? { qrInk } : {}),
});

/** Row 2's code is printed in a grey barely darker than the paper: no reader finds it. */
const RECORDS = [guest(1), guest(2), guest(3, '#F3F3F3'), guest(4)];
const UNREADABLE = `values.profileUrl: the QR code "profile-qr" does not scan: a reader finds no code in the output's pixels.`;
/** The badge has a back: its messages say which page. */
const UNREADABLE_FRONT = `values.profileUrl: the QR code "profile-qr" on page 1 does not scan`;

describe('a batch that verifies its codes', () => {
  it('fails the row whose QR code does not scan, with code-unreadable naming the value', async () => {
    const body = { templateId, sourceType: 'json-array', source: { records: RECORDS } };
    const created = await createBatch(server, { ...body, verifyCodes: true });
    const batch = await waitForBatch(server, created.id);
    expect(batch.verifyCodes).toBe(true);
    expect(batch).toMatchObject({ status: 'partial', total: 4, succeeded: 3, failed: 1 });
    const rows = await fullManifest(server, created.id);
    expect(rows.map((row) => row.status)).toEqual([
      'succeeded',
      'succeeded',
      'failed',
      'succeeded',
    ]);
    expect(rows[2].error).toContain(UNREADABLE);

    // Unverified, the pale code is drawn as asked.
    const plain = await waitForBatch(server, (await createBatch(server, body)).id);
    expect(plain).toMatchObject({ succeeded: 4, failed: 0 });
    expect(plain.verifyCodes).toBeUndefined();
  }, 120_000);

  it('reads the rows of PDF sheets, each drawn alone at the print DPI', async () => {
    const created = await createBatch(server, {
      templateId,
      target: 'badge',
      format: 'pdf',
      sheets: { preset: 'a6-on-a4' },
      sourceType: 'json-array',
      source: { records: RECORDS },
      verifyCodes: true,
    });
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({ total: 4, succeeded: 3, failed: 1 });
    const rows = await fullManifest(server, created.id);
    expect(rows[2].status).toBe('failed');
    expect(rows[2].error).toContain(UNREADABLE_FRONT);
  }, 120_000);

  it('is checked by pre-flight on its first rows when asked', async () => {
    const body = { templateId, sourceType: 'json-array', source: { records: RECORDS } };
    const asked: Json = await (
      await server.api('/v1/render-batches/preflight', {
        method: 'POST',
        json: { ...body, verifyCodes: true },
      })
    ).json();
    expect(asked).toMatchObject({ total: 4, valid: 3, invalid: 1, codesVerified: 4 });
    expect(asked.problems).toEqual([
      {
        rowIndex: 2,
        line: null,
        errors: [expect.objectContaining({ path: 'values.profileUrl', code: 'code-unreadable' })],
      },
    ]);

    const unasked: Json = await (
      await server.api('/v1/render-batches/preflight', { method: 'POST', json: body })
    ).json();
    expect(unasked).toMatchObject({ total: 4, valid: 4, invalid: 0 });
    expect(unasked.codesVerified).toBeUndefined();
  }, 120_000);
});
