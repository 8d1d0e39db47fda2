import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';

/**
 * Pre-flight warns of images under 300 dpi where a print layout prints them (the name badge's
 * photo is 200 px at 300 dpi: 0.67 in), as a warning: the rows stay valid.
 */
let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1, openingCredits: 100 });
});
afterAll(() => server.stop());

async function png(side: number): Promise<string> {
  const bytes = await sharp({
    create: { width: side, height: side, channels: 3, background: '#7C3AED' },
  })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

async function preflight(target: string, photos: string[]): Promise<Json> {
  const res = await server.api('/v1/render-batches/preflight', {
    method: 'POST',
    json: {
      templateId: 'tmpl_name_badge',
      target,
      format: target === 'badge' ? 'pdf' : 'png',
      sourceType: 'json-array',
      source: {
        records: photos.map((photo, i) => ({
          eventName: 'Hội nghị',
          firstName: `Guest ${i}`,
          lastName: 'Lê',
          photo,
        })),
      },
    },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('pre-flight of print layouts', () => {
  it('warns of a photo under 300 dpi at its printed size, naming its rows and the size it needs', async () => {
    const small = await png(100);
    const large = await png(400);
    const result = await preflight('badge', [large, small, large, small]);
    expect(result, JSON.stringify(result.problems)).toMatchObject({
      total: 4,
      valid: 4,
      invalid: 0,
    });
    const warning = result.warnings.find((w: Json) => w.path === 'values.photo');
    expect(warning, JSON.stringify(result.warnings)).toBeDefined();
    expect(warning.rows).toBe(2);
    expect(warning.message).toMatch(/100 × 100 px, 150 dpi where it prints 0\.7 × 0\.7 in/);
    expect(warning.message).toMatch(/at least 200 × 200 px for 300 dpi \(rows 2, 4\)/);
  });

  it('is quiet for images sharp enough, and for pixel layouts', async () => {
    const large = await png(400);
    const printed = await preflight('badge', [large]);
    expect(printed.warnings.filter((w: Json) => w.path === 'values.photo')).toEqual([]);
    const screen = await preflight('square', [await png(100)]);
    expect(screen.warnings.filter((w: Json) => w.path === 'values.photo')).toEqual([]);
  });
});
