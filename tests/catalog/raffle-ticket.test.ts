import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, downloadBundle, waitForBatch } from '../helpers/batch-helpers.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { pdfWords, poppler, type PdfWord } from '../helpers/poppler.js';
import type { Json } from '../helpers/test-server.js';

/**
 * The numbered raffle ticket as an organiser prints it: a batch numbers the rows with a serial
 * binding, 10 tickets of 85 × 55 mm go on each A4 sheet, cut and stacked. Read back from the
 * sheets' PDF: every ticket shows its number twice (the ticket and its stub, either side of the
 * perforation), and each of the 10 piles a guillotine cuts is in number order.
 */
const TEMPLATE = 'tmpl_raffle_ticket';
const ROWS = 23;
const PT_PER_MM = 72 / 25.4;
let server: InjectServer;

beforeAll(async () => {
  server = await buildInjectServer({ workers: 2, openingCredits: 1000 });
});
afterAll(() => server.stop());

/**
 * The words in a region of a page, in mm from the page's top left (a word belongs to the region
 * its centre lies in), from the words of the whole PDF read once.
 */
function textIn(
  words: PdfWord[],
  page: number,
  box: { x: number; y: number; w: number; h: number },
) {
  const [x0, y0] = [box.x * PT_PER_MM, box.y * PT_PER_MM];
  const [x1, y1] = [(box.x + box.w) * PT_PER_MM, (box.y + box.h) * PT_PER_MM];
  return words
    .filter((w) => w.page === page && w.cx >= x0 && w.cx < x1 && w.cy >= y0 && w.cy < y1)
    .map((w) => w.word)
    .join(' ');
}

describe('the raffle ticket', () => {
  it('prints serial numbers on ticket and stub, 10 to an A4 sheet, cut and stacked into piles in number order', async () => {
    const detail: Json = await (await server.api(`/v1/catalog/${TEMPLATE}`)).json();
    const { ticketNumber: _n, ...samples } = detail.sampleValues as Record<string, unknown>;
    const created = await createBatch(server, {
      templateId: TEMPLATE,
      target: 'ticket',
      format: 'pdf',
      sourceType: 'json-array',
      source: { records: Array.from({ length: ROWS }, (_, i) => ({ guest: `Khách ${i + 1}` })) },
      bindings: {
        ...Object.fromEntries(
          Object.entries(samples).map(([name, value]) => [name, { constant: value }]),
        ),
        ticketNumber: { serial: { start: 1, pad: 4, prefix: 'YEP-' } },
      },
      sheets: { preset: 'business-cards-10', cutAndStack: true },
    });
    expect(await waitForBatch(server, created.id)).toMatchObject({
      status: 'succeeded',
      succeeded: ROWS,
    });
    const pdf = (await downloadBundle(server, created.id)).readFile('sheets-1.pdf')!;
    const sheets = Math.ceil(ROWS / 10);
    expect(poppler('pdfinfo', pdf)).toMatch(new RegExp(`^Pages:\\s+${sheets}$`, 'm'));
    const words = pdfWords(pdf);

    // 2 × 5 cells of 85 × 55 mm centred on A4 (20 mm and 11 mm margins), numbered row by row.
    const piles: string[][] = [];
    for (let position = 0; position < 10; position++) {
      const cell = { x: 20 + (position % 2) * 85, y: 11 + Math.floor(position / 2) * 55 };
      const pile: string[] = [];
      for (let sheet = 1; sheet <= sheets; sheet++) {
        const numbers = [...textIn(words, sheet, { ...cell, w: 85, h: 55 }).matchAll(/YEP-\d{4}/g)];
        if (numbers.length === 0) continue;
        // The same number on the stub (its left 25 mm) and on the ticket.
        const stub = textIn(words, sheet, { ...cell, w: 24, h: 55 }).match(/YEP-\d{4}/g);
        const kept = textIn(words, sheet, { x: cell.x + 26, y: cell.y, w: 59, h: 55 }).match(
          /YEP-\d{4}/g,
        );
        expect(stub, `sheet ${sheet} position ${position + 1}`).toEqual([numbers[0]![0]]);
        expect(kept, `sheet ${sheet} position ${position + 1}`).toEqual([numbers[0]![0]]);
        pile.push(numbers[0]![0]);
      }
      piles.push(pile);
    }
    // After one cut of the stack, pile 1 holds YEP-0001–0003, pile 2 YEP-0004–0006, …; the
    // short last round leaves its gap at the end of the later sheets.
    const serial = (n: number) => `YEP-${String(n).padStart(4, '0')}`;
    let next = 1;
    for (const pile of piles) {
      expect(pile).toEqual(pile.map((_, i) => serial(next + i)));
      next += pile.length;
    }
    expect(next - 1).toBe(ROWS);
  });
});
