import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LayoutName } from '../shared/template-format.js';
import { renderJob } from '../main/engine/render-job.js';
import {
  codeVariables,
  buildJob,
  longVietnamese,
  ratiosOf,
  readCatalogTemplates,
  SHORT_TEXT,
  stressValues,
  type CatalogTemplate,
} from './preview-template.js';
import { realisticLongValues } from './realistic-values.js';

/**
 * One contact sheet per built-in template: every ratio, then every print layout's first page
 * (columns, the print ones with their bleed) rendered with the sample values
 * and with stress values (rows): 1-character and 300-character decomposed Vietnamese texts, the
 * longest realistic values the fields allow, an emoji, and photos replaced by a 4000×300
 * panorama and a 300×4000 strip drawn here.
 *
 *   npm run catalog:sheet [-- outDir]   (outDir defaults to a temp folder; the paths are printed)
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
GlobalFonts.registerFromPath(
  path.join(repoRoot, 'templates', 'fonts', 'be-vietnam-pro', 'BeVietnamPro_700Bold.ttf'),
  'Sheet Label',
);

const ROW_HEIGHT = 420;
const GAP = 24;
const LABEL = 40;

/** A striped test image of the given size (the extremes of aspect ratio a photo slot meets). */
function stressImage(width: number, height: number, file: string): string {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const long = Math.max(width, height);
  const horizontal = width >= height;
  for (let i = 0; i < long; i += 100) {
    ctx.fillStyle = `hsl(${(i / long) * 360}, 70%, ${i % 200 === 0 ? 55 : 40}%)`;
    if (horizontal) ctx.fillRect(i, 0, 100, height);
    else ctx.fillRect(0, i, width, 100);
  }
  ctx.fillStyle = '#FFFFFF';
  ctx.font = `${Math.min(width, height) * 0.3}px "Sheet Label"`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(`${width}×${height}`, width / 2, height / 2);
  writeFileSync(file, canvas.toBuffer('image/png'));
  return file;
}

interface Run {
  name: string;
  values: Record<string, unknown>;
}

function runsFor(entry: CatalogTemplate, panorama: string, strip: string): Run[] {
  const { template } = entry;
  const withImages = (values: Record<string, unknown>, image: string) => {
    const out = { ...values };
    for (const v of template.variables) {
      if (v.type === 'image' && !v.bindsTo) out[v.name] = image;
    }
    return out;
  };
  const emoji: Record<string, unknown> = { ...template.sampleValues };
  const codes = codeVariables(template);
  for (const v of template.variables) {
    // A code's value stays a code: an emoji is no digit of an EAN-13.
    if (codes.has(v.name)) continue;
    const sample = template.sampleValues[v.name];
    if ((v.type === 'text' || v.type === 'longText') && typeof sample === 'string') {
      emoji[v.name] = `${sample} 🎉`;
    }
    if (v.type === 'list' && Array.isArray(sample)) {
      emoji[v.name] = sample.map((item) => `🎉 ${String(item)}`);
    }
  }
  return [
    { name: 'sample', values: template.sampleValues },
    {
      name: `1 character (${SHORT_TEXT.normalize('NFC')}, NFD) · 300×4000 strip`,
      values: withImages(stressValues(template, 'short'), strip),
    },
    {
      name: `${longVietnamese(300).normalize('NFC').length} characters NFD · 4000×300 panorama`,
      values: withImages(stressValues(template, 'long'), panorama),
    },
    {
      name: 'longest realistic values (names, phones, codes at maxLength)',
      values: realisticLongValues(template),
    },
    { name: 'emoji 🎉 appended', values: emoji },
  ];
}

async function sheet(entry: CatalogTemplate, runs: Run[], file: string): Promise<string[]> {
  const print = Object.keys(entry.template.layouts).filter((n) => entry.template.layouts[n]?.page);
  const ratios: LayoutName[] = [...ratiosOf(entry.template), ...print.sort()];
  const notes: string[] = [];
  const cells: Array<Array<{ png: Buffer; w: number; h: number }>> = [];
  for (const run of runs) {
    const row = [];
    for (const ratio of ratios) {
      // Values resolve the same for every layout; the job then names the one to draw.
      // A layout of several pages (a badge's back) would come as a zip of pages: page 1 only.
      const result = await renderJob({ ...buildJob(entry, 'square', run.values), ratio, page: 1 });
      if (!result.ok) throw new Error(`${entry.slug} ${ratio} ${run.name}: ${result.message}`);
      const overflow = result.report.layers.filter((l) => l.overflow).map((l) => l.id);
      if (overflow.length) notes.push(`${ratio} ${run.name}: overflow ${overflow.join(', ')}`);
      if (result.report.missingGlyphs.length) {
        notes.push(`${ratio} ${run.name}: missing ${result.report.missingGlyphs.join('')}`);
      }
      // A print layout's image includes its bleed: scale by the image, not the layout.
      const png = Buffer.from(result.bytes);
      const image = await loadImage(png);
      row.push({ png, w: Math.round((image.width * ROW_HEIGHT) / image.height), h: ROW_HEIGHT });
    }
    cells.push(row);
  }
  const width = GAP + cells[0]!.reduce((sum, c) => sum + c.w + GAP, 0);
  const height = GAP + runs.length * (LABEL + ROW_HEIGHT + GAP) + LABEL;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#E5E7EB';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#111827';
  ctx.font = '28px "Sheet Label"';
  ctx.fillText(`${entry.template.name} (${entry.template.id})`, GAP, GAP + 24);
  for (const [r, row] of cells.entries()) {
    const y = GAP + LABEL + r * (LABEL + ROW_HEIGHT + GAP);
    ctx.fillStyle = '#374151';
    ctx.font = '20px "Sheet Label"';
    ctx.fillText(runs[r]!.name, GAP, y + 28);
    let x = GAP;
    for (const cell of row) {
      ctx.drawImage(await loadImage(cell.png), x, y + LABEL, cell.w, cell.h);
      x += cell.w + GAP;
    }
  }
  writeFileSync(file, canvas.toBuffer('image/png'));
  return notes;
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? path.join(os.tmpdir(), 'render-desk-sheets'));
  const only = process.argv[3];
  mkdirSync(outDir, { recursive: true });
  const panorama = stressImage(4000, 300, path.join(outDir, 'stress-panorama.png'));
  const strip = stressImage(300, 4000, path.join(outDir, 'stress-strip.png'));
  let problems = 0;
  for (const entry of readCatalogTemplates()) {
    if (only && entry.slug !== only) continue;
    const file = path.join(outDir, `${entry.slug}.png`);
    const notes = await sheet(entry, runsFor(entry, panorama, strip), file);
    problems += notes.length;
    console.log(file);
    for (const note of notes) console.log(`  ${note}`);
  }
  if (problems > 0) process.exitCode = 1;
}

await main();
