import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import path from 'node:path';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import type { RichSpec } from '../../../main/engine/text/rich-text.js';
import type { Template } from '../../../shared/template-format.js';
import { buildTemplate, repoRoot } from '../fixtures/template-builder.js';
import type { Pixels } from '../fixtures/pixels.js';

/** A real canvas context with the bundled fonts registered, for measuring. */
export function measuringContext(): SKRSContext2D {
  registerBundledFonts(path.join(repoRoot, 'templates', 'fonts'));
  return createCanvas(16, 16).getContext('2d');
}

export function richSpec(extra: Partial<RichSpec> = {}): RichSpec {
  return {
    family: 'Be Vietnam Pro',
    weight: 700,
    style: 'normal',
    size: 48,
    minSize: 48,
    lineHeight: 1.2,
    letterSpacing: 0,
    maxLines: undefined,
    fit: 'shrink',
    wrap: 'balanced',
    decoration: 'none',
    currencyScale: 1,
    currencyRaise: false,
    rtl: false,
    ...extra,
  };
}

/** A square format 2 template with these layers (and text variables named in `variables`). */
export function format2Template(
  layers: Array<Record<string, unknown>>,
  variables: string[] = [],
): Template {
  const template = buildTemplate({
    variables: variables.map((name) => ({ name, type: 'text' as const })),
    // Layers are checked by the schema inside buildTemplate.
    layers: layers as never,
  });
  return { ...template, schemaVersion: 2 };
}

const isDark = (p: Pixels, x: number, y: number) => {
  const i = (y * p.width + x) * 3;
  return p.data[i]! + p.data[i + 1]! + p.data[i + 2]! < 200;
};

/** The longest horizontal run of dark pixels in each row of the area, by row. */
export function longestDarkRuns(
  p: Pixels,
  area: { x: number; y: number; width: number; height: number },
): number[] {
  const runs: number[] = [];
  for (let y = area.y; y < area.y + area.height; y++) {
    let best = 0;
    let run = 0;
    for (let x = area.x; x < area.x + area.width; x++) {
      run = isDark(p, x, y) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    runs.push(best);
  }
  return runs;
}

/** The bounds of pixels that are not the background colour, or null. */
export function inkBounds(
  p: Pixels,
  background: [number, number, number] = [255, 255, 255],
): { left: number; right: number; top: number; bottom: number } | null {
  let left = Infinity;
  let right = -1;
  let top = Infinity;
  let bottom = -1;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      if (
        p.data[i] === background[0] &&
        p.data[i + 1] === background[1] &&
        p.data[i + 2] === background[2]
      ) {
        continue;
      }
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? null : { left, right, top, bottom };
}
