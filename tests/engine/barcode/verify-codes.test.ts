import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR, renderJob } from '../../../main/engine/render-job.js';
import type { RenderJob, RenderResult } from '../../../main/render/render-protocol.js';
import { layoutLayers } from '../../../shared/layout-pages.js';
import { Template } from '../../../shared/template-format.js';
import { catalog, renderSample } from '../../helpers/engine-renderer.js';

registerBundledFonts(FONTS_DIR);

/**
 * A job that verifies its codes reads each QR code and barcode back from the output's pixels:
 * the row passes when every code scans as its value, and fails with `code-unreadable` naming the
 * value (and the layer) of each that does not.
 */

/** A 3 × 2 in ticket at 300 dpi: a QR code and a Code 128 in the ink the row gives. */
const TICKET = Template.parse({
  schemaVersion: 2,
  id: 'tmpl_ticket_codes',
  name: 'Ticket codes',
  category: 'Test',
  subCategory: 'Test',
  market: 'global',
  createdAt: '2026-01-01',
  variables: [
    { name: 'url', type: 'text' },
    { name: 'ticketId', type: 'text' },
    { name: 'ink', type: 'colour', default: '#111111' },
    { name: 'qrSize', type: 'number', default: 260 },
  ],
  layouts: {
    ticket: {
      width: 900,
      height: 600,
      background: '#FFFFFF',
      page: { unit: 'in', width: 3, height: 2, dpi: 300 },
      layers: [
        {
          kind: 'shape',
          id: 'band',
          shape: 'rectangle',
          x: 0,
          y: 0,
          width: 900,
          height: 90,
          fill: '#1E3A5F',
        },
        {
          kind: 'qr',
          id: 'entry-qr',
          x: 40,
          y: 140,
          width: 300,
          height: 300,
          value: '{{url}}',
          foreground: { var: 'ink' },
        },
        {
          kind: 'barcode',
          id: 'ticket-code',
          x: 380,
          y: 200,
          width: 480,
          height: 200,
          symbology: 'code128',
          value: '{{ticketId}}',
          foreground: { var: 'ink' },
        },
      ],
    },
  },
});

/** The ticket with other layers (its own, changed, or new ones). */
function ticketWithLayers(layers: unknown[]): Template {
  return Template.parse({ ...TICKET, layouts: { ticket: { ...TICKET.layouts.ticket, layers } } });
}

function ticketJob(values: Record<string, string>, options: Partial<RenderJob> = {}): RenderJob {
  return {
    template: TICKET,
    assetsDir: os.tmpdir(),
    ratio: 'ticket',
    values: { ink: '#111111', ...values },
    format: 'png',
    verifyCodes: true,
    ...options,
  };
}

const GOOD = { url: 'https://events.example.org/t/0042?k=Zx9', ticketId: 'TIX-000142' };

function problemsOf(result: RenderResult) {
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  expect(result.code).toBe('code-unreadable');
  return result.problems ?? [];
}

describe('verifying codes from the pixels', () => {
  it.each(['png', 'jpeg', 'webp', 'pdf'] as const)(
    'passes a %s whose QR code and barcode scan as their values',
    async (format) => {
      const result = await renderJob(ticketJob(GOOD, { format }));
      expect(result.ok, result.ok ? '' : result.message).toBe(true);
    },
  );

  it('reads Vietnamese text back exactly', async () => {
    const result = await renderJob(
      ticketJob({ ...GOOD, url: 'Nguyễn Thị Minh Khai · vé 0042 · Hội trường B' }),
    );
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
  });

  it.each(['png', 'pdf'] as const)(
    'fails a %s whose codes are printed in an ink too close to the paper, naming each value',
    async (format) => {
      const result = await renderJob(ticketJob({ ...GOOD, ink: '#F2F2F2' }, { format }));
      const problems = problemsOf(result);
      expect(problems.map((p) => [p.path, p.code])).toEqual([
        ['values.url', 'code-unreadable'],
        ['values.ticketId', 'code-unreadable'],
      ]);
      expect(problems[0]?.message).toBe(
        `the QR code "entry-qr" does not scan: a reader finds no code in the output's pixels. Draw it larger, with more contrast between its colours, and with no other layer over it`,
      );
      expect(problems[1]?.message).toContain('the Code 128 "ticket-code" does not scan');
    },
  );

  it.each(['png', 'pdf'] as const)(
    'fails only the code that does not scan (%s)',
    async (format) => {
      // A sticker over the middle of the QR code hides more than its error correction restores.
      const covered = ticketWithLayers([
        ...TICKET.layouts.ticket!.layers,
        {
          kind: 'shape',
          id: 'sold-out',
          shape: 'rectangle',
          x: 90,
          y: 190,
          width: 200,
          height: 200,
          fill: '#C0392B',
        },
      ]);
      // In a PDF too, whose codes are read from a raster of only the layers around them.
      const result = await renderJob({ ...ticketJob(GOOD, { format }), template: covered });
      expect(problemsOf(result).map((p) => p.path)).toEqual(['values.url']);
    },
  );

  it('reads a barcode wider than its box as far as it is drawn, in PDF as in PNG', async () => {
    // One-pixel modules are the least a barcode is drawn with: this one runs ~70 px out of its
    // narrow box on each side, further than the area around the box that a PDF's check draws.
    const narrow = (over: boolean) =>
      ticketWithLayers([
        {
          kind: 'barcode',
          id: 'ticket-code',
          x: 400,
          y: 250,
          width: 120,
          height: 120,
          symbology: 'code128',
          value: '{{ticketId}}',
        },
        // Over the bars that stick out on the right, beyond the area around the box.
        ...(over
          ? [
              {
                kind: 'shape' as const,
                id: 'sticker',
                shape: 'rectangle' as const,
                x: 560,
                y: 240,
                width: 60,
                height: 140,
                fill: '#C0392B',
              },
            ]
          : []),
      ]);
    const ticketId = 'TIX-000142-ABCDEFGH';
    for (const format of ['png', 'pdf'] as const) {
      const clear = await renderJob({
        ...ticketJob({ ...GOOD, ticketId }, { format }),
        template: narrow(false),
      });
      expect(clear.ok, clear.ok ? format : `${format}: ${clear.message}`).toBe(true);
      const covered = await renderJob({
        ...ticketJob({ ...GOOD, ticketId }, { format }),
        template: narrow(true),
      });
      expect(problemsOf(covered).map((p) => p.path)).toEqual(['values.ticketId']);
    }
  });

  it('finds turned codes in the box they are turned in', async () => {
    const turned = ticketWithLayers(
      TICKET.layouts.ticket!.layers.map((layer) =>
        layer.kind === 'qr'
          ? { ...layer, rotation: 30 }
          : layer.kind === 'barcode'
            ? { ...layer, x: 520, y: 100, width: 300, height: 160, rotation: 90 }
            : layer,
      ),
    );
    for (const format of ['png', 'pdf'] as const) {
      const result = await renderJob({ ...ticketJob(GOOD, { format }), template: turned });
      expect(result.ok, result.ok ? format : `${format}: ${result.message}`).toBe(true);
    }
  });

  it('reads a barcode turned at any angle, as a scanner does, and still fails one covered', async () => {
    // ZXing's linear readers scan rows and columns: at 30° to 60° the ticket's Code 128 was
    // "not found" although it prints whole. Turned back upright, it reads.
    const turnedBy = (angle: number, cover = false) =>
      ticketWithLayers([
        ...TICKET.layouts.ticket!.layers.map((layer) =>
          layer.kind === 'barcode'
            ? { ...layer, x: 450, y: 150, width: 400, height: 160, rotation: angle }
            : layer,
        ),
        ...(cover
          ? [
              {
                kind: 'shape' as const,
                id: 'tape',
                shape: 'rectangle' as const,
                x: 600,
                y: 0,
                width: 60,
                height: 600,
                fill: '#111111',
              },
            ]
          : []),
      ]);
    for (const angle of [30, 45, 60, 120, 330]) {
      for (const format of ['png', 'pdf'] as const) {
        const result = await renderJob({
          ...ticketJob(GOOD, { format }),
          template: turnedBy(angle),
        });
        expect(result.ok, result.ok ? '' : `${angle}° ${format}: ${result.message}`).toBe(true);
      }
    }
    for (const format of ['png', 'pdf'] as const) {
      const covered = await renderJob({
        ...ticketJob(GOOD, { format }),
        template: turnedBy(45, true),
      });

      expect(problemsOf(covered).map((p) => p.path)).toEqual(['values.ticketId']);
    }
  });

  it('reads a transparent output as it prints, on white', async () => {
    const result = await renderJob(ticketJob(GOOD, { transparent: true }));
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
  });

  it('reads a transparent output whose codes have no paint of their own behind them on white', async () => {
    // Light modules and quiet zones left transparent: read as black they would hide the codes.
    const clear = ticketWithLayers(
      TICKET.layouts.ticket!.layers.map((layer) =>
        layer.kind === 'qr' || layer.kind === 'barcode'
          ? { ...layer, background: '#FFFFFF00' }
          : layer,
      ),
    );
    const result = await renderJob({ ...ticketJob(GOOD, { transparent: true }), template: clear });
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
  });

  it('draws and encodes as before when codes are not verified', async () => {
    const unverified = await renderJob(
      ticketJob({ ...GOOD, ink: '#F2F2F2' }, { verifyCodes: false }),
    );
    const verified = await renderJob(ticketJob(GOOD));
    const plain = await renderJob(ticketJob(GOOD, { verifyCodes: false }));
    expect(unverified.ok).toBe(true);
    if (!verified.ok || !plain.ok) throw new Error('both render');
    expect(Buffer.from(verified.bytes).equals(Buffer.from(plain.bytes))).toBe(true);
  });
});

describe('the catalog', () => {
  /** Every built-in layout that draws a QR code or a barcode. */
  const cases = catalog.list().flatMap(({ template }) =>
    Object.entries(template.layouts)
      .filter(([, layout]) =>
        layoutLayers(layout).some((layer) => layer.kind === 'qr' || layer.kind === 'barcode'),
      )
      // Print layouts as PDF too: read from their pages drawn at the print DPI.
      .flatMap(([target, layout]) =>
        (layout.page ? (['png', 'pdf'] as const) : (['png'] as const)).map((format) => ({
          templateId: template.id,
          target,
          format,
        })),
      ),
  );

  it('has codes to read', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases)(
    'draws $templateId $target as $format with sample values whose every code scans',
    async ({ templateId, target, format }) => {
      await expect(
        renderSample(templateId, { format, target, verifyCodes: true }),
      ).resolves.toMatchObject({ ok: true });
    },
  );
});
