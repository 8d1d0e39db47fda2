import { createAvatar, type Style } from '@dicebear/core';
import * as avatars from '@dicebear/collection';
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { Resvg } from '@resvg/resvg-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Draws the catalog's portraits and illustrations from openly licensed vector sets: faces from
 * DiceBear avatar styles (CC0 and CC BY 4.0, each named with its author) and objects from
 * Microsoft's Fluent Emoji (MIT), composed on painted backgrounds; some scenes (the real-estate
 * listing's townhouse, the customer review's silk áo dài, the product promo's serum still, the
 * fitness class's gym studio) are drawn from paths and gradients alone. Every file is drawn for
 * one template only, and each template folder gets a CREDITS.md naming the source and licence
 * of its files (it travels with a fork and a pack). Same run, same bytes.
 *
 *   npx tsx scripts/generate-catalog-art.ts [slug…]   (no slug: every template this script owns)
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogDir = path.join(repoRoot, 'templates', 'catalog');
const require = createRequire(import.meta.url);

type Ctx = SKRSContext2D;

interface EmojiSet {
  icons: Record<string, { body: string }>;
  width: number;
  height: number;
}
const fluent = JSON.parse(
  readFileSync(require.resolve('@iconify-json/fluent-emoji/icons.json'), 'utf8'),
) as EmojiSet;

// --- Sources and their licences -------------------------------------------------------------------

interface Credit {
  work: string;
  author: string;
  source: string;
  licence: string;
  licenceUrl: string;
}

const FLUENT: Credit = {
  work: 'Fluent Emoji',
  author: 'Microsoft Corporation',
  source: 'https://github.com/microsoft/fluentui-emoji (npm @iconify-json/fluent-emoji)',
  licence: 'MIT',
  licenceUrl: 'https://github.com/microsoft/fluentui-emoji/blob/main/LICENSE',
};

/** Art drawn by this script from paths and gradients alone, with no third-party source. */
const OWN_WORK: Credit = {
  work: 'drawn in code (canvas 2D paths, gradients and shadows)',
  author: 'the project',
  source: '`scripts/generate-catalog-art.ts`',
  licence: 'CC0 1.0',
  licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
};

const MIT_TEXT = `MIT License

Copyright (c) Microsoft Corporation.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

type AvatarStyle = Style<Record<string, unknown>>;

/** A DiceBear style with its author and licence, as the style's own metadata states them. */
function avatarCredit(style: AvatarStyle): Credit {
  const meta = style.meta as {
    title: string;
    creator: string;
    source: string;
    license: { name: string; url: string };
  };
  return {
    work: `${meta.title} (drawn with DiceBear, npm @dicebear/collection)`,
    author: meta.creator,
    source: meta.source,
    licence: meta.license.name,
    licenceUrl: meta.license.url,
  };
}

// --- Drawing helpers ------------------------------------------------------------------------------

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function svgToPng(svg: string, width: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: Math.round(width) } }).render().asPng();
}

async function emoji(name: string, size: number) {
  const icon = fluent.icons[name];
  if (!icon) throw new Error(`Fluent Emoji has no "${name}"`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${fluent.width} ${fluent.height}">${icon.body}</svg>`;
  return loadImage(svgToPng(svg, size));
}

function paintBackground(ctx: Ctx, w: number, h: number, stops: string[], angle = 160) {
  const rad = ((angle - 90) * Math.PI) / 180;
  const [dx, dy] = [(Math.cos(rad) * w) / 2, (Math.sin(rad) * h) / 2];
  ctx.fillStyle = linear(ctx, w / 2 - dx, h / 2 - dy, w / 2 + dx, h / 2 + dy, stops);
  ctx.fillRect(0, 0, w, h);
}

/** A radial light of `colour` at (x, y) in pixels, fading out at `radius`, over the frame. */
function lightAt(
  ctx: Ctx,
  w: number,
  h: number,
  x: number,
  y: number,
  radius: number,
  colour: string,
) {
  const g = ctx.createRadialGradient(x, y, 0, x, y, radius);
  g.addColorStop(0, colour);
  g.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.save();
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  ctx.restore();
}

/** Soft light and colour washes, so a flat gradient reads as a lit surface. */
function washes(ctx: Ctx, w: number, h: number, seed: number, colours: string[]) {
  const rand = rng(seed);
  for (const colour of colours) {
    const [x, y, r] = [rand() * w, rand() * h, (0.3 + rand() * 0.3) * Math.max(w, h)];
    lightAt(ctx, w, h, x, y, r, colour);
  }
}

/**
 * Scattered small marks (confetti, stars, snow), seeded. Sizes (fractions of the longer side) and
 * opacities are drawn from [min, min + range]; `inner` is a star's inner radius over its size.
 */
function scatter(
  ctx: Ctx,
  w: number,
  h: number,
  seed: number,
  colours: string[],
  count: number,
  shape: 'dot' | 'dash' | 'star',
  { size = [0.004, 0.01], alpha = [0.45, 0.5], inner = 0.45 } = {},
) {
  const rand = rng(seed);
  ctx.save();
  for (let i = 0; i < count; i++) {
    const [x, y] = [rand() * w, rand() * h];
    const s = (size[0]! + rand() * size[1]!) * Math.max(w, h);
    ctx.fillStyle = colours[i % colours.length]!;
    ctx.globalAlpha = alpha[0]! + rand() * alpha[1]!;
    ctx.beginPath();
    if (shape === 'dot') ctx.arc(x, y, s, 0, Math.PI * 2);
    else if (shape === 'dash') {
      ctx.translate(x, y);
      ctx.rotate(rand() * Math.PI);
      ctx.roundRect(-s * 1.8, -s / 2, s * 3.6, s, s / 2);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    } else {
      for (let k = 0; k < 8; k++) {
        const r = k % 2 === 0 ? s * 1.6 : s * inner;
        const a = (k * Math.PI) / 4;
        ctx.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
      }
      ctx.closePath();
    }
    ctx.fill();
  }
  ctx.restore();
}

interface Item {
  name: string;
  /** Centre, as fractions of the canvas. */
  x: number;
  y: number;
  /** Size as a fraction of the canvas's shorter side. */
  size: number;
  rotate?: number;
  shadow?: boolean;
  /** Multiplied over the emoji's own shading (a white blossom drawn yellow). */
  tint?: string;
}

async function place(ctx: Ctx, w: number, h: number, items: Item[]) {
  const short = Math.min(w, h);
  for (const item of items) {
    const size = item.size * short;
    let image: Parameters<Ctx['drawImage']>[0] = await emoji(item.name, size);
    if (item.tint) {
      const tinted = createCanvas(Math.ceil(size), Math.ceil(size));
      const t = tinted.getContext('2d');
      t.drawImage(image, 0, 0, size, size);
      t.globalCompositeOperation = 'multiply';
      t.fillStyle = item.tint;
      t.fillRect(0, 0, size, size);
      t.globalCompositeOperation = 'destination-in';
      t.drawImage(image, 0, 0, size, size);
      image = tinted;
    }
    ctx.save();
    ctx.translate(item.x * w, item.y * h);
    ctx.rotate(((item.rotate ?? 0) * Math.PI) / 180);
    if (item.shadow !== false) {
      ctx.shadowColor = 'rgba(20, 10, 30, 0.28)';
      ctx.shadowBlur = size * 0.08;
      ctx.shadowOffsetY = size * 0.04;
    }
    ctx.drawImage(image, -size / 2, -size / 2, size, size);
    ctx.restore();
  }
}

/** A floor or table line: the lower part of the frame in another tone, with a soft horizon. */
function floor(ctx: Ctx, w: number, h: number, from: number, stops: string[]) {
  ctx.fillStyle = vertical(ctx, from * h, h, stops);
  ctx.fillRect(0, from * h, w, h - from * h);
}

/** A firework burst: rays and sparks drawn around a point. */
function burst(ctx: Ctx, w: number, h: number, x: number, y: number, r: number, colour: string) {
  const [cx, cy, radius] = [x * w, y * h, r * Math.min(w, h)];
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineCap = 'round';
  ctx.shadowColor = colour;
  ctx.shadowBlur = radius * 0.15;
  const rays = 18;
  for (let i = 0; i < rays; i++) {
    const a = (i / rays) * Math.PI * 2;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    ctx.globalAlpha = 0.85;
    ctx.lineWidth = Math.max(2, radius * 0.03);
    ctx.beginPath();
    ctx.moveTo(cx + c * radius * 0.25, cy + s * radius * 0.25);
    ctx.lineTo(cx + c * radius * 0.8, cy + s * radius * 0.8);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx + c * radius, cy + s * radius, radius * 0.035, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** A soft round glow of light at one point (a lamp, the warmth behind a subject). */
function glow(ctx: Ctx, w: number, h: number, x: number, y: number, r: number, colour: string) {
  lightAt(ctx, w, h, x * w, y * h, r * Math.max(w, h), colour);
}

/**
 * A cord hung between two points (fractions of the frame) and sagging by `sag` of the height,
 * stroked `width` of the frame's width thick (2 px at least): returns the point a fraction t
 * along it and the straight span between its ends.
 */
function hangCord(
  ctx: Ctx,
  w: number,
  h: number,
  from: [number, number],
  to: [number, number],
  sag: number,
  colour: string,
  width: number,
) {
  const [x0, y0, x1, y1] = [from[0] * w, from[1] * h, to[0] * w, to[1] * h];
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2 + sag * h];
  ctx.strokeStyle = colour;
  ctx.lineWidth = Math.max(2, w * width);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.quadraticCurveTo(cx, cy, x1, y1);
  ctx.stroke();
  const at = (t: number): [number, number] => [
    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1,
    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1,
  ];
  return { at, span: Math.hypot(x1 - x0, y1 - y0) };
}

/** A string of pennant flags hanging in a shallow curve across the frame (party bunting). */
function bunting(
  ctx: Ctx,
  w: number,
  h: number,
  from: [number, number],
  to: [number, number],
  sag: number,
  colours: string[],
  flags: number,
) {
  ctx.save();
  const { at, span } = hangCord(ctx, w, h, from, to, sag, 'rgba(120, 60, 80, 0.55)', 0.002);
  const size = span / flags;
  ctx.shadowColor = 'rgba(90, 30, 50, 0.18)';
  ctx.shadowBlur = size * 0.12;
  ctx.shadowOffsetY = size * 0.06;
  for (let i = 0; i < flags; i++) {
    const [ax, ay] = at((i + 0.1) / flags);
    const [bx, by] = at((i + 0.9) / flags);
    ctx.fillStyle = colours[i % colours.length]!;
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.lineTo((ax + bx) / 2, (ay + by) / 2 + size * 0.95);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}

/** A bare branch from a point, forking as it goes: the twigs blossoms are then placed on. */
function branch(
  ctx: Ctx,
  w: number,
  h: number,
  points: [number, number][],
  width: number,
  colour: string,
) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (let i = 1; i < points.length; i++) {
    const [[ax, ay], [bx, by]] = [points[i - 1]!, points[i]!];
    ctx.lineWidth = Math.max(2, width * w * (1 - (i - 1) / points.length));
    ctx.beginPath();
    ctx.moveTo(ax * w, ay * h);
    ctx.lineTo(bx * w, by * h);
    ctx.stroke();
  }
  ctx.restore();
}

/** A paper lantern's string from the top edge down to where the lantern hangs. */
function hangString(ctx: Ctx, w: number, h: number, x: number, to: number, colour: string) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = Math.max(2, w * 0.0018);
  ctx.beginPath();
  ctx.moveTo(x * w, 0);
  ctx.lineTo(x * w, to * h);
  ctx.stroke();
  ctx.restore();
}

/** A low hill of snow across the frame, its crest a gentle wave, lit from above. */
function snowHill(ctx: Ctx, w: number, h: number, at: number, wave: number, ...stops: string[]) {
  const y = at * h;
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(0, h);
  ctx.lineTo(0, y + wave * h * 0.4);
  ctx.bezierCurveTo(w * 0.22, y - wave * h, w * 0.4, y + wave * h * 0.6, w * 0.55, y);
  ctx.bezierCurveTo(
    w * 0.7,
    y - wave * h * 0.7,
    w * 0.86,
    y + wave * h * 0.5,
    w,
    y - wave * h * 0.3,
  );
  ctx.lineTo(w, h);
  ctx.closePath();
  ctx.fillStyle = vertical(ctx, y - wave * h, h, stops);
  ctx.fill();
  ctx.restore();
}

/** A string of glowing bulbs hanging in a shallow curve (fairy lights), warm colours in turn. */
function stringLights(
  ctx: Ctx,
  w: number,
  h: number,
  from: [number, number],
  to: [number, number],
  sag: number,
  bulbs: number,
  offset: number,
) {
  const colours = ['#FFD36B', '#FF8A65', '#FFF4D6', '#F87171', '#FCD34D'];
  const r = Math.min(w, h) * 0.011;
  ctx.save();
  const { at } = hangCord(ctx, w, h, from, to, sag, 'rgba(10, 30, 22, 0.9)', 0.0018);
  for (let i = 0; i < bulbs; i++) {
    const [x, y] = at((i + 0.5) / bulbs);
    const colour = colours[(i + offset) % colours.length]!;
    const halo = ctx.createRadialGradient(x, y + r, 0, x, y + r, r * 5);
    halo.addColorStop(0, colour + '88');
    halo.addColorStop(1, colour + '00');
    ctx.fillStyle = halo;
    ctx.fillRect(x - r * 5, y + r - r * 5, r * 10, r * 10);
    ctx.fillStyle = '#1F3A2E';
    ctx.fillRect(x - r * 0.45, y - r * 0.3, r * 0.9, r * 0.8);
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.ellipse(x, y + r * 1.3, r * 0.72, r, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** Fairy lights on a tree: small glowing bulbs along each swag [x0, y0, x1, y1], sagging a little. */
function treeLights(ctx: Ctx, w: number, h: number, swags: [number, number, number, number][]) {
  const r = Math.min(w, h) * 0.0055;
  ctx.save();
  swags.forEach(([x0, y0, x1, y1], s) => {
    const count = Math.round(((x1 - x0) * w) / (r * 7));
    for (let i = 0; i <= count; i++) {
      const t = i / count;
      const x = (x0 + (x1 - x0) * t) * w;
      const y = (y0 + (y1 - y0) * t + Math.sin(t * Math.PI) * 0.012) * h;
      const colour = (i + s) % 3 === 0 ? '#FFB86B' : '#FFF1B8';
      const halo = ctx.createRadialGradient(x, y, 0, x, y, r * 3.2);
      halo.addColorStop(0, colour + 'CC');
      halo.addColorStop(1, colour + '00');
      ctx.fillStyle = halo;
      ctx.fillRect(x - r * 3.2, y - r * 3.2, r * 6.4, r * 6.4);
      ctx.fillStyle = '#FFFBEA';
      ctx.beginPath();
      ctx.arc(x, y, r * 0.8, 0, Math.PI * 2);
      ctx.fill();
    }
  });
  ctx.restore();
}

// --- Architectural illustration -------------------------------------------------------------------

/*
 * A street elevation drawn with paths and gradients alone, in the register of a developer's
 * brochure render. The sun is high on the left (a tropical afternoon): every cast shadow falls
 * down and to the right, and a lit face is warm where a shaded one is cool.
 */

type Box = [x: number, y: number, w: number, h: number];

/** Saves the context and clips it to the boxes; the caller restores it when done. */
function clipTo(ctx: Ctx, ...boxes: Box[]) {
  ctx.save();
  ctx.beginPath();
  for (const [x, y, w, h] of boxes) ctx.rect(x, y, w, h);
  ctx.clip();
}
type Gradient = ReturnType<Ctx['createLinearGradient']>;

function box(ctx: Ctx, [x, y, w, h]: Box, fill: string | Gradient) {
  ctx.fillStyle = fill;
  ctx.fillRect(x, y, w, h);
}

/** A gradient stop: a bare colour is spaced evenly (i/(n-1)); a pair carries its own offset. */
type Stop = string | readonly [offset: number, colour: string];

/**
 * Every linear gradient in the pictures is built here, so stops are spaced and added one way:
 * from (x0, y0) to (x1, y1), through `stops` in the order given.
 */
function linear(
  ctx: Ctx,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  stops: readonly Stop[],
): Gradient {
  const g = ctx.createLinearGradient(x0, y0, x1, y1);
  stops.forEach((s, i) => {
    if (typeof s === 'string') g.addColorStop(i / (stops.length - 1), s);
    else g.addColorStop(...s);
  });
  return g;
}

/** A vertical gradient from y0 down to y1. */
function vertical(ctx: Ctx, y0: number, y1: number, stops: readonly Stop[]): Gradient {
  return linear(ctx, 0, y0, 0, y1, stops);
}

/** A soft-edged shape: whatever `paint` fills, blurred by `blur` pixels. */
function blurred(ctx: Ctx, blur: number, paint: () => void) {
  ctx.save();
  ctx.filter = `blur(${blur.toFixed(1)}px)`;
  paint();
  ctx.restore();
}

/**
 * The shadow a projecting slab or lintel casts on the wall under it: a band `depth` deep below
 * its underside, shifted right by the sun's angle, darkest at the top.
 */
function castShadow(ctx: Ctx, x: number, y: number, w: number, depth: number, alpha = 0.34) {
  blurred(ctx, depth * 0.12, () => {
    ctx.fillStyle = vertical(ctx, y, y + depth, [
      [0, `rgba(52, 58, 74, ${alpha})`],
      [0.75, `rgba(52, 58, 74, ${alpha * 0.55})`],
      [1, 'rgba(52, 58, 74, 0)'],
    ]);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + w, y);
    ctx.lineTo(x + w + depth * 0.45, y + depth);
    ctx.lineTo(x + depth * 0.45, y + depth);
    ctx.closePath();
    ctx.fill();
  });
}

/** The shadow a pier casts sideways onto the recessed plane at its right. */
function sideShadow(ctx: Ctx, x: number, y: number, width: number, h: number, alpha = 0.26) {
  blurred(ctx, width * 0.2, () => {
    ctx.fillStyle = linear(ctx, x, 0, x + width, 0, [
      `rgba(52, 58, 74, ${alpha})`,
      'rgba(52, 58, 74, 0)',
    ]);
    ctx.fillRect(x, y, width, h);
  });
}

/**
 * A pane of glass on a bright day: the sky reflected at the top, the dim room showing through
 * at the bottom, and two diagonal glints.
 */
function glass(ctx: Ctx, [x, y, w, h]: Box, seed: number, tint = 0) {
  const rand = rng(seed);
  clipTo(ctx, [x, y, w, h]);
  box(ctx, [x, y, w, h], vertical(ctx, y, y + h, ['#A9C6D6', '#8AA9BC', '#5E7888', '#46596A']));
  // The room behind: a warm ceiling line and a darker floor.
  box(ctx, [x, y + h * 0.08, w, h * 0.05], 'rgba(255, 236, 210, 0.10)');
  box(ctx, [x, y + h * 0.72, w, h * 0.28], 'rgba(30, 36, 44, 0.22)');
  if (tint) box(ctx, [x, y, w, h], `rgba(255, 255, 255, ${tint})`);
  // Reflections of the sky: broad soft diagonal bands.
  for (let i = 0; i < 2; i++) {
    const cx = x + w * (0.15 + rand() * 0.7);
    const band = w * (0.18 + rand() * 0.25);
    ctx.fillStyle = `rgba(255, 255, 255, ${0.1 + rand() * 0.08})`;
    ctx.beginPath();
    ctx.moveTo(cx, y);
    ctx.lineTo(cx + band, y);
    ctx.lineTo(cx + band - h * 0.55, y + h);
    ctx.lineTo(cx - h * 0.55, y + h);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}

/** Aluminium frames: the outline, `cols` panels and optional transoms at fractions of the height. */
function mullions(
  ctx: Ctx,
  [x, y, w, h]: Box,
  cols: number,
  transoms: number[],
  t: number,
  colour = '#3B3B3D',
) {
  ctx.fillStyle = colour;
  ctx.fillRect(x, y, w, t);
  ctx.fillRect(x, y + h - t, w, t);
  ctx.fillRect(x, y, t, h);
  ctx.fillRect(x + w - t, y, t, h);
  for (let i = 1; i < cols; i++) ctx.fillRect(x + (w * i) / cols - t * 0.4, y, t * 0.8, h);
  for (const f of transoms) ctx.fillRect(x, y + h * f - t * 0.4, w, t * 0.8);
  // A lit edge on the left of each upright.
  ctx.fillStyle = 'rgba(255, 255, 255, 0.18)';
  for (let i = 0; i < cols; i++) ctx.fillRect(x + (w * i) / cols + t * 0.4, y, t * 0.25, h);
}

/** A glass balustrade: a faint tinted sheet, a slim top rail and a few posts. */
function glassRail(ctx: Ctx, [x, y, w, h]: Box, posts: number, t: number) {
  box(ctx, [x, y, w, h], 'rgba(196, 222, 230, 0.28)');
  box(ctx, [x, y + h * 0.1, w, h * 0.05], 'rgba(255, 255, 255, 0.16)');
  ctx.fillStyle = '#2F3133';
  ctx.fillRect(x, y, w, t);
  for (let i = 0; i <= posts; i++) ctx.fillRect(x + ((w - t) * i) / posts, y, t * 0.8, h);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.35)';
  ctx.fillRect(x, y, w, t * 0.3);
}

/** Vertical timber slats (the lam gỗ screen) with dark gaps and a shaded right edge on each. */
function slats(ctx: Ctx, [x, y, w, h]: Box, count: number, seed: number, weathered = false) {
  const rand = rng(seed);
  box(ctx, [x, y, w, h], weathered ? '#34302C' : '#3A2A20');
  const pitch = w / count;
  // Fresh oiled timber, or the silvery grey it fades to after years of sun and rain unoiled.
  const [a, b, c] = weathered
    ? [
        [156, 148, 136],
        [134, 126, 114],
        [98, 92, 84],
      ]
    : [
        [196, 132, 82],
        [170, 108, 64],
        [122, 76, 46],
      ];
  const rgb = ([r, g, bl]: number[], tone: number) =>
    `rgb(${Math.round(r! * tone)}, ${Math.round(g! * tone)}, ${Math.round(bl! * tone)})`;
  for (let i = 0; i < count; i++) {
    const sx = x + i * pitch + pitch * 0.12;
    const sw = pitch * 0.7;
    const tone = 0.9 + rand() * 0.2;
    ctx.fillStyle = linear(ctx, sx, 0, sx + sw, 0, [
      [0, rgb(a, tone)],
      [0.6, rgb(b, tone)],
      [1, rgb(c, tone)],
    ]);
    if (weathered && i % 4 === 2) {
      // A slat that has worked loose and dropped, leaving a gap at its top.
      ctx.fillRect(sx, y + h * 0.12, sw, h * 0.88);
      continue;
    }
    ctx.fillRect(sx, y, sw, h);
    if (weathered) {
      // Dark water stains running down from the top of each slat.
      ctx.fillStyle = vertical(ctx, y, y + h * 0.5, ['rgba(50,46,40,0.45)', 'rgba(50,46,40,0)']);
      ctx.fillRect(sx, y, sw, h * 0.5);
    }
  }
}

const LEAVES = ['#2C4A2E', '#3D6438', '#567F45', '#7A9F5A'];

/**
 * Foliage as layered organic blobs inside an ellipse: a dark shaded mass, mid greens, then light
 * leaves on the sunlit upper left.
 */
function foliage(
  ctx: Ctx,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  seed: number,
  palette = LEAVES,
  density = 1,
) {
  const rand = rng(seed);
  const layers = palette.length;
  for (let layer = 0; layer < layers; layer++) {
    const count = Math.round((46 - layer * 8) * density);
    const shift = layer / (layers - 1); // light layers sit towards the sun
    ctx.fillStyle = palette[layer]!;
    for (let i = 0; i < count; i++) {
      const a = rand() * Math.PI * 2;
      const d = Math.sqrt(rand()) * (1 - shift * 0.35);
      const px = cx + Math.cos(a) * d * rx * 0.82 - shift * rx * 0.22;
      const py = cy + Math.sin(a) * d * ry * 0.8 - shift * ry * 0.28;
      const r = Math.min(rx, ry) * (0.13 + rand() * 0.14) * (1 - shift * 0.3);
      ctx.beginPath();
      // A lumpy blob: a circle with a wobbling radius.
      const k = 3 + Math.floor(rand() * 3);
      const phase = rand() * Math.PI * 2;
      for (let s = 0; s <= 24; s++) {
        const t = (s / 24) * Math.PI * 2;
        const rr = r * (1 + 0.12 * Math.sin(k * t + phase));
        const qx = px + Math.cos(t) * rr;
        const qy = py + Math.sin(t) * rr * 0.9;
        if (s === 0) ctx.moveTo(qx, qy);
        else ctx.lineTo(qx, qy);
      }
      ctx.closePath();
      ctx.fill();
    }
  }
}

/** Trailing plants over a ledge: a spilling mass along it and uneven strands of leaves below. */
function trailing(ctx: Ctx, x: number, y: number, w: number, length: number, seed: number) {
  const rand = rng(seed);
  const greens = ['#2F5034', '#44703F', '#5C8A4B', '#7FA85E'];
  const strands = Math.round(w / (length * 0.1));
  for (let i = 0; i < strands; i++) {
    const sx = x + rand() * w;
    const len = length * (0.15 + rand() * rand() * 0.85);
    const leaf = length * 0.07;
    for (let d = 0; d < len; d += leaf * 0.55) {
      const taper = 1 - (d / len) * 0.55;
      const wob = Math.sin(d / (leaf * 2.5) + i) * leaf * 0.45;
      ctx.fillStyle = greens[Math.min(3, Math.floor(rand() * 3.4))]!;
      ctx.beginPath();
      ctx.ellipse(
        sx + wob,
        y + d,
        leaf * 0.6 * taper,
        leaf * 0.45 * taper,
        rand() * Math.PI,
        0,
        Math.PI * 2,
      );
      ctx.fill();
    }
  }
  foliage(ctx, x + w / 2, y, w / 2, length * 0.16, seed + 1, LEAVES, 0.9);
}

/** A street tree: a forked trunk and a loose canopy of blob clusters, its shadow on the ground. */
function streetTree(ctx: Ctx, x: number, ground: number, height: number, seed: number) {
  const rand = rng(seed);
  const crownY = ground - height * 0.64;
  const rx = height * 0.36;
  const ry = height * 0.24;
  // A tree pit with a cast-iron grate, then its shadow, behind and to the right of the trunk.
  box(ctx, [x - height * 0.06, ground - height * 0.012, height * 0.12, height * 0.024], '#6F6A63');
  ctx.fillStyle = 'rgba(40, 38, 36, 0.35)';
  for (let i = 1; i < 8; i++) {
    ctx.fillRect(
      x - height * 0.06 + (height * 0.12 * i) / 8,
      ground - height * 0.012,
      1,
      height * 0.024,
    );
  }
  blurred(ctx, height * 0.015, () => {
    ctx.fillStyle = 'rgba(60, 62, 70, 0.2)';
    ctx.beginPath();
    ctx.ellipse(
      x + height * 0.14,
      ground - height * 0.02,
      height * 0.22,
      height * 0.02,
      0,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  });
  ctx.strokeStyle = linear(ctx, x - height * 0.02, 0, x + height * 0.02, 0, ['#8E8578', '#4A4239']);
  ctx.lineCap = 'round';
  const limb = (x1: number, y1: number, x2: number, y2: number, width: number) => {
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.quadraticCurveTo((x1 + x2) / 2 + (rand() - 0.5) * width * 3, (y1 + y2) / 2, x2, y2);
    ctx.stroke();
  };
  const fork = ground - height * 0.4;
  limb(x, ground, x - height * 0.005, fork, height * 0.032);
  limb(x, fork + height * 0.02, x - height * 0.16, crownY + ry * 0.2, height * 0.018);
  limb(x, fork + height * 0.02, x + height * 0.15, crownY + ry * 0.1, height * 0.017);
  limb(x, fork, x + height * 0.02, crownY - ry * 0.3, height * 0.015);
  limb(x - height * 0.08, crownY + ry * 0.6, x - height * 0.22, crownY + ry * 0.4, height * 0.008);
  // Canopy: loose overlapping clusters, each layered dark to light, with gaps between them.
  const clusters: [number, number, number, number][] = [];
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * Math.PI * 2 + rand() * 0.5;
    const d = i === 0 ? 0 : 0.45 + rand() * 0.25;
    const size = 0.38 + rand() * 0.22;
    clusters.push([Math.cos(a) * d, Math.sin(a) * d * 0.8, size, size * (0.75 + rand() * 0.25)]);
  }
  // The crown's soft shadow on the facades behind it, down and to the right.
  blurred(ctx, rx * 0.12, () => {
    ctx.fillStyle = 'rgba(44, 54, 66, 0.16)';
    ctx.beginPath();
    ctx.ellipse(x + rx * 0.3, crownY + ry * 0.35, rx * 1.05, ry * 0.85, 0, 0, Math.PI * 2);
    ctx.fill();
  });
  // The crown is drawn on a layer of its own, the lower, shaded clusters first, then shaded as
  // one volume (dark low on the right, away from the sun) before it joins the scene.
  const crown = createCanvas(ctx.canvas.width, ctx.canvas.height);
  const cc = crown.getContext('2d');
  clusters.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  clusters.forEach(([dx, dy, sx, sy], i) =>
    foliage(cc, x + dx * rx, crownY + dy * ry, rx * sx, ry * sy, seed * 10 + i, LEAVES, 0.55),
  );
  cc.globalCompositeOperation = 'source-atop';
  const volume = cc.createRadialGradient(
    x - rx * 0.45,
    crownY - ry * 0.6,
    rx * 0.1,
    x - rx * 0.2,
    crownY - ry * 0.3,
    rx * 1.7,
  );
  volume.addColorStop(0, 'rgba(255, 240, 200, 0.16)');
  volume.addColorStop(0.45, 'rgba(255, 240, 200, 0)');
  volume.addColorStop(1, 'rgba(16, 34, 22, 0.45)');
  cc.fillStyle = volume;
  cc.fillRect(0, 0, crown.width, crown.height);
  ctx.drawImage(crown, 0, 0);
}

interface Neighbour {
  x: number;
  w: number;
  /** Height and storey height, in metres. */
  height: number;
  storey: number;
  wall: string;
  seed: number;
  /** Windows on each upper floor. */
  windows: number;
  /** A railed balcony with a pot plant on the first floor. */
  balcony?: boolean;
  /** A terracotta tiled hood over the top floor's windows (an older house). */
  hood?: boolean;
  /** An air-conditioner unit beside the top window. */
  aircon?: boolean;
}

/** A neighbouring townhouse, plain and muted so the listed one leads. */
function neighbour(ctx: Ctx, n: Neighbour, ground: number, m: number) {
  const rand = rng(n.seed);
  const top = ground - n.height * m;
  box(ctx, [n.x, top, n.w, ground - top], n.wall);
  // A faint vertical weathering, darker low down.
  box(
    ctx,
    [n.x, top, n.w, ground - top],
    vertical(ctx, top, ground, ['rgba(255,255,255,0.12)', 'rgba(60,50,40,0.06)']),
  );
  // Parapet cap and its shadow.
  box(ctx, [n.x - m * 0.1, top, n.w + m * 0.2, m * 0.22], 'rgba(255,255,255,0.3)');
  castShadow(ctx, n.x, top + m * 0.22, n.w, m * 0.35, 0.16);
  const storeys = Math.floor(n.height / n.storey);
  for (let s = 0; s < storeys; s++) {
    const base = ground - s * n.storey * m;
    if (s === 0) {
      // Ground floor: a roller shutter, half raised on a glazed front or closed.
      const shutter: Box = [n.x + m * 0.4, base - 2.9 * m, n.w - m * 0.8, 2.9 * m];
      box(ctx, shutter, '#8F8F8C');
      const open = rand() < 0.5 ? 0.55 : 1;
      glass(ctx, [shutter[0], shutter[1], shutter[2], shutter[3]], n.seed + 50, 0.05);
      box(ctx, [shutter[0], shutter[1], shutter[2], shutter[3] * open], '#A3A19C');
      ctx.fillStyle = 'rgba(70, 70, 72, 0.22)';
      for (let yy = shutter[1]; yy < shutter[1] + shutter[3] * open; yy += m * 0.12) {
        ctx.fillRect(shutter[0], yy, shutter[2], 1);
      }
      castShadow(ctx, shutter[0], shutter[1], shutter[2], m * 0.5, 0.22);
      box(ctx, [n.x, base - 3.2 * m, n.w, m * 0.3], 'rgba(255,255,255,0.25)');
      continue;
    }
    const ww = Math.min(2.2 * m, (n.w - m * 0.6 * (n.windows + 1)) / n.windows);
    const gap = (n.w - ww * n.windows) / (n.windows + 1);
    const wy = base - n.storey * m + m * 0.9;
    const wh = n.storey * m - m * 1.75;
    for (let k = 0; k < n.windows; k++) {
      const win: Box = [n.x + gap + k * (ww + gap), wy, ww, wh];
      glass(ctx, win, n.seed + s * 7 + k, 0.1);
      mullions(ctx, win, ww > 2.2 * m ? 3 : 2, [0.25], m * 0.07, '#5E5B57');
      castShadow(ctx, win[0] - m * 0.1, win[1], win[2] + m * 0.2, m * 0.4, 0.2);
      if (n.hood && s === storeys - 1) {
        // Tiled hood: a sloped band of terracotta with ridged tiles.
        const hy = wy - m * 0.55;
        ctx.fillStyle = '#A9705A';
        ctx.beginPath();
        ctx.moveTo(win[0] - m * 0.25, hy + m * 0.5);
        ctx.lineTo(win[0] + ww + m * 0.25, hy + m * 0.5);
        ctx.lineTo(win[0] + ww + m * 0.1, hy);
        ctx.lineTo(win[0] - m * 0.1, hy);
        ctx.closePath();
        ctx.fill();
        ctx.fillStyle = 'rgba(70, 35, 25, 0.3)';
        for (let tx = win[0]; tx < win[0] + ww; tx += m * 0.2) ctx.fillRect(tx, hy, 1, m * 0.5);
        castShadow(ctx, win[0] - m * 0.2, hy + m * 0.5, ww + m * 0.4, m * 0.5, 0.24);
      }
    }
    if (n.balcony && s === 1) {
      const rail: Box = [n.x + m * 0.3, base - m * 1.05, n.w - m * 0.6, m * 1.0];
      box(ctx, [n.x, base - m * 0.05, n.w, m * 0.22], 'rgba(255,255,255,0.4)');
      castShadow(ctx, n.x, base + m * 0.17, n.w, m * 0.6, 0.22);
      foliage(
        ctx,
        rail[0] + m * 0.55,
        rail[1] + m * 0.05,
        m * 0.5,
        m * 0.45,
        n.seed + 7,
        LEAVES,
        0.4,
      );
      ctx.strokeStyle = '#4F4E4C';
      ctx.lineWidth = Math.max(1, m * 0.04);
      ctx.beginPath();
      ctx.moveTo(rail[0], rail[1]);
      ctx.lineTo(rail[0] + rail[2], rail[1]);
      ctx.stroke();
      ctx.lineWidth = Math.max(1, m * 0.025);
      for (let bx = rail[0]; bx <= rail[0] + rail[2]; bx += m * 0.14) {
        ctx.beginPath();
        ctx.moveTo(bx, rail[1]);
        ctx.lineTo(bx, rail[1] + rail[3]);
        ctx.stroke();
      }
    }
    box(ctx, [n.x, base - m * 0.12, n.w, m * 0.12], 'rgba(0,0,0,0.05)');
    if (s === storeys - 1 && n.aircon) {
      // An air-conditioner unit on a bracket beside the top window.
      const ac: Box = [n.x + n.w - m * 1.3, base - m * 1.3, m * 0.85, m * 0.6];
      blurred(ctx, m * 0.06, () =>
        box(ctx, [ac[0] + m * 0.08, ac[1] + m * 0.1, ac[2], ac[3]], 'rgba(40,44,52,0.25)'),
      );
      box(ctx, ac, '#EEEDEA');
      ctx.strokeStyle = '#9A9894';
      ctx.lineWidth = Math.max(1, m * 0.03);
      ctx.beginPath();
      ctx.arc(ac[0] + ac[2] * 0.38, ac[1] + ac[3] / 2, ac[3] * 0.32, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
}

// --- Neglect: what years without upkeep do to the same facade -------------------------------------

/** Leaves dried brown on the stem: a dead shrub keeps a few, a live one would be green. */
const DRY = ['#4E4032', '#6B5842', '#87714F', '#A38D66'];

/** A neglected pane: a dull film of dust, grime gathered low down and the dried tracks of rain. */
function dirtyGlass(ctx: Ctx, [x, y, w, h]: Box, seed: number) {
  const rand = rng(seed);
  clipTo(ctx, [x, y, w, h]);
  box(ctx, [x, y, w, h], 'rgba(122, 116, 102, 0.45)');
  box(
    ctx,
    [x, y, w, h],
    vertical(ctx, y, y + h, ['rgba(88,80,66,0)', 'rgba(88,80,66,0.08)', 'rgba(80,72,58,0.5)']),
  );
  ctx.fillStyle = 'rgba(160, 152, 134, 0.3)';
  for (let i = 0; i < w / 5; i++) {
    ctx.fillRect(x + rand() * w, y + rand() * h * 0.4, 1.3, h * (0.1 + rand() * 0.45));
  }
  ctx.restore();
}

/** Dirt washed down a wall from a ledge at `y`: tapering dark runs, blurred a little. */
function streaks(
  ctx: Ctx,
  x: number,
  y: number,
  w: number,
  length: number,
  count: number,
  seed: number,
  alpha = 0.32,
) {
  const rand = rng(seed);
  blurred(ctx, length * 0.04, () => {
    for (let i = 0; i < count; i++) {
      const sx = x + rand() * w;
      const sw = length * (0.05 + rand() * 0.22);
      const sl = length * (0.3 + rand() * 0.7);
      const a = alpha * (0.5 + rand() * 0.5);
      ctx.fillStyle = vertical(ctx, y, y + sl, [
        `rgba(70, 64, 52, ${a})`,
        `rgba(70, 64, 52, ${a * 0.5})`,
        'rgba(70, 64, 52, 0)',
      ]);
      ctx.beginPath();
      ctx.moveTo(sx, y);
      ctx.lineTo(sx + sw, y);
      ctx.lineTo(sx + sw * 0.65, y + sl);
      ctx.lineTo(sx + sw * 0.35, y + sl);
      ctx.closePath();
      ctx.fill();
    }
  });
}

/** Rising damp: a dark, greenish tide mark with a ragged top edge, from the ground up. */
function damp(ctx: Ctx, x: number, ground: number, w: number, height: number, seed: number) {
  const rand = rng(seed);
  blurred(ctx, height * 0.06, () => {
    ctx.fillStyle = vertical(ctx, ground - height, ground, [
      'rgba(74, 80, 62, 0.22)',
      'rgba(66, 72, 56, 0.38)',
      'rgba(58, 60, 48, 0.5)',
    ]);
    ctx.beginPath();
    ctx.moveTo(x, ground);
    const steps = 14;
    for (let i = 0; i <= steps; i++) {
      ctx.lineTo(x + (w * i) / steps, ground - height * (0.55 + rand() * 0.45));
    }
    ctx.lineTo(x + w, ground);
    ctx.closePath();
    ctx.fill();
  });
}

/** Paint flaked off the render: bare grey cement inside a ragged edge of lifted paint. */
function peel(ctx: Ctx, cx: number, cy: number, r: number, seed: number) {
  const rand = rng(seed);
  const pts: [number, number][] = [];
  const k = 11;
  for (let i = 0; i < k; i++) {
    const a = (i / k) * Math.PI * 2;
    const rr = r * (0.5 + rand() * 0.6);
    pts.push([cx + Math.cos(a) * rr * 1.25, cy + Math.sin(a) * rr * 0.85]);
  }
  const trace = (dx: number, dy: number) => {
    ctx.beginPath();
    pts.forEach(([px, py], i) => (i ? ctx.lineTo(px + dx, py + dy) : ctx.moveTo(px + dx, py + dy)));
    ctx.closePath();
  };
  ctx.fillStyle = 'rgba(58, 54, 48, 0.22)';
  trace(r * 0.06, r * 0.08);
  ctx.fill();
  ctx.fillStyle = '#9B958A';
  trace(0, 0);
  ctx.fill();
  // Darker cement showing where the render has come away too, inside the flake.
  ctx.fillStyle = 'rgba(110, 104, 94, 0.5)';
  ctx.beginPath();
  ctx.ellipse(cx + r * 0.1, cy + r * 0.1, r * 0.45, r * 0.28, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = 'rgba(236, 232, 222, 0.5)';
  ctx.lineWidth = 1;
  trace(0, 0);
  ctx.stroke();
}

/** A dead shrub: bare grey-brown twigs from the soil, a few dry leaves still on them. */
function deadShrub(ctx: Ctx, x: number, y: number, width: number, height: number, seed: number) {
  const rand = rng(seed);
  ctx.strokeStyle = '#6E6152';
  ctx.lineCap = 'round';
  /** A twig, forking once or twice more towards its tip. */
  const twig = (
    x0: number,
    y0: number,
    angle: number,
    length: number,
    thick: number,
    depth: number,
  ) => {
    const x1 = x0 + Math.cos(angle) * length;
    const y1 = y0 + Math.sin(angle) * length;
    ctx.lineWidth = Math.max(0.8, thick);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    if (depth > 0) {
      twig(x1, y1, angle - 0.35 - rand() * 0.3, length * 0.62, thick * 0.65, depth - 1);
      twig(x1, y1, angle + 0.35 + rand() * 0.3, length * 0.58, thick * 0.65, depth - 1);
    }
  };
  for (let i = 0; i < 6; i++) {
    const spread = ((i + 0.5) / 6 - 0.5) * 1.4 * Math.min(1.4, width / height);
    twig(
      x + (rand() - 0.5) * width * 0.2,
      y,
      -Math.PI / 2 + spread + (rand() - 0.5) * 0.2,
      height * (0.35 + rand() * 0.2),
      height * 0.035,
      2,
    );
  }
  foliage(ctx, x, y - height * 0.6, width * 0.4, height * 0.25, seed + 1, DRY, 0.1);
}

/** A tuft of weeds: thin blades curving up and out, green going to straw. */
function weeds(ctx: Ctx, x: number, y: number, size: number, seed: number) {
  const rand = rng(seed);
  const colours = ['#5F6B3A', '#76804A', '#8F8A58', '#A39A66'];
  ctx.lineCap = 'round';
  for (let i = 0; i < 9; i++) {
    const lean = (rand() - 0.5) * size * 1.1;
    const tall = size * (0.45 + rand() * 0.55);
    ctx.strokeStyle = colours[Math.floor(rand() * colours.length)]!;
    ctx.lineWidth = Math.max(1, size * 0.06);
    ctx.beginPath();
    ctx.moveTo(x + (rand() - 0.5) * size * 0.3, y);
    ctx.quadraticCurveTo(x + lean * 0.2, y - tall * 0.6, x + lean, y - tall);
    ctx.stroke();
  }
}

/** Rubbish dumped at the foot of an empty house: a tied black bag, a can, paper and a foam box. */
function rubbish(ctx: Ctx, x: number, y: number, m: number, seed: number) {
  const rand = rng(seed);
  // A black bin bag, knotted at the top.
  blurred(ctx, m * 0.05, () => {
    ctx.fillStyle = 'rgba(30, 30, 34, 0.35)';
    ctx.beginPath();
    ctx.ellipse(x + m * 0.12, y, m * 0.42, m * 0.07, 0, 0, Math.PI * 2);
    ctx.fill();
  });
  const bag = ctx.createRadialGradient(
    x - m * 0.1,
    y - m * 0.4,
    m * 0.02,
    x,
    y - m * 0.25,
    m * 0.4,
  );
  bag.addColorStop(0, '#5A5C62');
  bag.addColorStop(0.5, '#2A2B2F');
  bag.addColorStop(1, '#17181B');
  ctx.fillStyle = bag;
  ctx.beginPath();
  ctx.moveTo(x - m * 0.32, y);
  ctx.bezierCurveTo(
    x - m * 0.4,
    y - m * 0.3,
    x - m * 0.15,
    y - m * 0.5,
    x - m * 0.02,
    y - m * 0.48,
  );
  ctx.lineTo(x - m * 0.06, y - m * 0.62);
  ctx.lineTo(x + m * 0.06, y - m * 0.6);
  ctx.lineTo(x + m * 0.03, y - m * 0.47);
  ctx.bezierCurveTo(x + m * 0.2, y - m * 0.45, x + m * 0.38, y - m * 0.25, x + m * 0.3, y);
  ctx.closePath();
  ctx.fill();
  // A white foam takeaway box, lid up, and a flattened can.
  box(ctx, [x + m * 0.38, y - m * 0.14, m * 0.34, m * 0.14], '#E9E6DE');
  box(ctx, [x + m * 0.38, y - m * 0.14, m * 0.34, m * 0.03], '#C9C5BC');
  box(ctx, [x + m * 0.8, y - m * 0.07, m * 0.16, m * 0.07], '#A8423A');
  box(ctx, [x + m * 0.8, y - m * 0.07, m * 0.16, m * 0.02], '#C9C3BA');
  // Scraps of paper.
  ctx.fillStyle = 'rgba(236, 232, 220, 0.9)';
  for (let i = 0; i < 4; i++) {
    const px = x - m * 0.9 + rand() * m * 2.2;
    const py = y + rand() * m * 0.25;
    ctx.beginPath();
    ctx.moveTo(px, py);
    ctx.lineTo(px + m * 0.16, py - m * 0.03);
    ctx.lineTo(px + m * 0.19, py + m * 0.04);
    ctx.lineTo(px + m * 0.02, py + m * 0.06);
    ctx.closePath();
    ctx.fill();
  }
}

/** A clear afternoon sky, pale at the horizon, the sun's warmth on the upper left. */
function sunny(ctx: Ctx, w: number, h: number, ground: number) {
  box(ctx, [0, 0, w, h], vertical(ctx, 0, ground, ['#7FB3DC', '#A9CDE9', '#D6E7F1', '#F1EEE6']));
  const sun = ctx.createRadialGradient(w * 0.05, 0, 0, w * 0.05, 0, w * 0.6);
  sun.addColorStop(0, 'rgba(255, 240, 214, 0.55)');
  sun.addColorStop(1, 'rgba(255, 240, 214, 0)');
  box(ctx, [0, 0, w, h], sun);
  blurred(ctx, h * 0.02, () => {
    const rand = rng(211);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.55)';
    for (const [cx, cy, s] of [
      [0.78, 0.1, 1],
      [0.22, 0.16, 0.8],
    ] as const) {
      for (let i = 0; i < 7; i++) {
        ctx.beginPath();
        ctx.ellipse(
          w * cx + (rand() - 0.5) * w * 0.16 * s,
          h * cy + (rand() - 0.5) * h * 0.03,
          w * (0.04 + rand() * 0.04) * s,
          h * (0.014 + rand() * 0.012) * s,
          0,
          0,
          Math.PI * 2,
        );
        ctx.fill();
      }
    }
  });
}

/** A flat overcast sky: low grey cloud in soft banks, no sun. */
function overcast(ctx: Ctx, w: number, h: number, ground: number) {
  box(ctx, [0, 0, w, h], vertical(ctx, 0, ground, ['#8C939B', '#A3A9AF', '#BCBFC1', '#CFCFCB']));
  blurred(ctx, h * 0.03, () => {
    const rand = rng(213);
    for (let i = 0; i < 26; i++) {
      const dark = i % 3 === 0;
      ctx.fillStyle = dark ? 'rgba(112, 118, 126, 0.35)' : 'rgba(214, 216, 218, 0.35)';
      ctx.beginPath();
      ctx.ellipse(
        rand() * w,
        h * (0.02 + rand() * 0.4),
        w * (0.06 + rand() * 0.1),
        h * (0.025 + rand() * 0.03),
        0,
        0,
        Math.PI * 2,
      );
      ctx.fill();
    }
  });
}

/** Rust on a steel gate: blooms of orange-brown, heaviest low down where rain splashes. */
function rust(ctx: Ctx, [x, y, w, h]: Box, m: number, seed: number) {
  const rand = rng(seed);
  clipTo(ctx, [x, y, w, h]);
  box(ctx, [x, y, w, h], 'rgba(120, 108, 96, 0.18)');
  box(
    ctx,
    [x, y + h * 0.55, w, h * 0.45],
    vertical(ctx, y + h * 0.55, y + h, ['rgba(126, 66, 30, 0)', 'rgba(126, 66, 30, 0.55)']),
  );
  blurred(ctx, m * 0.025, () => {
    for (let i = 0; i < 90; i++) {
      const low = rand();
      ctx.fillStyle = i % 2 ? 'rgba(132, 70, 34, 0.32)' : 'rgba(160, 94, 50, 0.26)';
      ctx.beginPath();
      ctx.ellipse(
        x + rand() * w,
        y + h * (1 - low * low * low),
        m * (0.04 + rand() * 0.16),
        m * (0.012 + rand() * 0.025),
        0,
        0,
        Math.PI * 2,
      );
      ctx.fill();
    }
  });
  // Rust run down from the slats' joints.
  ctx.fillStyle = 'rgba(120, 62, 28, 0.35)';
  for (let i = 0; i < 16; i++) ctx.fillRect(x + rand() * w, y + rand() * h, 1.5, h * 0.12);
  ctx.restore();
}

/**
 * Years of neglect on the house's rendered surfaces (never its glass or gate): dirt washed down
 * from every ledge, blotchy grey mottling, rising damp at the foot and flaked paint.
 */
function neglect(
  ctx: Ctx,
  M: (left: number, bottom: number, width: number, height: number) => Box,
  X: (metres: number) => number,
  Y: (metres: number) => number,
  m: number,
) {
  const render: Box[] = [
    M(0, 0, 0.35, 10.2),
    M(2.15, 0, 0.25, 3.6),
    M(5.65, 0, 0.35, 10.2),
    M(0, 3.0, 6, 0.6),
    M(-0.15, 3.45, 6.3, 0.65),
    M(0.35, 6.65, 5.3, 0.25),
    M(0.35, 6.9, 3.45, 0.25),
    M(-0.15, 10.2, 6.3, 0.38),
    M(3.3, 10.58, 1.3, 2.45),
    M(3.15, 12.96, 3.0, 0.27),
    M(0.6, 10.58, 1.8, 0.5),
  ];
  clipTo(ctx, ...render);
  // Blotchy mottling: the paint weathered unevenly.
  const rand = rng(481);
  blurred(ctx, m * 0.12, () => {
    for (let i = 0; i < 70; i++) {
      ctx.fillStyle = i % 3 ? 'rgba(92, 86, 72, 0.2)' : 'rgba(236, 232, 222, 0.12)';
      ctx.beginPath();
      ctx.ellipse(
        X(-0.2 + rand() * 6.4),
        Y(rand() * 13.2),
        m * (0.2 + rand() * 0.5),
        m * (0.15 + rand() * 0.35),
        0,
        0,
        Math.PI * 2,
      );
      ctx.fill();
    }
  });
  // Black mould where water sits: the frame's corners and the parapet's ends.
  blurred(ctx, m * 0.18, () => {
    ctx.fillStyle = 'rgba(48, 50, 42, 0.4)';
    for (const [mx, my, rx, ry] of [
      [0.1, 10.3, 0.6, 0.5],
      [5.9, 10.2, 0.5, 0.8],
      [-0.1, 3.6, 0.5, 0.35],
      [6.1, 3.7, 0.6, 0.4],
      [3.4, 12.9, 0.5, 0.4],
    ] as const) {
      ctx.beginPath();
      ctx.ellipse(X(mx), Y(my), rx * m, ry * m, 0, 0, Math.PI * 2);
      ctx.fill();
    }
  });
  // Dirt washed down from each ledge and sill.
  const ledges: [bottom: number, length: number, count: number, alpha: number][] = [
    [13.23, 2.0, 12, 0.4],
    [11.08, 0.5, 8, 0.35],
    [10.58, 4.5, 18, 0.42],
    [7.15, 0.9, 14, 0.4],
    [6.9, 0.3, 12, 0.3],
    [4.1, 0.75, 26, 0.45],
    [3.45, 0.5, 14, 0.4],
    [3.0, 2.2, 8, 0.35],
  ];
  ledges.forEach(([bottom, length, count, alpha], i) =>
    streaks(ctx, X(-0.2), Y(bottom), 6.4 * m, length * m, count, 491 + i, alpha),
  );
  // Rising damp along the foot, and splash-back dirt above the step.
  damp(ctx, X(-0.15), Y(0), 6.3 * m, 1.3 * m, 501);
  // Flaked paint.
  const flakes: [x: number, y: number, r: number][] = [
    [0.9, 3.8, 0.2],
    [3.3, 3.72, 0.16],
    [5.2, 3.9, 0.1],
    [0.17, 8.3, 0.12],
    [0.2, 5.4, 0.09],
    [5.8, 5.7, 0.12],
    [5.85, 9.1, 0.09],
    [2.3, 10.4, 0.13],
    [3.7, 12.4, 0.14],
    [0.2, 1.9, 0.12],
    [5.8, 1.3, 0.1],
    [4.6, 3.2, 0.12],
    [1.4, 10.8, 0.1],
  ];
  flakes.forEach(([fx, fy, r], i) => peel(ctx, X(fx), Y(fy), r * m * 1.4, 511 + i));
  // Flyers pasted on the pier and left to fade (for drilling, for loans).
  const flyer = rng(531);
  for (let i = 0; i < 4; i++) {
    const fx = X(0.03 + flyer() * 0.12);
    const fy = Y(1.9 - i * 0.3 - flyer() * 0.1);
    box(
      ctx,
      [fx, fy, m * 0.2, m * 0.13],
      i % 2 ? 'rgba(236, 230, 206, 0.85)' : 'rgba(226, 218, 200, 0.8)',
    );
    box(ctx, [fx + m * 0.02, fy + m * 0.03, m * 0.15, m * 0.02], 'rgba(150, 50, 40, 0.6)');
    box(ctx, [fx + m * 0.02, fy + m * 0.07, m * 0.12, m * 0.015], 'rgba(70, 70, 80, 0.45)');
  }
  ctx.restore();
  // Weeds rooted in the joint between the step and the wall.
  for (const [wx, s] of [
    [0.05, 0.4],
    [2.3, 0.3],
    [5.75, 0.45],
    [6.1, 0.3],
  ] as const) {
    weeds(ctx, X(wx), Y(0.1), s * m, 541 + Math.round(wx * 10));
  }
}

/**
 * A strip of front garden over the pavement's inner edge, foreshortened along its joints: lawn
 * either side of a paved drive to the gate, edged in stone; or, neglected, bare trodden earth,
 * dry grass and weeds, and a drive of cracked, sunken and missing slabs.
 */
function frontYard(
  ctx: Ctx,
  P: (metres: number, y: number) => number,
  top: number,
  bottom: number,
  m: number,
  weathered: boolean,
) {
  const rand = rng(561);
  const quad = (a: number, b: number, y0: number, y1: number) => {
    ctx.beginPath();
    ctx.moveTo(P(a, y0), y0);
    ctx.lineTo(P(b, y0), y0);
    ctx.lineTo(P(b, y1), y1);
    ctx.lineTo(P(a, y1), y1);
    ctx.closePath();
  };
  ctx.fillStyle = weathered
    ? vertical(ctx, top, bottom, ['#7A6C55', '#8A7C62'])
    : vertical(ctx, top, bottom, ['#5E9140', '#74A84D']);
  quad(-0.1, 6.1, top, bottom);
  ctx.fill();
  // Blades of grass; dry and sparse in the neglected strip.
  const blades = weathered ? 260 : 480;
  const greens = weathered
    ? ['#9A8F62', '#A99E70', '#6E6A44', '#5E5A3A']
    : ['#8CBF5C', '#4F8435', '#A3CF6E', '#3F7230'];
  ctx.lineWidth = 1.2;
  for (let i = 0; i < blades; i++) {
    const y = top + rand() * (bottom - top);
    const f = rand();
    const x = P(-0.1, y) + (P(6.1, y) - P(-0.1, y)) * f;
    ctx.strokeStyle = greens[i % 4]!;
    ctx.beginPath();
    ctx.moveTo(x, y + 1);
    ctx.lineTo(x + (rand() - 0.5) * 3, y - m * (0.06 + rand() * 0.06));
    ctx.stroke();
  }
  // The drive: three rows of two slabs from the gate.
  const rows = 3;
  for (let r = 0; r < rows; r++) {
    const y0 = top + ((bottom - top) * r) / rows + 1.5;
    const y1 = top + ((bottom - top) * (r + 1)) / rows - 1.5;
    for (const [a, b] of [
      [2.55, 4.05],
      [4.12, 5.6],
    ] as const) {
      const missing = weathered && r === 1 && a > 3;
      if (missing) {
        quad(a, b, y0, y1);
        ctx.fillStyle = '#6A5C48';
        ctx.fill();
        continue;
      }
      const sink = weathered && r === 2 && a < 3 ? 1.5 : 0;
      quad(a, b, y0 + sink, y1 + sink);
      ctx.fillStyle = weathered ? (r === 0 ? '#9F998C' : '#A8A294') : '#DCD7CD';
      ctx.fill();
      ctx.fillStyle = weathered ? 'rgba(255,255,255,0.12)' : 'rgba(255,255,255,0.55)';
      quad(a, b, y0 + sink, y0 + sink + 1.5);
      ctx.fill();
      if (weathered) {
        // A crack across it.
        ctx.strokeStyle = 'rgba(60, 54, 46, 0.7)';
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(P(a + 0.3, y0), y0 + sink);
        ctx.lineTo(P((a + b) / 2, y1), (y0 + y1) / 2 + sink);
        ctx.lineTo(P(b - 0.2, y1), y1 + sink);
        ctx.stroke();
      }
    }
  }
  if (weathered) {
    for (let i = 0; i < 9; i++) {
      const y = top + (0.3 + rand() * 0.7) * (bottom - top);
      const x = P(-0.1, y) + (P(6.1, y) - P(-0.1, y)) * rand();
      weeds(ctx, x, y, m * (0.2 + rand() * 0.25), 571 + i);
    }
  }
  // A stone edging along the front, catching the light on top.
  quad(-0.12, 6.12, bottom - m * 0.04, bottom + m * 0.05);
  ctx.fillStyle = weathered ? '#A09A8E' : '#D2CCC1';
  ctx.fill();
  quad(-0.12, 6.12, bottom - m * 0.04, bottom - m * 0.01);
  ctx.fillStyle = weathered ? 'rgba(255,255,255,0.1)' : 'rgba(255,255,255,0.6)';
  ctx.fill();
}

/** How the townhouse is shown: as it stands now, or years neglected; with a front strip. */
interface TownhouseOptions {
  /** Grimy streaked render, dirty glass, grey timber, a rusty gate, dead plants, grey sky. */
  weathered?: boolean;
  /** A strip of lawn and a paved path in front of the house, over the pavement's inner edge. */
  yard?: boolean;
}

/**
 * A modern Vietnamese townhouse (nhà phố), 6 m wide and 13 m tall — three storeys and a roof
 * terrace under a pergola — on its street between two neighbours, under an afternoon sky. The
 * house is centred; its facade fills the band between 12 % and 77 % of the height. `weathered`
 * draws the same house, same geometry, after years of neglect under an overcast sky.
 */
function townhouse(ctx: Ctx, w: number, h: number, options: TownhouseOptions = {}) {
  const { weathered = false, yard = false } = options;
  /** A colour for the house as it stands, and for it neglected. */
  const worn = (fresh: string, neglected: string) => (weathered ? neglected : fresh);
  const m = h * 0.0485; // pixels per metre at the facade
  const ground = h * 0.765;
  const x0 = w / 2 - 3 * m;
  const X = (metres: number) => x0 + metres * m;
  const Y = (metres: number) => ground - metres * m;
  /** A box in metres: left, bottom, width, height. */
  const M = (left: number, bottom: number, width: number, height: number): Box => [
    X(left),
    Y(bottom + height),
    width * m,
    height * m,
  ];

  if (weathered) overcast(ctx, w, h, ground);
  // Sky: clear, pale at the horizon, with the sun's warmth on the upper left.
  else sunny(ctx, w, h, ground);
  // Distant towers in the haze.
  ctx.fillStyle = 'rgba(150, 172, 190, 0.28)';
  for (const [tx, tw, th] of [
    [0.03, 0.07, 0.42],
    [0.12, 0.05, 0.3],
    [0.86, 0.06, 0.36],
    [0.93, 0.05, 0.48],
  ] as const) {
    ctx.fillRect(w * tx, ground - h * th, w * tw, h * th);
  }

  // Neighbours, muted: a taller block and an older house on the left, a lower house and a
  // four-storey one on the right.
  const neighbours: Neighbour[] = [
    { x: 0, w: X(-4.6), height: 17.5, storey: 3.4, wall: '#BCC0BF', seed: 301, windows: 2 },
    {
      x: X(-4.6),
      w: 4.6 * m,
      height: 10.8,
      storey: 3.5,
      wall: '#D3C3A7',
      seed: 303,
      windows: 1,
      balcony: true,
      hood: true,
    },
    {
      x: X(6),
      w: 4.8 * m,
      height: 8.4,
      storey: 3.5,
      wall: '#BFC6B5',
      seed: 307,
      windows: 1,
      balcony: true,
    },
    {
      x: X(10.8),
      w: w - X(10.8),
      height: 14.6,
      storey: 3.4,
      wall: '#CBC1B2',
      seed: 311,
      aircon: true,
      windows: 2,
    },
  ];
  for (const n of neighbours) neighbour(ctx, n, ground, m);
  // Haze over them, so they sit back.
  ctx.fillStyle = 'rgba(206, 220, 230, 0.3)';
  for (const n of neighbours) ctx.fillRect(n.x, ground - n.height * m, n.w, n.height * m);
  if (weathered) {
    // Under a grey sky they lose their warmth too.
    ctx.fillStyle = 'rgba(140, 146, 152, 0.16)';
    for (const n of neighbours) ctx.fillRect(n.x, ground - n.height * m, n.w, n.height * m);
  }
  // The house's frame, standing proud of the lower neighbour, shades its left edge.
  sideShadow(ctx, X(6), Y(8.4), m * 0.7, 8.4 * m, 0.22);

  // --- The house ----------------------------------------------------------------------------------
  const white = weathered
    ? vertical(ctx, Y(13.2), ground, ['#D3CFC6', '#C8C3B8', '#B2AB9E'])
    : vertical(ctx, Y(13.2), ground, ['#F7F4EF', '#F1EDE6', '#E9E4DC']);
  const shaded = worn('#D5D3CF', '#ABA79F');
  const recess = worn('#E4DFD7', '#BDB6AA');
  const t = m * 0.06; // frame section
  /** A pane: clean, or filmed with grime. */
  const pane = (b: Box, seed: number) => {
    glass(ctx, b, seed);
    if (weathered) dirtyGlass(ctx, b, seed + 1000);
  };

  // Ground floor, set back under the first-floor slab.
  box(ctx, M(0, 0, 6, 3.6), recess);
  const door = M(0.45, 0.15, 1.6, 2.85);
  pane(door, 401);
  mullions(ctx, door, 2, [0.78], t);
  // Sliding gate: horizontal aluminium slats in dark bronze.
  const gate = M(2.5, 0.15, 3.1, 2.85);
  box(ctx, gate, '#2B2826');
  for (let i = 0; i < 19; i++) {
    const sy = gate[1] + (gate[3] * i) / 19;
    box(
      ctx,
      [gate[0], sy, gate[2], (gate[3] / 19) * 0.78],
      vertical(ctx, sy, sy + gate[3] / 19, [
        worn('#6C645C', '#6F6760'),
        worn('#4D4741', '#524A43'),
      ]),
    );
  }
  if (weathered) rust(ctx, gate, m, 467);
  box(ctx, [gate[0], gate[1], gate[2], t], '#1F1D1B');
  box(ctx, [gate[0] + gate[2] * 0.5 - t * 0.4, gate[1], t * 0.8, gate[3]], '#26231F');
  // Lintel band over the door and gate, and the piers.
  box(ctx, M(0, 3.0, 6, 0.6), white);
  box(ctx, M(0, 0, 0.35, 3.6), white);
  box(ctx, M(2.15, 0, 0.25, 3.6), white);
  box(ctx, M(5.65, 0, 0.35, 3.6), white);
  sideShadow(ctx, X(0.35), Y(3.0), m * 0.3, 3.0 * m, 0.2);
  sideShadow(ctx, X(2.4), Y(3.0), m * 0.3, 3.0 * m, 0.2);
  // Step and plinth in grey granite.
  box(ctx, M(-0.1, 0, 6.2, 0.15), '#9C9893');
  box(ctx, M(-0.1, 0.13, 6.2, 0.03), 'rgba(255,255,255,0.4)');
  // Front garden strip: a stone-clad bed under the window, shrubs and a slender palm.
  const bed = M(0.25, 0, 1.95, 0.55);
  blurred(ctx, m * 0.08, () => {
    ctx.fillStyle = 'rgba(40, 44, 50, 0.25)';
    ctx.fillRect(bed[0] + m * 0.1, bed[1] - m * 0.05, bed[2], bed[3] + m * 0.05);
  });
  // A clipped column of foliage by the pier, lower mounds in front of the window; or, left
  // unwatered, dead twigs.
  if (weathered) {
    deadShrub(ctx, X(1.8), Y(0.5), m * 0.7, m * 1.5, 419);
    deadShrub(ctx, X(0.95), Y(0.5), m * 0.9, m * 0.7, 421);
  } else {
    foliage(ctx, X(1.85), Y(1.45), m * 0.34, m * 0.95, 419, LEAVES, 0.75);
    foliage(ctx, X(1.05), Y(0.8), m * 0.8, m * 0.38, 421, LEAVES, 0.7);
    foliage(
      ctx,
      X(0.55),
      Y(0.72),
      m * 0.32,
      m * 0.26,
      423,
      ['#4A6B36', '#6A8D45', '#8EAE5A', '#B5C978'],
      0.4,
    );
  }
  box(ctx, bed, vertical(ctx, bed[1], bed[1] + bed[3], ['#6E6B66', '#57544F']));
  box(ctx, [bed[0], bed[1], bed[2], m * 0.05], '#8A8781');
  if (weathered) {
    weeds(ctx, X(0.5), Y(0.5), m * 0.35, 425);
    box(
      ctx,
      [bed[0] + m * 0.2, bed[1] + m * 0.05, m * 0.5, bed[3] - m * 0.05],
      'rgba(60,58,50,0.25)',
    );
  }

  // First floor: floor-to-ceiling glass behind a planted balcony.
  box(ctx, M(0, 3.6, 6, 6.9), recess);
  const f2 = M(0.35, 4.05, 5.3, 2.6);
  pane(f2, 431);
  // Sheer curtains drawn to the left inside.
  ctx.fillStyle = 'rgba(246, 242, 234, 0.42)';
  if (weathered) {
    // One sheet left behind, sagging; the rest taken down.
    box(ctx, [f2[0] + m * 0.1, f2[1], m * 0.5, f2[3] * 0.8], 'rgba(220, 214, 200, 0.3)');
  } else {
    for (let i = 0; i < 6; i++) ctx.fillRect(f2[0] + i * m * 0.17, f2[1], m * 0.12, f2[3]);
  }
  mullions(ctx, f2, 4, [0.16], t);
  box(ctx, M(0.35, 6.65, 5.3, 0.25), white);
  castShadow(ctx, X(0.35), Y(6.65), 5.3 * m, m * 0.9, 0.3);
  // Second floor: a wide window with a glass balustrade, and the timber screen.
  const f3 = M(0.35, 7.15, 3.45, 3.05);
  pane(f3, 433);
  mullions(ctx, f3, 3, [0.22], t);
  glassRail(ctx, M(0.35, 7.15, 3.45, 1.0), 3, t * 0.8);
  if (weathered) dirtyGlass(ctx, M(0.35, 7.15, 3.45, 1.0), 435);
  slats(ctx, M(3.8, 6.9, 1.85, 3.3), 9, 437, weathered);
  box(ctx, M(0.35, 6.9, 3.45, 0.25), white);
  // The white frame around both upper floors: piers, head, and its timber soffit.
  box(ctx, M(0, 3.6, 0.35, 6.95), white);
  box(ctx, M(5.65, 3.6, 0.35, 6.95), white);
  box(ctx, M(-0.15, 10.2, 6.3, 0.38), white);
  box(
    ctx,
    M(0.35, 10.04, 5.3, 0.16),
    vertical(ctx, Y(10.2), Y(10.04), [worn('#7E5233', '#6A625A'), worn('#A36B44', '#8A8178')]),
  );
  castShadow(ctx, X(0.35), Y(10.04), 5.3 * m, m * 1.3, 0.34);
  // The frame's inner returns, seen a little from the front: shaded on the left, sunlit right.
  box(ctx, M(0.35, 4.1, 0.14, 5.94), worn('#CBC7C1', '#A39E95'));
  box(ctx, M(5.51, 4.1, 0.14, 5.94), worn('#FFF9EF', '#CFC9BE'));
  sideShadow(ctx, X(0.49), Y(10.04), m * 0.45, (10.04 - 4.1) * m, 0.2);
  // The balcony: a white planter parapet with shrubs, trailing plants over its face.
  castShadow(ctx, X(-0.15), Y(3.45), 6.3 * m, m * 1.3, 0.44);
  if (weathered) {
    deadShrub(ctx, X(1.3), Y(4.1), m * 0.9, m * 0.6, 441);
    deadShrub(ctx, X(4.6), Y(4.1), m * 0.7, m * 0.45, 443);
  } else {
    foliage(ctx, X(1.6), Y(4.35), m * 1.3, m * 0.35, 441, undefined, 0.7);
    foliage(ctx, X(4.4), Y(4.3), m * 1.2, m * 0.32, 443, undefined, 0.7);
  }
  glassRail(ctx, M(0.35, 4.1, 5.3, 1.0), 4, t * 0.8);
  if (weathered) dirtyGlass(ctx, M(0.35, 4.1, 5.3, 1.0), 445);
  box(ctx, M(-0.15, 3.5, 6.3, 0.6), white);
  box(ctx, M(-0.15, 4.07, 6.3, 0.03), 'rgba(255,255,255,0.7)');
  box(ctx, M(-0.15, 3.45, 6.3, 0.05), '#B9B4AC');
  if (!weathered) {
    trailing(ctx, X(0.1), Y(4.05), 2.4 * m, m * 1.3, 447);
    trailing(ctx, X(3.9), Y(4.05), 1.9 * m, m * 0.9, 449);
  }

  // Roof terrace: a stair house on the right, a timber pergola over the left, plants and glass.
  const stair = M(3.3, 10.58, 2.7, 2.45);
  box(ctx, stair, worn('#E8E3DB', '#BEB7AB'));
  const slot = M(3.75, 11.0, 0.5, 1.7);
  pane(slot, 451);
  mullions(ctx, slot, 1, [], t);
  slats(ctx, M(4.6, 10.58, 1.4, 2.45), 7, 453, weathered);
  box(ctx, M(3.15, 13.03, 3.0, 0.2), white);
  box(ctx, M(3.3, 12.96, 2.85, 0.07), shaded);
  castShadow(ctx, X(3.3), Y(12.96), 2.7 * m, m * 0.6, 0.3);
  // Pergola posts, beam and rafter ends.
  box(ctx, M(0.15, 10.58, 0.12, 2.05), '#2F2F31');
  box(ctx, M(3.03, 10.58, 0.12, 2.05), '#2F2F31');
  // A frangipani in a planter box on the terrace.
  ctx.strokeStyle = '#7A6A5C';
  ctx.lineCap = 'round';
  for (const [bx, by, thick] of [
    [0.75, 11.95, 0.07],
    [1.15, 12.3, 0.06],
    [1.75, 12.4, 0.06],
    [2.2, 12.05, 0.07],
    [1.45, 12.0, 0.05],
  ] as const) {
    ctx.lineWidth = thick * m;
    ctx.beginPath();
    ctx.moveTo(X(1.5), Y(11.05));
    ctx.quadraticCurveTo(X(1.5 + (bx - 1.5) * 0.3), Y(11.75), X(bx), Y(by));
    ctx.stroke();
  }
  // In leaf and flower; or bare, the way a frangipani stands when it is left to die back.
  if (!weathered) {
    foliage(ctx, X(1.0), Y(12.05), m * 0.55, m * 0.3, 455, LEAVES, 0.45);
    foliage(ctx, X(1.95), Y(12.2), m * 0.6, m * 0.32, 457, LEAVES, 0.45);
    ctx.fillStyle = '#FBF3E4';
    const petals = rng(459);
    for (let i = 0; i < 14; i++) {
      ctx.beginPath();
      ctx.arc(X(0.6 + petals() * 1.9), Y(12.0 + petals() * 0.45), m * 0.06, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  box(ctx, M(0.6, 10.58, 1.8, 0.5), worn('#E2DDD4', '#B5AEA2'));
  box(ctx, M(0.6, 11.05, 1.8, 0.03), worn('#F6F2EC', '#CDC7BC'));
  const beam = M(0.0, 12.6, 3.3, 0.28);
  box(
    ctx,
    beam,
    vertical(ctx, beam[1], beam[1] + beam[3], [
      worn('#BF8352', '#948A7E'),
      worn('#94603A', '#6E665C'),
    ]),
  );
  castShadow(ctx, X(0.15), Y(12.6), 2.95 * m, m * 0.5, 0.25);
  for (let i = 0; i < 10; i++) {
    box(
      ctx,
      M(0.08 + i * 0.33, 12.88, 0.12, 0.2),
      i % 2 ? worn('#86552F', '#6F675E') : worn('#7C4D2B', '#655D55'),
    );
  }
  // Bougainvillea over the beam's end: a restrained pink accent.
  if (weathered) {
    foliage(ctx, X(0.45), Y(12.62), m * 0.5, m * 0.22, 461, DRY, 0.18);
  } else {
    foliage(
      ctx,
      X(0.45),
      Y(12.62),
      m * 0.6,
      m * 0.28,
      461,
      ['#6A2B48', '#9E3A68', '#C65A88', '#DE8AAD'],
      0.45,
    );
    trailing(ctx, X(0.05), Y(12.6), 0.9 * m, m * 0.8, 463);
  }
  glassRail(ctx, M(0, 10.58, 6, 1.05), 5, t * 0.8);
  if (weathered) dirtyGlass(ctx, M(0, 10.58, 6, 1.05), 465);
  if (weathered) neglect(ctx, M, X, Y, m);

  // Sunlight: warm on the upper left of the facade, cooler low down and to the right.
  // Under cloud: flat, cool and a little dim all over.
  clipTo(ctx, [X(-0.15), Y(13.3), 6.3 * m, 13.3 * m]);
  const light = linear(
    ctx,
    X(0),
    Y(13),
    X(6),
    ground,
    weathered
      ? ['rgba(90, 96, 104, 0.08)', 'rgba(60, 64, 70, 0.14)']
      : [
          [0, 'rgba(255, 214, 160, 0.14)'],
          [0.6, 'rgba(255, 214, 160, 0.03)'],
          [1, 'rgba(60, 70, 90, 0.08)'],
        ],
  );
  box(ctx, [0, 0, w, h], light);
  ctx.restore();

  // --- The street -----------------------------------------------------------------------------
  // The pavement in light granite tiles, seen a little from above, its joints converging.
  const curb = h * 0.885;
  const vanish = Y(5);
  box(ctx, [0, ground, w, curb - ground], vertical(ctx, ground, curb, ['#D5D0C7', '#DEDAD2']));
  ctx.strokeStyle = 'rgba(120, 114, 104, 0.28)';
  ctx.lineWidth = 1;
  for (let k = -30; k <= 30; k++) {
    const gx = w / 2 + k * 0.8 * m;
    const spread = (curb - vanish) / (ground - vanish);
    ctx.beginPath();
    ctx.moveTo(gx, ground);
    ctx.lineTo(w / 2 + (gx - w / 2) * spread, curb);
    ctx.stroke();
  }
  for (const d of [0.12, 0.3, 0.55, 0.85]) {
    ctx.beginPath();
    ctx.moveTo(0, ground + (curb - ground) * d);
    ctx.lineTo(w, ground + (curb - ground) * d);
    ctx.stroke();
  }
  if (yard) {
    // A point `metres` along the facade, carried forward to height `y` along the joints.
    const P = (metres: number, y: number) =>
      w / 2 + (X(metres) - w / 2) * ((y - vanish) / (ground - vanish));
    frontYard(ctx, P, ground, ground + (curb - ground) * 0.3, m, weathered);
  }
  // Contact shadow along the buildings' foot.
  box(
    ctx,
    [0, ground, w, m * 0.35],
    vertical(ctx, ground, ground + m * 0.35, ['rgba(40,40,50,0.2)', 'rgba(40,40,50,0)']),
  );
  box(ctx, [0, curb, w, h * 0.012], '#ECE8E1');
  box(ctx, [0, curb + h * 0.012, w, h * 0.02], '#B4AEA5');
  box(
    ctx,
    [0, curb + h * 0.032, w, h - curb],
    vertical(ctx, curb + h * 0.032, h, ['#7A7B7E', '#646568']),
  );
  box(ctx, [0, curb + h * 0.032, w, h * 0.01], 'rgba(30,30,35,0.25)');

  // Street trees on the pavement, either side of the house.
  // Street trees on the pavement, near the edges: they frame the wide crop and stay out of the
  // narrow ones, so no crop cuts a trunk in half beside the house.
  streetTree(ctx, w * 0.085, h * 0.85, h * 0.64, 5);
  streetTree(ctx, w * 0.925, h * 0.855, h * 0.6, 9);
  if (weathered) {
    rubbish(ctx, X(4.4), ground + m * 0.55, m, 471);
    // The grey day takes the colour out of the whole street.
    box(ctx, [0, 0, w, h], 'rgba(112, 118, 126, 0.1)');
  }
}

// --- Product still: a serum bottle on a plinth ---------------------------------------------------

/**
 * A studio still of a vitamin C serum, drawn as a product photographer would light it: one soft
 * key light high on the left (the window's shadow falls across the wall on the right), the amber
 * glass lit on its left edge and rimmed on its right, the bottle's shadow cast to the lower right
 * over a satin plinth that mirrors its base, and the light through the glass leaving a warm
 * caustic in that shadow. The bottle stands in the middle half of the frame, so the narrowest crop
 * of the promo keeps it whole, dropper to base; the plinth and props fill the wider ones.
 */
function serumStill(ctx: Ctx, w: number, h: number) {
  const u = w / 1000;
  const v = h / 1000;
  const X = (x: number) => x * u;
  const Y = (y: number) => y * v;
  // Framed a little tighter than drawn: the bottle is the picture, the props its setting.
  ctx.save();
  ctx.translate(X(500), Y(580));
  ctx.scale(1.15, 1.15);
  ctx.translate(-X(500), -Y(580));

  // The wall: warm plaster, brightest where the key light strikes it, falling off to the right.
  box(ctx, [0, 0, w, h], vertical(ctx, 0, h, ['#F7E1D2', '#F1CDB9', '#EABBA4']));
  lightAt(ctx, w, h, X(180), Y(160), X(720), 'rgba(255, 248, 240, 0.95)');
  lightAt(ctx, w, h, X(1000), Y(620), X(520), 'rgba(196, 120, 88, 0.22)');
  // The window's shadow on the wall: soft bars slanting down to the right.
  blurred(ctx, 26 * u, () => {
    ctx.fillStyle = 'rgba(150, 82, 52, 0.085)';
    for (const x of [560, 760, 960]) {
      ctx.save();
      ctx.translate(X(x), Y(0));
      ctx.rotate(-0.55);
      ctx.fillRect(X(-40), Y(-80), X(110), Y(1100));
      ctx.restore();
    }
  });

  // The table top, with a soft horizon where it meets the wall.
  const table = Y(810);
  box(ctx, [0, table, w, h - table], vertical(ctx, table, h, ['#E9BEA7', '#E3B29A', '#DCA58D']));
  blurred(ctx, 6 * u, () => box(ctx, [0, table - Y(3), w, Y(6)], 'rgba(160, 96, 70, 0.25)'));
  lightAt(ctx, w, h, X(240), Y(900), X(420), 'rgba(255, 240, 228, 0.45)');

  // A second, taller plinth behind on the right, in terracotta, for depth.
  cylinder(ctx, X(800), Y(560), X(118), Y(22), table + Y(12), [
    '#E7A787',
    '#D68C6C',
    '#B96C50',
    '#C77B5D',
  ]);
  ctx.fillStyle = '#F0B798';
  ctx.beginPath();
  ctx.ellipse(X(800), Y(560), X(118), Y(22), 0, 0, Math.PI * 2);
  ctx.fill();
  // A sphere on the table at the left, lit from the same side.
  blurred(ctx, 12 * u, () => {
    ctx.fillStyle = 'rgba(120, 60, 40, 0.3)';
    ctx.beginPath();
    ctx.ellipse(X(205), Y(902), X(80), Y(16), 0.08, 0, Math.PI * 2);
    ctx.fill();
  });
  const ball = ctx.createRadialGradient(X(150), Y(800), X(6), X(180), Y(835), X(78));
  ball.addColorStop(0, '#FFF3EA');
  ball.addColorStop(0.55, '#F4CDB8');
  ball.addColorStop(1, '#CF9A82');
  ctx.fillStyle = ball;
  ctx.beginPath();
  ctx.arc(X(180), Y(838), X(64), 0, Math.PI * 2);
  ctx.fill();

  // The main plinth: a satin cylinder, lit on the left, bounce light on the right edge.
  const [cx, top, rx, ry] = [X(500), Y(700), X(250), Y(50)];
  const base = Y(930);
  blurred(ctx, 22 * u, () => {
    // Its shadow on the table, thrown to the right.
    ctx.fillStyle = 'rgba(112, 56, 36, 0.32)';
    ctx.beginPath();
    ctx.moveTo(cx - rx * 0.2, base);
    ctx.lineTo(cx + rx * 1.05, base - Y(30));
    ctx.lineTo(cx + rx * 1.5, base - Y(10));
    ctx.lineTo(cx + rx * 0.9, base + Y(30));
    ctx.closePath();
    ctx.fill();
  });
  cylinder(ctx, cx, top, rx, ry, base, ['#F5D8C8', '#EAC3AF', '#CC937A', '#D8A58E']);
  // Less light reaches its foot, near the table.
  ctx.save();
  ctx.beginPath();
  ctx.rect(cx - rx, base - Y(60), rx * 2, Y(60) + ry);
  ctx.clip();
  ctx.fillStyle = vertical(ctx, base - Y(60), base + ry, [
    'rgba(120, 60, 40, 0)',
    'rgba(120, 60, 40, 0.22)',
  ]);
  ctx.beginPath();
  ctx.moveTo(cx - rx, top);
  ctx.lineTo(cx - rx, base);
  ctx.ellipse(cx, base, rx, ry, 0, Math.PI, 0, true);
  ctx.lineTo(cx + rx, top);
  ctx.fill();
  ctx.restore();
  // The top face: brighter, a little glossy near the light.
  ctx.fillStyle = linear(ctx, cx - rx, top - ry, cx + rx, top + ry, [
    [0, '#FFF4EC'],
    [0.55, '#F8E0D3'],
    [1, '#F1D2C2'],
  ]);
  ctx.beginPath();
  ctx.ellipse(cx, top, rx, ry, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.7)';
  ctx.lineWidth = 2.5 * u;
  ctx.beginPath();
  ctx.ellipse(cx, top, rx - u, ry - u, 0, 0.05 * Math.PI, 0.95 * Math.PI);
  ctx.stroke();

  const onTop = () => {
    ctx.save();
    ctx.beginPath();
    ctx.ellipse(cx, top, rx, ry, 0, 0, Math.PI * 2);
    ctx.clip();
  };
  // The bottle's shadow across the top face, long to the right, and the warm light through it.
  const [bl, br, foot] = [X(408), X(592), Y(716)];
  onTop();
  blurred(ctx, 9 * u, () => {
    ctx.fillStyle = 'rgba(104, 48, 28, 0.5)';
    ctx.beginPath();
    ctx.moveTo(bl + X(20), foot);
    ctx.lineTo(br, foot - Y(10));
    ctx.lineTo(X(830), foot + Y(2));
    ctx.lineTo(X(760), foot + Y(36));
    ctx.closePath();
    ctx.fill();
  });
  blurred(ctx, 14 * u, () => {
    ctx.fillStyle = 'rgba(255, 150, 60, 0.5)';
    ctx.beginPath();
    ctx.ellipse(X(690), foot + Y(8), X(46), Y(8), 0.05, 0, Math.PI * 2);
    ctx.fill();
  });
  // Its reflection in the satin: the amber base, mirrored and fading.
  ctx.fillStyle = vertical(ctx, foot, foot + Y(34), [
    'rgba(150, 66, 24, 0.32)',
    'rgba(150, 66, 24, 0)',
  ]);
  ctx.beginPath();
  ctx.roundRect(bl, foot - Y(2), br - bl, Y(36), [0, 0, X(30), X(30)]);
  ctx.fill();
  ctx.restore();
  blurred(ctx, 5 * u, () => {
    ctx.fillStyle = 'rgba(70, 30, 16, 0.5)';
    ctx.beginPath();
    ctx.ellipse((bl + br) / 2 + X(6), foot, (br - bl) * 0.5, Y(7), 0, 0, Math.PI * 2);
    ctx.fill();
  });

  // An orange and two leaves on the plinth, behind the bottle on the lit side.
  onTop();
  blurred(ctx, 8 * u, () => {
    ctx.fillStyle = 'rgba(110, 52, 30, 0.3)';
    ctx.beginPath();
    ctx.ellipse(X(372), Y(704), X(50), Y(9), 0.06, 0, Math.PI * 2);
    ctx.fill();
  });
  ctx.restore();
  sprigLeaf(ctx, X(300), Y(690), X(96), -0.5, u);
  citrus(ctx, X(352), Y(660), X(44));
  sprigLeaf(ctx, X(312), Y(700), X(80), -0.12, u);
  // A slice of orange lying in front of it.
  citrusSlice(ctx, X(372), Y(734), X(46), Y(12));

  bottle(ctx, u, v);
  ctx.restore();
}

/** An upright cylinder from its top ellipse down to `bottom`, shaded left (lit) to right. */
function cylinder(
  ctx: Ctx,
  cx: number,
  top: number,
  rx: number,
  ry: number,
  bottom: number,
  stops: string[],
) {
  const offsets = [0, 0.3, 0.82, 1];
  const side = stops.map((c, i) => [offsets[i] ?? i / 3, c] as const);
  ctx.fillStyle = linear(ctx, cx - rx, 0, cx + rx, 0, side);
  ctx.beginPath();
  ctx.moveTo(cx - rx, top);
  ctx.lineTo(cx - rx, bottom);
  ctx.ellipse(cx, bottom, rx, ry, 0, Math.PI, 0, true);
  ctx.lineTo(cx + rx, top);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = stops[0]!;
  ctx.beginPath();
  ctx.ellipse(cx, top, rx, ry, 0, 0, Math.PI * 2);
  ctx.fill();
}

/** A whole orange, lit from the upper left, with its dimpled peel's highlight and stalk end. */
function citrus(ctx: Ctx, x: number, y: number, r: number) {
  const g = ctx.createRadialGradient(x - r * 0.4, y - r * 0.45, r * 0.05, x, y, r * 1.05);
  g.addColorStop(0, '#FFD08A');
  g.addColorStop(0.45, '#F59A2C');
  g.addColorStop(1, '#B9530F');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgba(255, 255, 255, 0.55)';
  ctx.beginPath();
  ctx.ellipse(x - r * 0.42, y - r * 0.45, r * 0.16, r * 0.09, -0.6, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#6E7B3A';
  ctx.beginPath();
  ctx.arc(x + r * 0.1, y - r * 0.9, r * 0.08, 0, Math.PI * 2);
  ctx.fill();
}

/** An orange slice lying flat, seen at a low angle: rind, pith and segments. */
function citrusSlice(ctx: Ctx, x: number, y: number, rx: number, ry: number) {
  blurred(ctx, rx * 0.12, () => {
    ctx.fillStyle = 'rgba(110, 52, 30, 0.3)';
    ctx.beginPath();
    ctx.ellipse(x + rx * 0.18, y + ry * 0.6, rx * 1.02, ry, 0, 0, Math.PI * 2);
    ctx.fill();
  });
  ctx.fillStyle = '#D9731A';
  ctx.beginPath();
  ctx.ellipse(x, y + ry * 0.35, rx, ry, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#F6A23A';
  ctx.beginPath();
  ctx.ellipse(x, y, rx, ry, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#FFF1D6';
  ctx.beginPath();
  ctx.ellipse(x, y, rx * 0.9, ry * 0.86, 0, 0, Math.PI * 2);
  ctx.fill();
  for (let k = 0; k < 10; k++) {
    const a0 = (k / 10) * Math.PI * 2 + 0.06;
    const a1 = ((k + 1) / 10) * Math.PI * 2 - 0.06;
    ctx.fillStyle = linear(ctx, x - rx, y, x + rx, y, ['#FFB347', '#F08A1E']);
    ctx.beginPath();
    ctx.moveTo(x + Math.cos((a0 + a1) / 2) * rx * 0.08, y + Math.sin((a0 + a1) / 2) * ry * 0.08);
    ctx.ellipse(x, y, rx * 0.82, ry * 0.76, 0, a0, a1);
    ctx.closePath();
    ctx.fill();
  }
  ctx.fillStyle = 'rgba(255, 255, 255, 0.45)';
  ctx.beginPath();
  ctx.ellipse(x - rx * 0.35, y - ry * 0.3, rx * 0.22, ry * 0.18, 0, 0, Math.PI * 2);
  ctx.fill();
}

/** A glossy leaf from its stalk end at (x, y), `len` long, turned by `angle`. */
function sprigLeaf(ctx: Ctx, x: number, y: number, len: number, angle: number, u: number) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.fillStyle = vertical(ctx, -len * 0.3, len * 0.3, ['#8DB36A', '#5E8A45', '#3F6631']);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.quadraticCurveTo(len * 0.45, -len * 0.34, len, 0);
  ctx.quadraticCurveTo(len * 0.5, len * 0.3, 0, 0);
  ctx.fill();
  ctx.strokeStyle = 'rgba(230, 245, 210, 0.55)';
  ctx.lineWidth = 2 * u;
  ctx.beginPath();
  ctx.moveTo(len * 0.04, 0);
  ctx.quadraticCurveTo(len * 0.5, -len * 0.05, len * 0.94, 0);
  ctx.stroke();
  ctx.restore();
}

/** The amber dropper bottle, standing at the middle of the plinth. */
function bottle(ctx: Ctx, u: number, v: number) {
  const X = (x: number) => x * u;
  const Y = (y: number) => y * v;
  const [l, r, shoulder, foot] = [X(408), X(592), Y(446), Y(716)];
  const width = r - l;
  const body = () => {
    ctx.beginPath();
    ctx.roundRect(l, shoulder, width, foot - shoulder, [X(54), X(54), X(26), X(26)]);
  };
  // Amber glass: dark edges, the light side bright, a darker core where the serum is deepest.
  ctx.fillStyle = linear(ctx, l, 0, r, 0, [
    [0, '#6B2A0C'],
    [0.1, '#B2521A'],
    [0.26, '#E38B3C'],
    [0.5, '#C2621F'],
    [0.8, '#8A3A12'],
    [0.94, '#A24B18'],
    [1, '#5E240A'],
  ]);
  body();
  ctx.fill();
  ctx.save();
  body();
  ctx.clip();
  // The serum's level: clearer glass above it, the meniscus a bright line.
  box(ctx, [l, shoulder, width, Y(28)], 'rgba(255, 214, 170, 0.2)');
  box(ctx, [l, shoulder + Y(28), width, Y(3)], 'rgba(255, 228, 190, 0.45)');
  // Thick glass at the foot.
  box(
    ctx,
    [l, foot - Y(16), width, Y(16)],
    vertical(ctx, foot - Y(16), foot, ['rgba(60, 20, 6, 0)', 'rgba(60, 20, 6, 0.45)']),
  );
  ctx.restore();

  // The paper label, curving round the glass: lit at the left, turning into shade at the right.
  const [ll, lr, lt, lb] = [X(420), X(580), Y(528), Y(664)];
  ctx.fillStyle = '#FBF2E8';
  ctx.fillRect(ll, lt, lr - ll, lb - lt);
  ctx.fillStyle = linear(ctx, ll, 0, lr, 0, [
    [0, 'rgba(120, 60, 30, 0.16)'],
    [0.22, 'rgba(255, 255, 255, 0)'],
    [0.62, 'rgba(120, 60, 30, 0.08)'],
    [1, 'rgba(90, 40, 20, 0.4)'],
  ]);
  ctx.fillRect(ll, lt, lr - ll, lb - lt);
  // What is printed on it, as shapes: a round mark, the name's bars, a rule and the volume.
  const mid = (ll + lr) / 2 - X(4);
  ctx.fillStyle = '#A8481F';
  ctx.beginPath();
  ctx.arc(mid, lt + Y(26), X(12), 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#FBF2E8';
  ctx.fillRect(mid - X(3), lt + Y(18), X(3), Y(15));
  ctx.fillRect(mid - X(3), lt + Y(30), X(9), Y(3));
  ctx.fillStyle = '#5A2612';
  ctx.fillRect(mid - X(52), lt + Y(54), X(104), Y(12));
  ctx.fillStyle = '#A8481F';
  ctx.fillRect(mid - X(38), lt + Y(74), X(76), Y(7));
  ctx.fillStyle = 'rgba(90, 38, 18, 0.55)';
  ctx.fillRect(mid - X(44), lt + Y(94), X(88), Y(2));
  ctx.fillRect(mid - X(30), lt + Y(104), X(60), Y(4));
  ctx.fillRect(mid - X(20), lt + Y(116), X(40), Y(4));

  // Glass over everything: the key light's long highlight on the left, a rim on the right.
  ctx.fillStyle = vertical(ctx, shoulder, foot, [
    [0, 'rgba(255, 244, 230, 0.85)'],
    [0.6, 'rgba(255, 244, 230, 0.35)'],
    [1, 'rgba(255, 244, 230, 0.1)'],
  ]);
  ctx.beginPath();
  ctx.roundRect(l + X(16), shoulder + Y(34), X(16), foot - shoulder - Y(60), X(8));
  ctx.fill();
  ctx.fillStyle = 'rgba(255, 244, 230, 0.35)';
  ctx.beginPath();
  ctx.roundRect(l + X(38), shoulder + Y(40), X(5), foot - shoulder - Y(110), X(3));
  ctx.fill();
  ctx.strokeStyle = 'rgba(255, 226, 196, 0.45)';
  ctx.lineWidth = 3 * u;
  ctx.beginPath();
  ctx.moveTo(r - X(6), shoulder + Y(60));
  ctx.lineTo(r - X(6), foot - Y(30));
  ctx.stroke();
  ctx.strokeStyle = 'rgba(255, 250, 240, 0.8)';
  ctx.lineWidth = 4 * u;
  ctx.beginPath();
  ctx.arc(l + X(54), shoulder + Y(54), X(42), Math.PI * 1.08, Math.PI * 1.42);
  ctx.stroke();

  // Neck, brass collar and the rubber bulb of the dropper.
  ctx.fillStyle = linear(ctx, X(466), 0, X(534), 0, [
    [0, '#7A3110'],
    [0.3, '#D98236'],
    [1, '#6A2A0C'],
  ]);
  ctx.fillRect(X(466), Y(420), X(68), Y(30));
  ctx.fillStyle = linear(ctx, X(452), 0, X(548), 0, [
    [0, '#8A6A3A'],
    [0.22, '#F4DDA8'],
    [0.45, '#C9A264'],
    [0.8, '#7D5E30'],
    [1, '#A8864E'],
  ]);
  ctx.beginPath();
  ctx.roundRect(X(452), Y(362), X(96), Y(62), X(8));
  ctx.fill();
  for (let k = 0; k < 7; k++)
    box(ctx, [X(452), Y(372 + k * 7), X(96), Y(1.5)], 'rgba(90, 64, 30, 0.25)');
  ctx.fillStyle = linear(ctx, X(468), 0, X(532), 0, [
    [0, '#2A201C'],
    [0.28, '#6A5A52'],
    [0.55, '#2E2420'],
    [1, '#16100D'],
  ]);
  ctx.beginPath();
  ctx.moveTo(X(472), Y(364));
  ctx.lineTo(X(476), Y(300));
  ctx.bezierCurveTo(X(468), Y(282), X(466), Y(244), X(500), Y(240));
  ctx.bezierCurveTo(X(534), Y(244), X(532), Y(282), X(524), Y(300));
  ctx.lineTo(X(528), Y(364));
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = 'rgba(255, 255, 255, 0.28)';
  ctx.beginPath();
  ctx.ellipse(X(486), Y(266), X(6), Y(16), 0.2, 0, Math.PI * 2);
  ctx.fill();
}

/**
 * A five-petalled blossom (peach, apricot, an embroidered motif) at (x, y), `r` across each
 * petal, turned by `turn` radians, with a darker heart.
 */
function blossom(
  ctx: Ctx,
  x: number,
  y: number,
  r: number,
  petal: string,
  heart: string,
  turn = 0,
) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(turn);
  ctx.fillStyle = petal;
  for (let i = 0; i < 5; i++) {
    const a = (i * Math.PI * 2) / 5;
    ctx.beginPath();
    ctx.ellipse(
      Math.cos(a) * r * 0.62,
      Math.sin(a) * r * 0.62,
      r * 0.58,
      r * 0.44,
      a,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }
  ctx.fillStyle = heart;
  ctx.beginPath();
  ctx.arc(0, 0, r * 0.26, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

/**
 * Silk's sheen across a shape already on the path: soft vertical bands of light and shade (the
 * way a hanging drape catches a window), then a long diagonal glint. `folds` are the bands'
 * centres as fractions of [x0, x1].
 */
function silkSheen(ctx: Ctx, x0: number, x1: number, y0: number, y1: number, folds: number[]) {
  ctx.fillStyle = linear(ctx, x0, 0, x1, 0, [
    [0, 'rgba(70, 12, 30, 0.30)'],
    ...folds.flatMap((f, i): Stop[] => [
      [Math.max(0.001, f - 0.05), 'rgba(70, 12, 30, 0.04)'],
      [f, i % 2 === 0 ? 'rgba(255, 244, 240, 0.34)' : 'rgba(255, 244, 240, 0.16)'],
      [Math.min(0.999, f + 0.06), 'rgba(70, 12, 30, 0.12)'],
    ]),
    [1, 'rgba(70, 12, 30, 0.34)'],
  ]);
  ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  // The glint runs steeply down to the right: its gradient runs across, tilted a little.
  const mid = (y0 + y1) / 2;
  ctx.fillStyle = linear(ctx, x0, mid, x1, mid + (x1 - x0) * 0.3, [
    [0.3, 'rgba(255,255,255,0)'],
    [0.42, 'rgba(255,250,245,0.22)'],
    [0.5, 'rgba(255,255,255,0)'],
  ]);
  ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
}

/** A folded piece of silk lying flat: a rounded slab with a lit top fold and a shaded edge. */
function foldedSilk(ctx: Ctx, x: number, y: number, w: number, h: number, colours: string[]) {
  const [light, base, dark] = colours as [string, string, string];
  ctx.save();
  ctx.shadowColor = 'rgba(90, 40, 50, 0.22)';
  ctx.shadowBlur = h * 0.5;
  ctx.shadowOffsetY = h * 0.18;
  ctx.fillStyle = base;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h * 0.42);
  ctx.fill();
  ctx.restore();
  // The lit top curve of the fold and the shaded front edge.
  ctx.fillStyle = vertical(ctx, y, y + h, [
    [0, light],
    [0.45, base],
    [1, dark],
  ]);
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h * 0.42);
  ctx.fill();
  ctx.fillStyle = linear(ctx, x, 0, x + w, 0, [
    [0, 'rgba(255,255,255,0.0)'],
    [0.3, 'rgba(255,250,245,0.28)'],
    [0.42, 'rgba(255,255,255,0)'],
    [1, 'rgba(60,20,30,0.18)'],
  ]);
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h * 0.42);
  ctx.fill();
}

/**
 * A silk áo dài hung on a wooden hanger from a brass hook, in a boutique's fitting corner: a
 * pale arched niche on a blush wall, a ceramic vase of peach blossom on the left, folded silks
 * on a low stool on the right. The dress is centred and fills the band between 6 % and 90 % of
 * the height, 30 % of the width; the props fill the wider crops.
 */
function silkAoDai(ctx: Ctx, w: number, h: number) {
  const cx = w / 2;
  const u = h / 100; // one hundredth of the height
  // The wall, lit from the upper left, and the floor.
  paintBackground(ctx, w, h, ['#F7E9E3', '#F1DDD5', '#EBD2C9'], 170);
  glow(ctx, w, h, 0.22, 0.12, 0.55, 'rgba(255, 250, 240, 0.7)');
  const floorY = 88 * u;
  // The arched niche behind the dress, lighter than the wall, its left jamb in shade.
  const [nl, nr, nt] = [cx - 20 * u, cx + 20 * u, 4 * u];
  const niche = () => {
    ctx.beginPath();
    ctx.moveTo(nl, floorY);
    ctx.lineTo(nl, nt + 20 * u);
    ctx.arc(cx, nt + 20 * u, 20 * u, Math.PI, 0);
    ctx.lineTo(nr, floorY);
    ctx.closePath();
  };
  ctx.save();
  niche();
  ctx.fillStyle = vertical(ctx, nt, floorY, ['#FCF5F1', '#F8EBE5', '#F3E0D8']);
  ctx.fill();
  ctx.clip();
  sideShadow(ctx, nl, 0, 3 * u, h, 0.14);
  lightAt(ctx, w, h, cx - 6 * u, 22 * u, 40 * u, 'rgba(255,255,255,0.55)');
  ctx.restore();
  ctx.save();
  niche();
  ctx.strokeStyle = 'rgba(176, 120, 110, 0.35)';
  ctx.lineWidth = Math.max(2, 0.3 * u);
  ctx.stroke();
  ctx.restore();
  floor(ctx, w, h, floorY / h, ['#E2C5B8', '#D8B7A8', '#CFAA9A']);
  ctx.fillStyle = 'rgba(255,255,255,0.35)';
  ctx.fillRect(0, floorY, w, Math.max(2, 0.25 * u));

  // Left: a celadon vase with a branch of peach blossom (hoa đào).
  const vx = w * 0.17;
  blurred(ctx, 2 * u, () => {
    ctx.fillStyle = 'rgba(110, 60, 60, 0.25)';
    ctx.beginPath();
    ctx.ellipse(vx + 2 * u, floorY + 1.2 * u, 9 * u, 1.6 * u, 0, 0, Math.PI * 2);
    ctx.fill();
  });
  branch(
    ctx,
    w,
    h,
    [
      [vx / w, 0.64],
      [0.16, 0.48],
      [0.13, 0.34],
      [0.1, 0.22],
    ],
    0.007,
    '#5B3A33',
  );
  branch(
    ctx,
    w,
    h,
    [
      [0.16, 0.5],
      [0.21, 0.4],
      [0.25, 0.3],
    ],
    0.005,
    '#5B3A33',
  );
  branch(
    ctx,
    w,
    h,
    [
      [0.135, 0.38],
      [0.08, 0.33],
      [0.055, 0.27],
    ],
    0.004,
    '#5B3A33',
  );
  const rand = rng(311);
  const twigs: [number, number][] = [
    [0.1, 0.22],
    [0.115, 0.27],
    [0.13, 0.33],
    [0.145, 0.42],
    [0.16, 0.48],
    [0.185, 0.45],
    [0.21, 0.4],
    [0.23, 0.35],
    [0.25, 0.3],
    [0.08, 0.33],
    [0.06, 0.28],
    [0.1, 0.36],
  ];
  for (const [tx, ty] of twigs) {
    for (let k = 0; k < 3; k++) {
      const [bx, by] = [tx * w + (rand() - 0.5) * 4 * u, ty * h + (rand() - 0.5) * 4 * u];
      const r = (1.1 + rand() * 0.8) * u;
      blossom(ctx, bx, by, r, k === 0 ? '#F6B8C0' : '#F39CAB', '#B4435A', rand() * 3);
    }
  }
  ctx.fillStyle = linear(ctx, vx - 7 * u, 0, vx + 7 * u, 0, [
    [0, '#7FA197'],
    [0.35, '#C7DDD4'],
    [0.55, '#A6C4B9'],
    [1, '#62857B'],
  ]);
  ctx.beginPath();
  ctx.moveTo(vx - 2.2 * u, 62 * u);
  ctx.bezierCurveTo(vx - 2 * u, 67 * u, vx - 8 * u, 70 * u, vx - 7.5 * u, 78 * u);
  ctx.bezierCurveTo(vx - 7 * u, 84 * u, vx - 4 * u, 88 * u, vx - 3.5 * u, floorY);
  ctx.lineTo(vx + 3.5 * u, floorY);
  ctx.bezierCurveTo(vx + 4 * u, 88 * u, vx + 7 * u, 84 * u, vx + 7.5 * u, 78 * u);
  ctx.bezierCurveTo(vx + 8 * u, 70 * u, vx + 2 * u, 67 * u, vx + 2.2 * u, 62 * u);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = '#5F8177';
  ctx.beginPath();
  ctx.ellipse(vx, 62 * u, 2.3 * u, 0.6 * u, 0, 0, Math.PI * 2);
  ctx.fill();

  // Right: a low stool with folded silks (jade, ivory, wine) and a spool of thread.
  const sx = w * 0.83;
  blurred(ctx, 2 * u, () => {
    ctx.fillStyle = 'rgba(110, 60, 60, 0.25)';
    ctx.beginPath();
    ctx.ellipse(sx + 2 * u, floorY + 1 * u, 15 * u, 1.8 * u, 0, 0, Math.PI * 2);
    ctx.fill();
  });
  ctx.fillStyle = vertical(ctx, 72 * u, floorY, ['#9A6A4F', '#7A4E38']);
  ctx.fillRect(sx - 11 * u, 74 * u, 2.2 * u, floorY - 74 * u);
  ctx.fillRect(sx + 8.8 * u, 74 * u, 2.2 * u, floorY - 74 * u);
  ctx.fillStyle = vertical(ctx, 71 * u, 75 * u, ['#B78465', '#8E5D43']);
  ctx.beginPath();
  ctx.roundRect(sx - 14 * u, 71 * u, 28 * u, 3.6 * u, 0.8 * u);
  ctx.fill();
  foldedSilk(ctx, sx - 12 * u, 66.4 * u, 24 * u, 4.6 * u, ['#C6E0D4', '#8DB8A6', '#5E8D7B']);
  foldedSilk(ctx, sx - 11 * u, 62.2 * u, 22 * u, 4.2 * u, ['#FFFBF4', '#F1E6D6', '#CDBBA2']);
  foldedSilk(ctx, sx - 10 * u, 58.4 * u, 20 * u, 3.8 * u, ['#C96478', '#9E2F4A', '#6E1A30']);
  // The spool: a gold thread on a wooden reel.
  const [px, py] = [sx - 4 * u, 55.2 * u];
  ctx.fillStyle = '#A8774F';
  ctx.fillRect(px - 2.4 * u, py - 3.4 * u, 4.8 * u, 0.8 * u);
  ctx.fillRect(px - 2.4 * u, py + 2.6 * u, 4.8 * u, 0.8 * u);
  ctx.fillStyle = linear(ctx, px - 2 * u, 0, px + 2 * u, 0, [
    [0, '#A7782C'],
    [0.4, '#F1D48A'],
    [1, '#9A6B25'],
  ]);
  ctx.fillRect(px - 1.9 * u, py - 2.6 * u, 3.8 * u, 5.2 * u);

  // The dress. Measures in u: shoulders at y 16, waist 43, hem 86; half-widths below.
  const top = 15.5 * u;
  const shoulder = 12.5 * u; // half the shoulder width
  const bust = 10 * u;
  const waist = 7 * u;
  const waistY = 43 * u;
  const hem = 86 * u;
  const silk = ['#F4C3BD', '#E99A96', '#D9787A'];

  // Its soft shadow on the niche wall, down and to the right.
  blurred(ctx, 2.4 * u, () => {
    ctx.fillStyle = 'rgba(120, 60, 60, 0.16)';
    ctx.beginPath();
    ctx.moveTo(cx - shoulder + 2.5 * u, top + 2 * u);
    ctx.lineTo(cx + shoulder + 3 * u, top + 2 * u);
    ctx.lineTo(cx + 14 * u, 60 * u);
    ctx.lineTo(cx + 12.5 * u, hem + 1 * u);
    ctx.lineTo(cx - 8 * u, hem + 1 * u);
    ctx.lineTo(cx - 8.5 * u, 50 * u);
    ctx.closePath();
    ctx.fill();
  });

  // The brass wall peg the hanger hangs from: a round plate and its knob, the hook over it.
  ctx.save();
  ctx.shadowColor = 'rgba(90, 50, 40, 0.3)';
  ctx.shadowBlur = 0.8 * u;
  ctx.shadowOffsetX = 0.3 * u;
  ctx.shadowOffsetY = 0.4 * u;
  const plate = ctx.createRadialGradient(cx - 0.5 * u, 7.6 * u, 0, cx, 8.2 * u, 1.6 * u);
  plate.addColorStop(0, '#EBD39A');
  plate.addColorStop(1, '#A57E3C');
  ctx.fillStyle = plate;
  ctx.beginPath();
  ctx.arc(cx, 8.2 * u, 1.5 * u, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
  ctx.fillStyle = '#8C6A32';
  ctx.beginPath();
  ctx.arc(cx, 8.3 * u, 0.6 * u, 0, Math.PI * 2);
  ctx.fill();
  // The hook and hanger.
  ctx.strokeStyle = '#B08A4A';
  ctx.lineWidth = Math.max(3, 0.55 * u);
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.arc(cx, 9.6 * u, 1.8 * u, Math.PI * 1.05, Math.PI * 2.05);
  ctx.lineTo(cx, 13.2 * u);
  ctx.stroke();
  ctx.fillStyle = '#C9A25E';
  ctx.beginPath();
  ctx.arc(cx - 1.8 * u, 9.3 * u, 0.5 * u, 0, Math.PI * 2);
  ctx.fill();

  // Back panel (tà sau), a shade darker, peeking out below the waist and at the hem.
  const panel = (offset: number, widen: number) => {
    ctx.beginPath();
    ctx.moveTo(cx - waist + 0.6 * u, waistY);
    ctx.bezierCurveTo(
      cx - waist - 0.4 * u - widen,
      58 * u,
      cx - 9.6 * u - widen,
      74 * u,
      cx - 10.2 * u - widen + offset,
      hem,
    );
    ctx.quadraticCurveTo(cx + offset, hem + 1.6 * u, cx + 10.2 * u + widen + offset, hem);
    ctx.bezierCurveTo(
      cx + 9.6 * u + widen,
      74 * u,
      cx + waist + 0.4 * u + widen,
      58 * u,
      cx + waist - 0.6 * u,
      waistY,
    );
    ctx.closePath();
  };
  ctx.save();
  panel(1.2 * u, 0.9 * u);
  ctx.fillStyle = vertical(ctx, waistY, hem, ['#C9686C', '#B95A60']);
  ctx.fill();
  ctx.clip();
  silkSheen(ctx, cx - 12 * u, cx + 12 * u, waistY, hem + 2 * u, [0.3, 0.62]);
  ctx.restore();

  // Sleeves hanging at the sides, behind the bodice: raglan, narrowing to the cuff.
  for (const side of [-1, 1]) {
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(cx + side * (shoulder - 1.4 * u), top + 0.6 * u);
    ctx.quadraticCurveTo(
      cx + side * (shoulder + 2.4 * u),
      top + 4 * u,
      cx + side * (shoulder + 1.6 * u),
      38 * u,
    );
    ctx.lineTo(cx + side * (shoulder + 1.2 * u), 58 * u);
    ctx.quadraticCurveTo(
      cx + side * (shoulder - 1.2 * u),
      59 * u,
      cx + side * (shoulder - 3.4 * u),
      57.6 * u,
    );
    ctx.lineTo(cx + side * (bust - 0.6 * u), 30 * u);
    ctx.closePath();
    ctx.fillStyle = vertical(ctx, top, 58 * u, [silk[1]!, silk[2]!]);
    ctx.fill();
    ctx.clip();
    const [a, b] =
      side < 0 ? [cx - shoulder - 3 * u, cx - bust] : [cx + bust, cx + shoulder + 3 * u];
    silkSheen(ctx, a, b, top, 60 * u, side < 0 ? [0.42] : [0.55]);
    ctx.restore();
    // The cuff's hem.
    ctx.strokeStyle = 'rgba(120, 30, 50, 0.35)';
    ctx.lineWidth = Math.max(2, 0.25 * u);
    ctx.beginPath();
    ctx.moveTo(cx + side * (shoulder + 1.1 * u), 57.2 * u);
    ctx.quadraticCurveTo(
      cx + side * (shoulder - 1.2 * u),
      58.2 * u,
      cx + side * (shoulder - 3.2 * u),
      56.8 * u,
    );
    ctx.stroke();
  }

  // Bodice and front panel (tà trước) as one piece: fitted to the waist, then falling straight
  // with a gentle flare, its hem rounded; the side slits open from the waist.
  const front = () => {
    ctx.beginPath();
    ctx.moveTo(cx - 2.6 * u, top - 0.6 * u);
    ctx.quadraticCurveTo(cx - shoulder + 1 * u, top, cx - shoulder, top + 2.2 * u);
    ctx.quadraticCurveTo(cx - bust - 0.4 * u, 24 * u, cx - bust, 30 * u);
    ctx.quadraticCurveTo(cx - waist - 0.6 * u, 37 * u, cx - waist, waistY);
    ctx.bezierCurveTo(
      cx - waist - 0.6 * u,
      58 * u,
      cx - 9.8 * u,
      74 * u,
      cx - 10.6 * u,
      hem - 0.6 * u,
    );
    ctx.quadraticCurveTo(cx, hem + 1.4 * u, cx + 10.6 * u, hem - 0.6 * u);
    ctx.bezierCurveTo(cx + 9.8 * u, 74 * u, cx + waist + 0.6 * u, 58 * u, cx + waist, waistY);
    ctx.quadraticCurveTo(cx + waist + 0.6 * u, 37 * u, cx + bust, 30 * u);
    ctx.quadraticCurveTo(cx + bust + 0.4 * u, 24 * u, cx + shoulder, top + 2.2 * u);
    ctx.quadraticCurveTo(cx + shoulder - 1 * u, top, cx + 2.6 * u, top - 0.6 * u);
    ctx.closePath();
  };
  ctx.save();
  ctx.shadowColor = 'rgba(110, 40, 50, 0.25)';
  ctx.shadowBlur = 1.6 * u;
  ctx.shadowOffsetY = 0.5 * u;
  front();
  ctx.fillStyle = vertical(ctx, top, hem, [silk[0]!, silk[1]!, silk[1]!, silk[2]!]);
  ctx.fill();
  ctx.restore();
  ctx.save();
  front();
  ctx.clip();
  silkSheen(ctx, cx - 11 * u, cx + 11 * u, top - u, hem + 2 * u, [0.22, 0.4, 0.58, 0.78]);
  // Folds of the falling panel: soft shaded creases fanning out from the waist.
  for (const [fx, spread, alpha] of [
    [-4.2, -1.6, 0.16],
    [0.6, 0.4, 0.12],
    [4.4, 1.8, 0.15],
  ] as const) {
    blurred(ctx, 0.7 * u, () => {
      ctx.strokeStyle = `rgba(120, 30, 50, ${alpha})`;
      ctx.lineWidth = 1 * u;
      ctx.beginPath();
      ctx.moveTo(cx + fx * 0.6 * u, waistY + 6 * u);
      ctx.quadraticCurveTo(cx + (fx + spread * 0.4) * u, 66 * u, cx + (fx + spread) * u, hem);
      ctx.stroke();
    });
  }
  // The bust darts' shade and the lit shoulder line.
  lightAt(ctx, w, h, cx - 4 * u, 22 * u, 9 * u, 'rgba(255, 245, 240, 0.35)');
  // Embroidery: a sprig of apricot blossom (hoa mai) in gold thread over the left shoulder,
  // a second one rising from the hem.
  ctx.strokeStyle = 'rgba(176, 128, 58, 0.8)';
  ctx.lineWidth = Math.max(2, 0.22 * u);
  ctx.beginPath();
  ctx.moveTo(cx - 9 * u, 19 * u);
  ctx.quadraticCurveTo(cx - 5 * u, 24 * u, cx - 6.5 * u, 33 * u);
  ctx.moveTo(cx - 6.2 * u, 25 * u);
  ctx.quadraticCurveTo(cx - 3 * u, 27 * u, cx - 1.5 * u, 25 * u);
  ctx.moveTo(cx + 7 * u, hem - 1 * u);
  ctx.quadraticCurveTo(cx + 4 * u, 76 * u, cx + 5.5 * u, 68 * u);
  ctx.moveTo(cx + 4.8 * u, 75 * u);
  ctx.quadraticCurveTo(cx + 2 * u, 73 * u, cx + 1 * u, 74.5 * u);
  ctx.stroke();
  const motifs: [number, number, number][] = [
    [-9, 19.5, 1.1],
    [-5.6, 23.6, 0.9],
    [-6.6, 28.6, 1.2],
    [-6.4, 33, 0.8],
    [-1.6, 25, 0.9],
    [-3.6, 26.4, 0.6],
    [5.5, 68, 1.2],
    [4.6, 72, 0.9],
    [1, 74.5, 1],
    [6.6, 80, 1.1],
    [3, 78.6, 0.7],
  ];
  for (const [mx, my, s] of motifs) {
    blossom(ctx, cx + mx * u, my * u, s * u, '#FFF3DC', '#C08A3E', mx + my);
  }
  ctx.restore();

  // The collar (cổ đứng): a standing band with a gold piping, and the diagonal opening
  // (the raglan fastening) from the collar to the right underarm.
  ctx.fillStyle = vertical(ctx, top - 2.4 * u, top + 0.8 * u, ['#F0B1AD', '#D67677']);
  ctx.beginPath();
  ctx.roundRect(cx - 3 * u, top - 2.4 * u, 6 * u, 2.8 * u, 0.8 * u);
  ctx.fill();
  ctx.strokeStyle = '#C9A25E';
  ctx.lineWidth = Math.max(2, 0.22 * u);
  ctx.stroke();
  ctx.strokeStyle = 'rgba(140, 40, 60, 0.38)';
  ctx.lineWidth = Math.max(2, 0.22 * u);
  ctx.beginPath();
  ctx.moveTo(cx + 1.6 * u, top + 0.6 * u);
  ctx.quadraticCurveTo(cx + 4 * u, top + 4.2 * u, cx + bust - 0.4 * u, 28 * u);
  ctx.stroke();
  ctx.fillStyle = '#C9A25E';
  for (const t of [0.2, 0.5, 0.8]) {
    ctx.beginPath();
    ctx.arc(
      cx + 1.6 * u + t * (bust - 2 * u),
      top + 0.6 * u + t * t * (12 * u),
      0.32 * u,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }

  // The hanger's wooden bar over the shoulders, in front of the collar's back.
  ctx.save();
  ctx.shadowColor = 'rgba(80, 40, 30, 0.3)';
  ctx.shadowBlur = 0.8 * u;
  ctx.shadowOffsetY = 0.3 * u;
  ctx.fillStyle = vertical(ctx, 13 * u, 16.4 * u, ['#C99A6C', '#9A6A45']);
  ctx.beginPath();
  ctx.moveTo(cx - shoulder - 0.4 * u, 17.2 * u);
  ctx.quadraticCurveTo(cx, 11.4 * u, cx + shoulder + 0.4 * u, 17.2 * u);
  ctx.quadraticCurveTo(cx + shoulder + 0.9 * u, 18.4 * u, cx + shoulder - 0.4 * u, 18.2 * u);
  ctx.quadraticCurveTo(cx, 13.6 * u, cx - shoulder + 0.4 * u, 18.2 * u);
  ctx.quadraticCurveTo(cx - shoulder - 0.9 * u, 18.4 * u, cx - shoulder - 0.4 * u, 17.2 * u);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
  ctx.fillStyle = '#B08A4A';
  ctx.beginPath();
  ctx.arc(cx, 13.4 * u, 0.7 * u, 0, Math.PI * 2);
  ctx.fill();
}

/** A row of five stars, `filled` of them gold, the rest a pale outline, on transparency. */
function starRow(ctx: Ctx, w: number, h: number, filled: number) {
  const r = h * 0.46;
  const step = (w - 2 * r) / 4;
  for (let i = 0; i < 5; i++) {
    const [x, y] = [r + i * step, h / 2 + r * 0.06];
    ctx.beginPath();
    for (let k = 0; k < 10; k++) {
      const radius = k % 2 === 0 ? r : r * 0.45;
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      ctx.lineTo(x + Math.cos(a) * radius, y + Math.sin(a) * radius);
    }
    ctx.closePath();
    if (i < filled) {
      ctx.fillStyle = vertical(ctx, y - r, y + r, ['#D9A441', '#A86F1C']);
      ctx.fill();
    } else {
      ctx.strokeStyle = '#C9A25E';
      ctx.lineWidth = Math.max(2, h * 0.05);
      ctx.lineJoin = 'round';
      ctx.stroke();
    }
  }
}

// --- The gym studio (fitness class) ----------------------------------------------------------------

/**
 * A glowing LED tube from (x0, y0) to (x1, y1): a soft halo, the tube, and a white-hot core.
 * `width` is the tube's thickness in pixels.
 */
function ledTube(
  ctx: Ctx,
  [x0, y0]: [number, number],
  [x1, y1]: [number, number],
  width: number,
  colour: string,
) {
  ctx.save();
  ctx.lineCap = 'round';
  ctx.strokeStyle = colour;
  for (const [blur, line, alpha] of [
    [width * 6, width * 3, 0.55],
    [width * 2, width * 1.4, 0.9],
  ] as const) {
    ctx.shadowColor = colour;
    ctx.shadowBlur = blur;
    ctx.globalAlpha = alpha;
    ctx.lineWidth = line;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
  }
  ctx.shadowBlur = 0;
  ctx.globalAlpha = 1;
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.lineWidth = width * 0.45;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.restore();
}

/** A soft dark ellipse where an object meets the floor, stretched away from the light. */
function contactShadow(ctx: Ctx, x: number, y: number, rx: number, ry: number, alpha = 0.7) {
  blurred(ctx, ry * 0.9, () => {
    ctx.fillStyle = `rgba(0, 0, 0, ${alpha})`;
    ctx.beginPath();
    ctx.ellipse(x + rx * 0.18, y, rx, ry, 0, 0, Math.PI * 2);
    ctx.fill();
  });
}

/**
 * A kettlebell standing on the floor at (x, ground), its bell `r` in radius: a cast-iron bell lit
 * from the upper left, a handle arching over it, the weight's colour on a band round its belly.
 */
function kettlebell(ctx: Ctx, x: number, ground: number, r: number, band: string) {
  const cy = ground - r * 0.92;
  contactShadow(ctx, x, ground, r * 1.05, r * 0.16);
  // Handle: a thick arch from the bell's shoulders, with its window showing the wall behind.
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineWidth = r * 0.24;
  ctx.strokeStyle = linear(ctx, x - r, 0, x + r, 0, [
    [0, '#5A6272'],
    [0.35, '#2B313C'],
    [1, '#0E1117'],
  ]);
  ctx.beginPath();
  ctx.moveTo(x - r * 0.62, cy - r * 0.55);
  ctx.bezierCurveTo(
    x - r * 0.72,
    cy - r * 1.55,
    x + r * 0.72,
    cy - r * 1.55,
    x + r * 0.62,
    cy - r * 0.55,
  );
  ctx.stroke();
  // A thin highlight along the handle's lit side.
  ctx.lineWidth = r * 0.04;
  ctx.strokeStyle = 'rgba(220, 235, 255, 0.45)';
  ctx.beginPath();
  ctx.moveTo(x - r * 0.7, cy - r * 0.7);
  ctx.bezierCurveTo(x - r * 0.72, cy - r * 1.5, x, cy - r * 1.42, x + r * 0.2, cy - r * 1.34);
  ctx.stroke();
  ctx.restore();
  // The bell, flattened where it stands.
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, cy, r, Math.PI * 0.62, Math.PI * 2.38);
  ctx.closePath();
  ctx.clip();
  const bell = ctx.createRadialGradient(x - r * 0.4, cy - r * 0.45, r * 0.05, x, cy, r * 1.1);
  bell.addColorStop(0, '#6B7484');
  bell.addColorStop(0.35, '#2A303B');
  bell.addColorStop(0.8, '#12151C');
  bell.addColorStop(1, '#07080C');
  ctx.fillStyle = bell;
  ctx.fillRect(x - r, cy - r, r * 2, r * 2);
  // The coloured band, shaded like the bell under it.
  ctx.fillStyle = band;
  ctx.globalAlpha = 0.92;
  ctx.fillRect(x - r, cy - r * 0.06, r * 2, r * 0.3);
  ctx.globalAlpha = 1;
  ctx.fillStyle = linear(ctx, x - r, 0, x + r, 0, [
    [0, 'rgba(255,255,255,0.18)'],
    [0.4, 'rgba(0,0,0,0)'],
    [1, 'rgba(0,0,0,0.6)'],
  ]);
  ctx.fillRect(x - r, cy - r * 0.06, r * 2, r * 0.3);
  // A cool rim from the LED strip behind, on the shadowed right edge.
  ctx.strokeStyle = 'rgba(34, 211, 238, 0.45)';
  ctx.lineWidth = r * 0.05;
  ctx.beginPath();
  ctx.arc(x, cy, r * 0.98, -Math.PI * 0.35, Math.PI * 0.15);
  ctx.stroke();
  ctx.restore();
  // Specular glint on the shoulder.
  blurred(ctx, r * 0.06, () => {
    ctx.fillStyle = 'rgba(255,255,255,0.5)';
    ctx.beginPath();
    ctx.ellipse(x - r * 0.42, cy - r * 0.5, r * 0.16, r * 0.07, -0.7, 0, Math.PI * 2);
    ctx.fill();
  });
}

/** A hexagonal dumbbell head seen end on, `r` across its corners, at (x, y). */
function hexHead(ctx: Ctx, x: number, y: number, r: number) {
  const hex = (cx: number, cy: number, radius: number) => {
    ctx.beginPath();
    for (let k = 0; k < 6; k++) {
      const a = (k * Math.PI) / 3;
      ctx.lineTo(cx + Math.cos(a) * radius, cy + Math.sin(a) * radius);
    }
    ctx.closePath();
  };
  // Its depth, receding up and to the right.
  ctx.fillStyle = '#07090D';
  hex(x + r * 0.16, y - r * 0.12, r);
  ctx.fill();
  ctx.fillStyle = linear(ctx, x - r, y - r, x + r, y + r, [
    [0, '#4A5262'],
    [0.45, '#1E232C'],
    [1, '#0B0D12'],
  ]);
  hex(x, y, r);
  ctx.fill();
  ctx.strokeStyle = 'rgba(190, 210, 235, 0.35)';
  ctx.lineWidth = Math.max(1, r * 0.05);
  ctx.beginPath();
  ctx.moveTo(x + Math.cos((4 * Math.PI) / 3) * r, y + Math.sin((4 * Math.PI) / 3) * r);
  ctx.lineTo(x - r, y);
  ctx.lineTo(x + Math.cos((2 * Math.PI) / 3) * r, y + Math.sin((2 * Math.PI) / 3) * r);
  ctx.stroke();
  // The chrome end of the handle.
  const cap = ctx.createRadialGradient(x - r * 0.1, y - r * 0.1, 0, x, y, r * 0.26);
  cap.addColorStop(0, '#E5EAF0');
  cap.addColorStop(1, '#5B6473');
  ctx.fillStyle = cap;
  ctx.beginPath();
  ctx.arc(x, y, r * 0.24, 0, Math.PI * 2);
  ctx.fill();
}

/**
 * A two-tier dumbbell rack against the back wall, its feet on the floor at `ground`, spanning
 * x0–x1: black steel rails with a lit top edge, and dumbbells seen end on, heavier below.
 */
function dumbbellRack(ctx: Ctx, x0: number, x1: number, ground: number, height: number) {
  const span = x1 - x0;
  const steel = (bx: number, by: number, bw: number, bh: number) => {
    ctx.fillStyle = vertical(ctx, by, by + bh, [
      [0, '#3A414E'],
      [0.25, '#161A21'],
      [1, '#0A0C10'],
    ]);
    ctx.fillRect(bx, by, bw, bh);
  };
  contactShadow(ctx, (x0 + x1) / 2, ground, span * 0.55, height * 0.06, 0.8);
  const post = span * 0.022;
  for (const px of [x0, x1 - post, x0 + span / 2 - post / 2])
    steel(px, ground - height, post, height);
  const tiers = [
    { y: ground - height * 0.34, r: height * 0.16, count: 6 },
    { y: ground - height * 0.8, r: height * 0.11, count: 8 },
  ];
  for (const tier of tiers) {
    steel(x0 - post * 0.4, tier.y, span + post * 0.8, height * 0.07);
    const step = (span - post * 2) / tier.count;
    for (let i = 0; i < tier.count; i++) {
      // Lighter ones on the right: a slightly smaller head.
      const r = tier.r * (1 - i * 0.035);
      hexHead(ctx, x0 + post + step * (i + 0.5), tier.y - r * 0.82, r);
    }
  }
}

/**
 * A bumper plate on the barbell, centred at (x, y), `r` in radius, its face turned towards the
 * middle of the frame (`facing` −1 left, 1 right), `thick` its rim's depth in pixels.
 */
function bumperPlate(
  ctx: Ctx,
  x: number,
  y: number,
  r: number,
  thick: number,
  facing: number,
  ring: string,
) {
  const rx = r * 0.3;
  // The rim: the plate's edge between its back face and its front face.
  const back = x - facing * thick;
  ctx.fillStyle = vertical(ctx, y - r, y + r, [
    [0, '#3B4250'],
    [0.3, '#1A1E26'],
    [1, '#050608'],
  ]);
  ctx.beginPath();
  ctx.ellipse(back, y, rx, r, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillRect(Math.min(x, back), y - r, Math.abs(x - back), r * 2);
  // The face: black rubber, a coloured ring, a steel hub, lit from the upper left.
  ctx.fillStyle = linear(ctx, x - rx, y - r, x + rx, y + r, ['#2E3440', '#14171E', '#08090C']);
  ctx.beginPath();
  ctx.ellipse(x, y, rx, r, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = ring;
  ctx.lineWidth = r * 0.07;
  ctx.beginPath();
  ctx.ellipse(x, y, rx * 0.78, r * 0.78, 0, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = vertical(ctx, y - r * 0.2, y + r * 0.2, ['#E2E8F0', '#4B5563']);
  ctx.beginPath();
  ctx.ellipse(x, y, rx * 0.2, r * 0.2, 0, 0, Math.PI * 2);
  ctx.fill();
  // The lit upper edge of the rim.
  ctx.strokeStyle = 'rgba(215, 228, 245, 0.5)';
  ctx.lineWidth = Math.max(1.5, r * 0.02);
  ctx.beginPath();
  ctx.ellipse(x, y, rx, r, 0, Math.PI * 1.05, Math.PI * 1.55);
  ctx.stroke();
}

/** A steel bar or sleeve from x0 to x1 at height y, `r` in radius, chrome lit from above. */
function chromeBar(ctx: Ctx, x0: number, x1: number, y: number, r: number) {
  ctx.fillStyle = vertical(ctx, y - r, y + r, [
    [0, '#6B7280'],
    [0.3, '#F1F5F9'],
    [0.55, '#9CA3AF'],
    [1, '#1F2937'],
  ]);
  ctx.fillRect(x0, y - r, x1 - x0, r * 2);
}

/**
 * A loaded barbell lying on the floor across the frame, centred at x, its plates `r` in radius
 * standing on `ground`.
 */
function barbell(ctx: Ctx, x: number, ground: number, half: number, r: number) {
  const y = ground - r;
  contactShadow(ctx, x - half * 0.62, ground, r * 0.55, r * 0.09, 0.85);
  contactShadow(ctx, x + half * 0.62, ground, r * 0.55, r * 0.09, 0.85);
  // A long soft shadow of the bar, thrown right and back by the key light.
  blurred(ctx, r * 0.08, () => {
    ctx.fillStyle = 'rgba(0,0,0,0.45)';
    ctx.fillRect(x - half * 0.6, ground - r * 0.05, half * 1.3, r * 0.06);
  });
  chromeBar(ctx, x - half * 0.58, x + half * 0.58, y, r * 0.045);
  // Knurling: a darker, finely marked grip in the middle.
  ctx.fillStyle = 'rgba(30, 35, 45, 0.35)';
  for (let k = -40; k <= 40; k++) {
    if (Math.abs(k) < 6) continue;
    ctx.fillRect(x + (k * half * 0.55) / 40, y - r * 0.04, 1.2, r * 0.08);
  }
  const plates: [number, number, string][] = [
    [0.6, 1, '#E11D48'],
    [0.69, 0.9, '#22D3EE'],
  ];
  for (const side of [-1, 1]) {
    chromeBar(
      ctx,
      x + side * half * 0.58 - (side < 0 ? half * 0.42 : 0),
      x + side * half * 0.58 + (side > 0 ? half * 0.42 : 0),
      y,
      r * 0.075,
    );
    // Outer plates first, so the inner ones overlap them.
    for (const [at, size, ring] of [...plates].reverse()) {
      bumperPlate(ctx, x + side * half * at, y + r * (1 - size), r * size, r * 0.12, -side, ring);
    }
    // The collar, clamping the plates.
    chromeBar(
      ctx,
      x + side * half * 0.76 - r * 0.04,
      x + side * half * 0.76 + r * 0.04,
      y,
      r * 0.12,
    );
  }
}

/**
 * A dark gym studio from shapes alone: a slatted back wall washed by a cyan LED strip, two magenta
 * LED uprights, a rubber floor mirroring the light, a dumbbell rack against the wall, kettlebells
 * in a row and a loaded barbell in front. The key light comes from the upper left; the far rack
 * is softer and smaller, the barbell nearest and sharpest. The equipment sits in the middle of
 * the lower half, so the upper wall stays calm for a headline and every ratio's crop keeps it.
 */
function gymStudio(ctx: Ctx, w: number, h: number) {
  // Pixels per unit of a 1600-wide frame; the floor is a fixed depth, the wall takes the rest.
  const u = w / 1600;
  const ground = h - 480 * u;
  // Back wall: dark slate, darker at the top.
  box(ctx, [0, 0, w, ground], vertical(ctx, 0, ground, ['#06080D', '#0C111A', '#141B27']));
  // Acoustic slats, each lit on its left edge.
  for (let x = 0, i = 0; x < w; x += 22 * u, i++) {
    ctx.fillStyle = i % 2 ? 'rgba(255,255,255,0.025)' : 'rgba(0,0,0,0.18)';
    ctx.fillRect(x, 0, 10 * u, ground);
    ctx.fillStyle = 'rgba(160, 190, 230, 0.05)';
    ctx.fillRect(x, 0, 1.5 * u, ground);
  }
  // The key light's pool on the wall (upper left), and the strip's cyan wash above the rack.
  lightAt(ctx, w, h, w * 0.28, ground - 520 * u, 660 * u, 'rgba(120, 150, 200, 0.12)');
  lightAt(ctx, w, h, w * 0.5, ground - 240 * u, w * 0.42, 'rgba(34, 211, 238, 0.22)');
  // Two magenta uprights framing the rack, and the cyan strip along the wall behind it.
  const strip = ground - 324 * u;
  for (const lx of [0.23, 0.77]) {
    ledTube(ctx, [w * lx, ground - 600 * u], [w * lx, ground - 24 * u], 9 * u, '#E879F9');
  }
  ledTube(ctx, [w * 0.28, strip], [w * 0.72, strip], 8 * u, '#22D3EE');
  // Skirting where wall meets floor.
  box(ctx, [0, ground - 10 * u, w, 10 * u], '#05070B');

  // Rubber floor: near black, a touch lighter near the wall where the strip falls on it.
  box(ctx, [0, ground, w, h - ground], vertical(ctx, ground, h, ['#141B26', '#0B0F16', '#07090D']));
  // Tile seams in perspective, to one vanishing point on the wall.
  ctx.save();
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.55)';
  ctx.lineWidth = 2 * u;
  const vx = w * 0.5;
  const vy = ground - 600 * u;
  for (let k = -8; k <= 8; k++) {
    const bx = vx + k * w * 0.16;
    const t = (ground - vy) / (h - vy);
    ctx.beginPath();
    ctx.moveTo(vx + (bx - vx) * t, ground);
    ctx.lineTo(bx, h);
    ctx.stroke();
  }
  for (const f of [0.06, 0.16, 0.32, 0.58]) {
    ctx.beginPath();
    ctx.moveTo(0, ground + (h - ground) * f);
    ctx.lineTo(w, ground + (h - ground) * f);
    ctx.stroke();
  }
  ctx.restore();
  // Rubber granules.
  ctx.save();
  clipTo(ctx, [0, ground, w, h - ground]);
  ctx.translate(0, ground);
  scatter(ctx, w, h - ground, 131, ['#94A3B8', '#22D3EE'], 900, 'dot', {
    size: [0.0006, 0.0008],
    alpha: [0.05, 0.12],
  });
  ctx.restore();
  ctx.restore();
  // The lights mirrored in the floor: soft streaks under the uprights, a band under the strip.
  blurred(ctx, 18 * u, () => {
    for (const lx of [0.23, 0.77]) {
      ctx.fillStyle = vertical(ctx, ground, h * 0.98, [
        'rgba(232, 121, 249, 0.5)',
        'rgba(232, 121, 249, 0)',
      ]);
      ctx.fillRect(w * lx - 14 * u, ground, 28 * u, h - ground);
    }
    ctx.fillStyle = vertical(ctx, ground, ground + 144 * u, [
      'rgba(34, 211, 238, 0.28)',
      'rgba(34, 211, 238, 0)',
    ]);
    ctx.fillRect(w * 0.28, ground, w * 0.44, 144 * u);
  });

  // Far: the dumbbell rack against the wall, softened by distance.
  blurred(ctx, 1.6 * u, () => dumbbellRack(ctx, w * 0.3, w * 0.7, ground + 24 * u, 240 * u));
  // Haze between the rack and the kettlebells.
  box(
    ctx,
    [0, ground - 60 * u, w, 144 * u],
    vertical(ctx, ground - 60 * u, ground + 84 * u, [
      'rgba(20,30,45,0)',
      'rgba(20,30,45,0.35)',
      'rgba(20,30,45,0)',
    ]),
  );
  // Middle: kettlebells in a row, heaviest on the left.
  const bells: [number, number, string][] = [
    [0.3, 1, '#16A34A'],
    [0.39, 0.9, '#A855F7'],
    [0.47, 0.82, '#EAB308'],
    [0.6, 0.82, '#EAB308'],
    [0.68, 0.92, '#E11D48'],
  ];
  for (const [bx, s, band] of bells) kettlebell(ctx, w * bx, ground + 156 * u, 70 * u * s, band);
  // Near: the loaded barbell on the floor, largest and sharpest.
  barbell(ctx, w * 0.5, ground + 408 * u, w * 0.27, 180 * u);
  // Vignette: the corners fall into the dark.
  const v = ctx.createRadialGradient(w / 2, ground, 360 * u, w / 2, ground, Math.max(w, h) * 0.75);
  v.addColorStop(0, 'rgba(0,0,0,0)');
  v.addColorStop(1, 'rgba(0,0,0,0.55)');
  ctx.fillStyle = v;
  ctx.fillRect(0, 0, w, h);
}

// --- Outputs --------------------------------------------------------------------------------------

interface Art {
  folder: string;
  file: string;
  width: number;
  height: number;
  what: string;
  credits: Credit[];
  /** JPEG quality, when 86 would take a detailed wide drawing over the size budget. */
  quality?: number;
  draw: (ctx: Ctx, w: number, h: number) => Promise<void>;
}

interface LineGrid {
  columns: number;
  rows: number;
  spacing: number;
  columnLength: number;
  rowLength: number;
}

/**
 * A faint grid of 2 px lines on a transparent tile, the size the layout places it at, so one
 * decorative image (one layer in the editor, not one per line) draws `columns` lines down and
 * `rows` across, `spacing` apart.
 */
function gridArt(folder: string, layout: string, grid: LineGrid): Art {
  return {
    folder,
    file: `grid-${layout}.png`,
    width: grid.rowLength,
    height: Math.max(grid.columnLength, (grid.rows - 1) * grid.spacing + 2),
    what: `faint line grid (${layout})`,
    credits: [OWN_WORK],
    draw: async (ctx) => {
      ctx.fillStyle = 'rgba(255,255,255,0.0706)';
      for (let c = 0; c < grid.columns; c++)
        ctx.fillRect(c * grid.spacing, 0, 2, grid.columnLength);
      for (let r = 0; r < grid.rows; r++) ctx.fillRect(0, r * grid.spacing, grid.rowLength, 2);
    },
  };
}

/** A head-and-shoulders portrait: an avatar with a face, standing on a painted backdrop. */
function portrait(
  style: AvatarStyle,
  seed: string,
  options: Record<string, unknown>,
  backdrop: string[],
): Pick<Art, 'credits' | 'draw'> {
  return {
    credits: [avatarCredit(style)],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, backdrop, 150);
      washes(ctx, w, h, seed.length * 7, ['rgba(255,255,255,0.35)']);
      const svg = createAvatar(style, { seed, ...options }).toString();
      const image = await loadImage(svgToPng(svg, w));
      // Square on a taller canvas: the shoulders stay on the bottom edge, the room goes above.
      ctx.drawImage(image, w * 0.04, h - w + w * 0.06, w * 0.92, w * 0.92);
    },
  };
}

const ARTS: Art[] = [
  // Portraits: one style and person per template.
  {
    folder: 'speaker-card',
    file: 'speaker.jpg',
    width: 800,
    height: 800,
    what: 'speaker portrait',
    ...portrait(
      avatars.personas as AvatarStyle,
      'Priya',
      {
        mouth: ['smile'],
        eyes: ['open'],
        hair: ['long'],
        hairColor: ['362c47'],
        facialHairProbability: 0,
        skinColor: ['b16a5b'],
        clothingColor: ['456dff'],
      },
      ['#DCE7FB', '#A9C1F2'],
    ),
  },
  ...(
    [
      ['square', { columns: 9, rows: 9, spacing: 64, columnLength: 512, rowLength: 530 }],
      ['portrait', { columns: 17, rows: 11, spacing: 64, columnLength: 640, rowLength: 1082 }],
      ['story', { columns: 17, rows: 11, spacing: 64, columnLength: 640, rowLength: 1082 }],
      ['story-base', { columns: 17, rows: 5, spacing: 64, columnLength: 276, rowLength: 1082 }],
      ['landscape', { columns: 13, rows: 12, spacing: 80, columnLength: 944, rowLength: 962 }],
      ['og', { columns: 10, rows: 11, spacing: 60, columnLength: 630, rowLength: 542 }],
    ] as const
  ).map(([layout, grid]) => gridArt('speaker-card', layout, grid)),
  {
    folder: 'name-badge',
    file: 'attendee.jpg',
    width: 600,
    height: 600,
    what: 'attendee portrait',
    ...portrait(
      avatars.personas as AvatarStyle,
      'Daniel',
      { mouth: ['bigSmile'], eyes: ['happy'], facialHairProbability: 0 },
      ['#D5F0EC', '#9ED9CF'],
    ),
  },
  {
    folder: 'testimonial',
    file: 'customer.jpg',
    width: 600,
    height: 600,
    what: 'customer portrait',
    ...portrait(
      avatars.openPeeps as AvatarStyle,
      'Thao',
      { face: ['smile'], facialHairProbability: 0, accessoriesProbability: 0, maskProbability: 0 },
      ['#E3EEDD', '#BCD7B2'],
    ),
  },
  {
    folder: 'blog-header',
    file: 'author.jpg',
    width: 400,
    height: 400,
    what: 'author portrait',
    ...portrait(
      avatars.lorelei as AvatarStyle,
      'Sam',
      { mouth: ['happy04'], glassesProbability: 0, beardProbability: 0 },
      ['#FDEBD2', '#F6C98F'],
    ),
  },
  {
    folder: 'podcast-episode',
    file: 'guest.jpg',
    width: 600,
    height: 600,
    what: 'guest portrait',
    ...portrait(
      avatars.micah as AvatarStyle,
      'Maya',
      {
        mouth: ['smile'],
        baseColor: ['77311d'],
        hairColor: ['000000'],
        facialHairProbability: 0,
        glassesProbability: 0,
      },
      ['#FBE2D3', '#F2B797'],
    ),
  },
  {
    folder: 'quote-card',
    file: 'author.jpg',
    width: 480,
    height: 480,
    what: 'author portrait',
    ...portrait(
      avatars.openPeeps as AvatarStyle,
      'Eleanor',
      {
        face: ['calm'],
        head: ['grayShort'],
        skinColor: ['edb98a'],
        facialHairProbability: 0,
        accessories: ['glasses'],
        accessoriesProbability: 100,
        maskProbability: 0,
      },
      ['#EAE4F8', '#C8BCEE'],
    ),
  },
  {
    folder: 'webinar',
    file: 'host.jpg',
    width: 600,
    height: 600,
    what: 'host portrait',
    ...portrait(
      avatars.personas as AvatarStyle,
      'Lan',
      { mouth: ['smile'], eyes: ['open'], hair: ['bobCut'], facialHairProbability: 0 },
      ['#D4ECF6', '#97CBE4'],
    ),
  },
  // Illustrations: Fluent Emoji objects composed into one scene per template.
  {
    folder: 'blog-header',
    file: 'cover.jpg',
    width: 1200,
    height: 1000,
    what: 'desk scene',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#0E2A5C', '#1D4ED8', '#2563EB'], 135);
      washes(ctx, w, h, 3, ['rgba(56,189,248,0.45)', 'rgba(139,92,246,0.35)']);
      floor(ctx, w, h, 0.7, ['#12306B', '#0B1F47']);
      await place(ctx, w, h, [
        { name: 'laptop', x: 0.55, y: 0.56, size: 0.5 },
        { name: 'hot-beverage', x: 0.82, y: 0.66, size: 0.2 },
        { name: 'books', x: 0.27, y: 0.63, size: 0.24 },
        { name: 'potted-plant', x: 0.13, y: 0.56, size: 0.2 },
        { name: 'memo', x: 0.8, y: 0.33, size: 0.14, rotate: 12 },
        { name: 'light-bulb', x: 0.35, y: 0.28, size: 0.13, rotate: -10 },
      ]);
    },
  },
  {
    folder: 'event-announcement',
    file: 'poster.jpg',
    width: 1600,
    height: 1000,
    what: 'rooftop concert scene',
    // Wide (16:10), so that wide and tall frames alike are filled without shrinking the scene.
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#1B1035', '#4C1D95', '#BE185D', '#F59E0B'], 180);
      washes(ctx, w, h, 5, ['rgba(244,63,94,0.4)', 'rgba(14,165,233,0.3)']);
      scatter(ctx, w, h * 0.55, 7, ['#FDE68A', '#FFFFFF'], 70, 'star');
      await place(ctx, w, h, [
        { name: 'guitar', x: 0.412, y: 0.55, size: 0.42, rotate: -18 },
        { name: 'microphone', x: 0.588, y: 0.5, size: 0.3, rotate: 12 },
        { name: 'musical-notes', x: 0.613, y: 0.27, size: 0.18 },
        { name: 'crescent-moon', x: 0.325, y: 0.2, size: 0.14, shadow: false },
        { name: 'admission-tickets', x: 0.6, y: 0.76, size: 0.2, rotate: -8 },
      ]);
    },
  },
  {
    folder: 'countdown',
    file: 'backdrop.jpg',
    width: 1000,
    height: 1000,
    // A conference counting down: an hourglass running out beside its stage microphone and tickets.
    what: 'conference countdown scene',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#0B132B', '#1C2541', '#3A506B'], 200);
      washes(ctx, w, h, 9, ['rgba(91,192,190,0.45)', 'rgba(111,255,233,0.2)']);
      scatter(ctx, w, h, 11, ['#FFFFFF', '#6FFFE9'], 90, 'dot');
      await place(ctx, w, h, [
        { name: 'hourglass-not-done', x: 0.52, y: 0.44, size: 0.44 },
        { name: 'studio-microphone', x: 0.24, y: 0.66, size: 0.22, rotate: -12 },
        { name: 'admission-tickets', x: 0.79, y: 0.26, size: 0.18, rotate: 10 },
        { name: 'glowing-star', x: 0.2, y: 0.24, size: 0.1 },
        { name: 'calendar', x: 0.77, y: 0.7, size: 0.18, rotate: 8 },
      ]);
    },
  },
  {
    folder: 'holiday-greeting',
    // A whole scene, wide enough for every ratio: the lit tree and its gifts stay whole in each
    // crop (the template's keep-box); the string lights, the moon, the snowy pines, the deer and
    // the snowman fill the rest.
    file: 'festive.jpg',
    width: 1600,
    height: 1200,
    what: 'Christmas tree with fairy lights and gifts on a snowy night, string lights, a deer and a snowman',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#061C15', '#0B3123', '#11432F'], 180);
      washes(ctx, w, h, 61, ['rgba(253,230,138,0.14)', 'rgba(120,190,160,0.12)']);
      glow(ctx, w, h, 0.85, 0.2, 0.12, 'rgba(255,244,214,0.28)');
      scatter(ctx, w, h * 0.5, 67, ['#FFF6D8'], 44, 'star', {
        size: [0.002, 0.005],
        alpha: [0.4, 0.5],
        inner: 0.35,
      });
      glow(ctx, w, h, 0.5, 0.5, 0.36, 'rgba(255,196,96,0.42)');
      snowHill(ctx, w, h, 0.66, 0.035, '#2C6150', '#1B4A3B', '#1B4A3B');
      await place(ctx, w, h, [
        { name: 'crescent-moon', x: 0.85, y: 0.2, size: 0.09, rotate: -16, shadow: false },
        ...[0.03, 0.11, 0.19, 0.27, 0.73, 0.81, 0.89, 0.97].map((x, i) => ({
          name: 'evergreen-tree',
          x,
          y: 0.6 - (i % 3) * 0.012,
          size: 0.13 + ((i * 5) % 3) * 0.025,
          shadow: false,
          tint: '#4F7F6C',
        })),
      ]);
      snowHill(ctx, w, h, 0.72, 0.025, '#F3EFE2', '#7FA395', '#1E5140');
      glow(ctx, w, h, 0.5, 0.76, 0.22, 'rgba(255,214,140,0.45)');
      glow(ctx, w, h, 0.5, 0.2, 0.08, 'rgba(255,226,140,0.5)');
      // Falling snow over the upper three quarters.
      scatter(ctx, w, h * 0.74, 71, ['#FFFFFF'], 150, 'dot', {
        size: [0.0015, 0.004],
        alpha: [0.35, 0.5],
      });
      stringLights(ctx, w, h, [-0.02, 0.06], [0.5, 0.09], 0.09, 11, 1);
      stringLights(ctx, w, h, [0.5, 0.09], [1.02, 0.06], 0.09, 11, 2);
      await place(ctx, w, h, [{ name: 'christmas-tree', x: 0.5, y: 0.47, size: 0.58 }]);
      // Fairy lights wound round the tree, one swag a tier.
      treeLights(ctx, w, h, [
        [0.458, 0.355, 0.548, 0.4],
        [0.43, 0.465, 0.575, 0.52],
        [0.395, 0.575, 0.61, 0.635],
      ]);
      await place(ctx, w, h, [
        { name: 'deer', x: 0.225, y: 0.66, size: 0.24 },
        { name: 'snowman', x: 0.78, y: 0.66, size: 0.26 },
        { name: 'wrapped-gift', x: 0.37, y: 0.75, size: 0.17, rotate: -6 },
        { name: 'wrapped-gift', x: 0.63, y: 0.76, size: 0.15, rotate: 6 },
        { name: 'wrapped-gift', x: 0.47, y: 0.785, size: 0.11, rotate: -4 },
        { name: 'snowflake', x: 0.2, y: 0.3, size: 0.07, rotate: 12, shadow: false },
        { name: 'snowflake', x: 0.76, y: 0.34, size: 0.06, shadow: false },
        { name: 'snowflake', x: 0.08, y: 0.46, size: 0.045, rotate: 20, shadow: false },
        { name: 'snowflake', x: 0.93, y: 0.47, size: 0.05, rotate: -10, shadow: false },
      ]);
    },
  },
  {
    folder: 'podcast-episode',
    file: 'cover.jpg',
    width: 800,
    height: 800,
    what: 'show cover',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#2B2D42', '#3D2C5E', '#EF476F'], 150);
      washes(ctx, w, h, 19, ['rgba(255,209,102,0.35)', 'rgba(6,214,160,0.25)']);
      scatter(ctx, w, h, 23, ['#FFD166', '#FFFFFF'], 40, 'star');
      await place(ctx, w, h, [
        { name: 'studio-microphone', x: 0.5, y: 0.5, size: 0.56 },
        { name: 'headphone', x: 0.22, y: 0.72, size: 0.22, rotate: -14 },
        { name: 'crescent-moon', x: 0.8, y: 0.22, size: 0.16, shadow: false },
      ]);
    },
  },
  {
    folder: 'real-estate-listing',
    file: 'house.jpg',
    width: 1200,
    height: 900,
    what: 'three-storey townhouse with a roof terrace, on its street',
    // Drawn here from paths and gradients alone: the project's own work, no third-party source.
    credits: [OWN_WORK],
    draw: async (ctx, w, h) => townhouse(ctx, w, h),
  },
  {
    folder: 'before-after',
    // Wide, so it fills a wide frame as well as a tall one (cropped at the sides) instead of being
    // shrunk to keep the house whole, with the frame's background showing beside it. The same
    // townhouse as the real-estate listing's, drawn at the same viewpoint both times so the pair
    // reads as one house: years neglected, then as it stands after the work.
    file: 'before.jpg',
    width: 1600,
    height: 900,
    what: 'the townhouse run down: stained render, dirty glass, rusty gate, dead plants',
    credits: [OWN_WORK],
    quality: 84,
    draw: async (ctx, w, h) => townhouse(ctx, w, h, { weathered: true, yard: true }),
  },
  {
    folder: 'before-after',
    file: 'after.jpg',
    width: 1600,
    height: 900,
    what: 'the same townhouse repainted, with a new lawn and a paved front path',
    credits: [OWN_WORK],
    quality: 84,
    draw: async (ctx, w, h) => townhouse(ctx, w, h, { yard: true }),
  },
  {
    folder: 'app-feature',
    file: 'screen.jpg',
    width: 900,
    height: 900,
    what: 'budget app still life',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#E0F2FE', '#BAE6FD', '#7DD3FC'], 160);
      washes(ctx, w, h, 37, ['rgba(255,255,255,0.6)']);
      await place(ctx, w, h, [
        { name: 'mobile-phone', x: 0.5, y: 0.5, size: 0.6 },
        { name: 'receipt', x: 0.24, y: 0.34, size: 0.2, rotate: -12 },
        { name: 'money-with-wings', x: 0.78, y: 0.3, size: 0.18, rotate: 10 },
        { name: 'chart-increasing', x: 0.78, y: 0.72, size: 0.18 },
        { name: 'coin', x: 0.22, y: 0.72, size: 0.14 },
      ]);
    },
  },
  {
    folder: 'mid-autumn-greeting',
    file: 'moon.jpg',
    width: 900,
    height: 900,
    what: 'mooncake and lanterns under the full moon',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#0B1D3A', '#13294F', '#1E3A66'], 180);
      washes(ctx, w, h, 41, ['rgba(244,197,106,0.35)']);
      scatter(ctx, w, h * 0.5, 43, ['#FFF3C4', '#FFFFFF'], 60, 'star');
      floor(ctx, w, h, 0.74, ['#5B3A1E', '#3E2712']);
      await place(ctx, w, h, [
        { name: 'full-moon', x: 0.5, y: 0.3, size: 0.42, shadow: false },
        { name: 'red-paper-lantern', x: 0.18, y: 0.3, size: 0.2, rotate: -6 },
        { name: 'red-paper-lantern', x: 0.83, y: 0.36, size: 0.16, rotate: 8 },
        { name: 'moon-cake', x: 0.5, y: 0.72, size: 0.36 },
        { name: 'teacup-without-handle', x: 0.8, y: 0.78, size: 0.14 },
      ]);
    },
  },
  {
    folder: 'product-promo',
    // The reference template's product shot: a studio still drawn from shapes, the bottle in the
    // middle half of the frame (the square's tall crop keeps only that), dropper to base, between
    // 0.18 and 0.74 of the height (the wide crops keep the middle 77 %).
    file: 'product.jpg',
    width: 1080,
    height: 1080,
    what: 'amber serum dropper bottle on a plinth, with an orange, in soft window light',
    credits: [OWN_WORK],
    draw: async (ctx, w, h) => serumStill(ctx, w, h),
  },
  // Catalog v2 templates.
  {
    folder: 'birthday-greeting',
    // A whole scene, wide enough for every ratio: the cake on a table stays whole in each crop
    // (the template's keep-box), the wall and bunting fill the rest.
    file: 'cake.jpg',
    width: 1600,
    height: 1200,
    what: 'birthday cake on a party table with balloons and bunting',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#FFF4EC', '#FFE3EC', '#FCCFDF'], 180);
      washes(ctx, w, h, 51, ['rgba(255,255,255,0.75)', 'rgba(255,214,170,0.35)']);
      scatter(ctx, w, h * 0.66, 53, ['#F472B6', '#FBBF24', '#60A5FA', '#34D399'], 80, 'dash');
      bunting(
        ctx,
        w,
        h,
        [-0.02, 0.04],
        [1.02, 0.05],
        0.1,
        ['#F472B6', '#FBBF24', '#60A5FA', '#FB7185', '#34D399'],
        16,
      );
      floor(ctx, w, h, 0.72, ['#FFFAF4', '#FFF3EC']);
      await place(ctx, w, h, [
        { name: 'balloon', x: 0.12, y: 0.36, size: 0.34, rotate: -10 },
        { name: 'balloon', x: 0.24, y: 0.28, size: 0.26, rotate: 6 },
        { name: 'balloon', x: 0.88, y: 0.33, size: 0.3, rotate: 10 },
        { name: 'balloon', x: 0.77, y: 0.24, size: 0.22, rotate: -6 },
        { name: 'birthday-cake', x: 0.5, y: 0.54, size: 0.56 },
        { name: 'wrapped-gift', x: 0.77, y: 0.7, size: 0.22, rotate: 6 },
        { name: 'wrapped-gift', x: 0.88, y: 0.76, size: 0.14, rotate: -8 },
        { name: 'party-popper', x: 0.24, y: 0.7, size: 0.2, rotate: -14 },
        { name: 'cupcake', x: 0.12, y: 0.78, size: 0.14 },
      ]);
    },
  },
  {
    folder: 'wedding-invitation',
    file: 'rings.jpg',
    width: 1000,
    height: 800,
    what: 'wedding rings and bouquet',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#FBF3E6', '#F3E2C7', '#EAD2AE'], 160);
      washes(ctx, w, h, 57, ['rgba(255,255,255,0.7)', 'rgba(214,170,110,0.25)']);
      scatter(ctx, w, h, 59, ['#D6AA6E', '#FFFFFF'], 40, 'star');
      await place(ctx, w, h, [
        { name: 'bouquet', x: 0.3, y: 0.52, size: 0.5, rotate: -10 },
        { name: 'ring', x: 0.64, y: 0.6, size: 0.3, rotate: 8 },
        { name: 'two-hearts', x: 0.76, y: 0.3, size: 0.18 },
        { name: 'love-letter', x: 0.84, y: 0.74, size: 0.16, rotate: 12 },
      ]);
    },
  },
  {
    folder: 'spa-promo',
    file: 'lotus.jpg',
    width: 1000,
    height: 800,
    what: 'lotus, soap and candle',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#E3EDDF', '#C9DCC2', '#A9C7A0'], 170);
      washes(ctx, w, h, 61, ['rgba(255,255,255,0.65)']);
      floor(ctx, w, h, 0.76, ['#DCE7D5', '#C3D6BA']);
      await place(ctx, w, h, [
        { name: 'lotus', x: 0.5, y: 0.52, size: 0.54 },
        { name: 'candle', x: 0.2, y: 0.62, size: 0.26 },
        { name: 'soap', x: 0.8, y: 0.7, size: 0.2, rotate: -6 },
        { name: 'herb', x: 0.82, y: 0.34, size: 0.16, rotate: 14 },
        { name: 'cherry-blossom', x: 0.18, y: 0.26, size: 0.12 },
      ]);
    },
  },
  {
    folder: 'course-enrolment',
    file: 'study.jpg',
    width: 1000,
    height: 800,
    what: 'graduation cap, book and globe',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#DCE6FF', '#BFD0FF', '#9DB5FB'], 160);
      washes(ctx, w, h, 67, ['rgba(255,255,255,0.6)']);
      scatter(ctx, w, h, 71, ['#FFFFFF', '#2346C9'], 40, 'dot');
      await place(ctx, w, h, [
        { name: 'open-book', x: 0.5, y: 0.62, size: 0.5 },
        { name: 'graduation-cap', x: 0.5, y: 0.3, size: 0.34, rotate: -6 },
        { name: 'globe-showing-asia-australia', x: 0.18, y: 0.5, size: 0.22 },
        { name: 'pencil', x: 0.82, y: 0.46, size: 0.2, rotate: 20 },
      ]);
    },
  },
  {
    folder: 'product-slides',
    file: 'tea.jpg',
    width: 1000,
    height: 800,
    what: 'bubble tea',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#FFEAD1', '#FDD6A8', '#F8B877'], 165);
      washes(ctx, w, h, 73, ['rgba(255,255,255,0.6)']);
      floor(ctx, w, h, 0.74, ['#F6C89A', '#E9AE76']);
      await place(ctx, w, h, [
        { name: 'bubble-tea', x: 0.5, y: 0.5, size: 0.66 },
        { name: 'ice', x: 0.2, y: 0.68, size: 0.16, rotate: -10 },
        { name: 'leafy-green', x: 0.8, y: 0.66, size: 0.18, rotate: 12 },
        { name: 'sparkles', x: 0.78, y: 0.26, size: 0.14, shadow: false },
      ]);
    },
  },
  {
    folder: 'tips-carousel',
    file: 'ideas.jpg',
    width: 1000,
    height: 800,
    what: 'light bulb, pin and checklist',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#1E293B', '#0F172A', '#111827'], 170);
      washes(ctx, w, h, 79, ['rgba(250,204,21,0.3)', 'rgba(56,189,248,0.2)']);
      scatter(ctx, w, h, 83, ['#FACC15', '#FFFFFF'], 50, 'dot');
      await place(ctx, w, h, [
        { name: 'light-bulb', x: 0.5, y: 0.48, size: 0.56 },
        { name: 'memo', x: 0.2, y: 0.62, size: 0.22, rotate: -12 },
        { name: 'check-mark-button', x: 0.8, y: 0.64, size: 0.18 },
        { name: 'pushpin', x: 0.78, y: 0.26, size: 0.14, rotate: 18 },
      ]);
    },
  },
  {
    folder: 'fitness-class',
    // A whole studio, wide enough for every ratio: the equipment (the template's keep-box) sits in
    // the middle of the lower half, the calm upper wall takes the headline.
    file: 'gym.jpg',
    width: 1440,
    height: 1440,
    what: 'dark gym studio with LED strips, a dumbbell rack, kettlebells and a loaded barbell',
    // Drawn here from paths and gradients alone: the project's own work, no third-party source.
    credits: [OWN_WORK],
    draw: async (ctx, w, h) => gymStudio(ctx, w, h),
  },
  {
    folder: 'black-friday',
    file: 'deals.jpg',
    width: 1000,
    height: 800,
    what: 'shopping bags, cart and price tag',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#18181B', '#27272A', '#3F3F46'], 165);
      washes(ctx, w, h, 103, ['rgba(250,204,21,0.35)']);
      scatter(ctx, w, h, 107, ['#FACC15', '#FFFFFF'], 60, 'dash');
      await place(ctx, w, h, [
        { name: 'shopping-bags', x: 0.46, y: 0.52, size: 0.56 },
        { name: 'shopping-cart', x: 0.2, y: 0.66, size: 0.26, rotate: -8 },
        { name: 'label', x: 0.8, y: 0.3, size: 0.2, rotate: 16 },
        { name: 'money-bag', x: 0.8, y: 0.72, size: 0.2 },
      ]);
    },
  },
  {
    folder: 'delivery-promo',
    file: 'delivery.jpg',
    width: 1000,
    height: 800,
    what: 'delivery scooter with parcels',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#DFF7EC', '#BDEFD8', '#8FE3BF'], 165);
      washes(ctx, w, h, 109, ['rgba(255,255,255,0.6)']);
      floor(ctx, w, h, 0.78, ['#A7E8CB', '#86D9B5']);
      await place(ctx, w, h, [
        { name: 'motor-scooter', x: 0.48, y: 0.56, size: 0.58 },
        { name: 'package', x: 0.82, y: 0.66, size: 0.22, rotate: 8 },
        { name: 'package', x: 0.16, y: 0.7, size: 0.16, rotate: -6 },
        { name: 'delivery-truck', x: 0.8, y: 0.28, size: 0.16 },
      ]);
    },
  },
  {
    folder: 'tet-greeting',
    // A whole scene, wide enough for every ratio: the red envelopes and tangerines on the tray
    // stay whole in each crop (the template's keep-box); blossom branches, lanterns and
    // fireworks fill the rest.
    file: 'lixi.jpg',
    width: 1600,
    height: 1200,
    what: 'red envelopes, apricot and peach blossoms, lanterns and fireworks',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#5E070B', '#8E0F14', '#A3161C'], 180);
      washes(ctx, w, h, 113, ['rgba(255,190,80,0.3)']);
      glow(ctx, w, h, 0.5, 0.55, 0.38, 'rgba(255,196,92,0.55)');
      scatter(ctx, w, h * 0.5, 127, ['#FFD36B', '#FFF4D6'], 50, 'star');
      burst(ctx, w, h, 0.5, 0.14, 0.11, '#FFD36B');
      burst(ctx, w, h, 0.23, 0.08, 0.06, '#FFB4C8');
      burst(ctx, w, h, 0.79, 0.09, 0.07, '#FFE9A8');
      floor(ctx, w, h, 0.76, ['#6B0A0F', '#4A0609']);
      branch(
        ctx,
        w,
        h,
        [
          [-0.02, 0.1],
          [0.1, 0.2],
          [0.2, 0.24],
          [0.3, 0.22],
        ],
        0.012,
        '#4A2414',
      );
      branch(
        ctx,
        w,
        h,
        [
          [0.1, 0.2],
          [0.12, 0.36],
          [0.08, 0.48],
        ],
        0.008,
        '#4A2414',
      );
      branch(
        ctx,
        w,
        h,
        [
          [1.02, 0.14],
          [0.9, 0.22],
          [0.8, 0.24],
          [0.72, 0.2],
        ],
        0.012,
        '#4A2414',
      );
      branch(
        ctx,
        w,
        h,
        [
          [0.9, 0.22],
          [0.9, 0.38],
          [0.95, 0.5],
        ],
        0.008,
        '#4A2414',
      );
      hangString(ctx, w, h, 0.36, 0.06, '#FFD36B');
      hangString(ctx, w, h, 0.64, 0.1, '#FFD36B');
      await place(ctx, w, h, [
        { name: 'sparkles', x: 0.5, y: 0.3, size: 0.08, shadow: false },
        { name: 'red-paper-lantern', x: 0.36, y: 0.13, size: 0.16 },
        { name: 'red-paper-lantern', x: 0.64, y: 0.17, size: 0.14 },
        // Hoa mai (yellow apricot) on the left branch, hoa đào (peach) on the right.
        { name: 'blossom', x: 0.04, y: 0.14, size: 0.09, rotate: -10, tint: '#FFD23F' },
        { name: 'blossom', x: 0.14, y: 0.2, size: 0.11, rotate: 14, tint: '#FFD23F' },
        { name: 'blossom', x: 0.25, y: 0.22, size: 0.09, tint: '#FFD23F' },
        { name: 'blossom', x: 0.31, y: 0.26, size: 0.06, rotate: 20, tint: '#FFD23F' },
        { name: 'blossom', x: 0.12, y: 0.34, size: 0.08, rotate: -6, tint: '#FFD23F' },
        { name: 'blossom', x: 0.08, y: 0.47, size: 0.07, rotate: 12, tint: '#FFD23F' },
        { name: 'blossom', x: 0.19, y: 0.29, size: 0.05, tint: '#FFD23F' },
        { name: 'cherry-blossom', x: 0.97, y: 0.15, size: 0.09, rotate: 8 },
        { name: 'cherry-blossom', x: 0.86, y: 0.2, size: 0.11, rotate: -12 },
        { name: 'cherry-blossom', x: 0.76, y: 0.24, size: 0.08 },
        { name: 'cherry-blossom', x: 0.7, y: 0.2, size: 0.06, rotate: 16 },
        { name: 'cherry-blossom', x: 0.9, y: 0.34, size: 0.08, rotate: 10 },
        { name: 'cherry-blossom', x: 0.95, y: 0.49, size: 0.07, rotate: -8 },
        { name: 'cherry-blossom', x: 0.82, y: 0.29, size: 0.05 },
        { name: 'firecracker', x: 0.17, y: 0.66, size: 0.2, rotate: -18 },
        { name: 'tangerine', x: 0.81, y: 0.74, size: 0.16 },
        { name: 'tangerine', x: 0.9, y: 0.78, size: 0.12, rotate: 12 },
        { name: 'red-envelope', x: 0.42, y: 0.6, size: 0.44, rotate: -10 },
        { name: 'red-envelope', x: 0.6, y: 0.57, size: 0.38, rotate: 12 },
        { name: 'coin', x: 0.32, y: 0.8, size: 0.1, rotate: -8 },
        { name: 'coin', x: 0.7, y: 0.8, size: 0.12 },
      ]);
    },
  },
  {
    folder: 'job-opening',
    file: 'team.jpg',
    width: 1000,
    height: 800,
    what: 'briefcase and handshake',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#E0F2F1', '#B2DFDB', '#80CBC4'], 165);
      washes(ctx, w, h, 131, ['rgba(255,255,255,0.6)']);
      scatter(ctx, w, h, 137, ['#00796B', '#FFFFFF'], 40, 'dot');
      await place(ctx, w, h, [
        { name: 'handshake', x: 0.5, y: 0.5, size: 0.5 },
        { name: 'briefcase', x: 0.18, y: 0.66, size: 0.24, rotate: -8 },
        { name: 'bar-chart', x: 0.82, y: 0.3, size: 0.18 },
        { name: 'light-bulb', x: 0.8, y: 0.72, size: 0.16, rotate: 10 },
      ]);
    },
  },
  {
    folder: 'book-launch',
    file: 'book.jpg',
    width: 1000,
    height: 800,
    what: 'new book with bookmark and sparkles',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#2E1065', '#4C1D95', '#6D28D9'], 165);
      washes(ctx, w, h, 139, ['rgba(244,114,182,0.35)', 'rgba(250,204,21,0.25)']);
      scatter(ctx, w, h, 149, ['#F9A8D4', '#FFFFFF'], 50, 'star');
      await place(ctx, w, h, [
        { name: 'closed-book', x: 0.5, y: 0.52, size: 0.54, rotate: -8 },
        { name: 'bookmark', x: 0.8, y: 0.66, size: 0.18, rotate: 14 },
        { name: 'glowing-star', x: 0.2, y: 0.3, size: 0.14 },
        { name: 'sparkles', x: 0.78, y: 0.26, size: 0.16 },
        { name: 'hot-beverage', x: 0.2, y: 0.7, size: 0.18 },
      ]);
    },
  },
  {
    folder: 'customer-review',
    // Wide enough for the landscape and story crops (the vase and the stool fill them), the
    // dress centred in 30 % of the width so the narrow portrait column keeps it whole.
    file: 'product.jpg',
    width: 1600,
    height: 1350,
    what: 'silk áo dài on a wooden hanger in a boutique niche, peach blossom, folded silks',
    credits: [OWN_WORK],
    draw: async (ctx, w, h) => silkAoDai(ctx, w, h),
  },
  ...[5, 4].map((filled): Art => ({
    folder: 'customer-review',
    file: `stars-${filled}.png`,
    width: 400,
    height: 72,
    what: `${filled} of 5 stars`,
    credits: [OWN_WORK],
    draw: async (ctx, w, h) => starRow(ctx, w, h, filled),
  })),
];

async function save(art: Art): Promise<number> {
  const canvas = createCanvas(art.width, art.height);
  await art.draw(canvas.getContext('2d'), art.width, art.height);
  const ext = path.extname(art.file);
  const bytes =
    ext === '.png'
      ? canvas.toBuffer('image/png')
      : ext === '.webp'
        ? canvas.toBuffer('image/webp', 84)
        : canvas.toBuffer('image/jpeg', art.quality ?? 86);
  const dir = path.join(catalogDir, art.folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, art.file), bytes);
  console.log(`${art.folder}/${art.file}  ${(bytes.length / 1024).toFixed(1)} KB`);
  return bytes.length;
}

/** CREDITS.md of one template folder: each drawn file with its sources, then licence texts. */
function credits(folder: string, arts: Art[]): string {
  const ownOnly = arts.every((a) => a.credits.every((c) => c === OWN_WORK));
  const lines = [
    '# Credits of this template’s artwork',
    '',
    ...(ownOnly
      ? [
          'Drawn by `scripts/generate-catalog-art.ts` with the canvas 2D API alone; no third-party',
          'work is involved. The drawings are the project’s own (CC0 1.0). Brand names and people in',
          'the sample values are invented.',
        ]
      : [
          'Drawn by `scripts/generate-catalog-art.ts` from the works below; the compositions and',
          'backgrounds are the project’s own (CC0 1.0). Brand names and people in the sample values are',
          'invented.',
        ]),
    '',
    '| File | Shows | Drawn from | Author | Licence |',
    '|---|---|---|---|---|',
  ];
  for (const art of arts) {
    for (const c of art.credits) {
      lines.push(
        `| \`${art.file}\` | ${art.what} | ${c.work}, ${c.source} | ${c.author} | [${c.licence}](${c.licenceUrl}) |`,
      );
    }
  }
  if (arts.some((a) => a.credits.includes(FLUENT))) {
    lines.push('', '## Fluent Emoji licence', '', '```text', MIT_TEXT, '```');
  }
  if (arts.some((a) => a.credits.some((c) => c.licence.startsWith('CC BY')))) {
    lines.push(
      '',
      'CC BY 4.0 works are used with the attribution above; changes: drawn at this size on a',
      'painted background.',
    );
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  const chosen = ARTS.filter((a) => only.size === 0 || only.has(a.folder));
  for (const art of chosen) {
    const size = await save(art);
    if (size > 150 * 1024) throw new Error(`${art.folder}/${art.file} is over 150 KB`);
  }
  for (const folder of new Set(chosen.map((a) => a.folder))) {
    const arts = ARTS.filter((a) => a.folder === folder);
    writeFileSync(path.join(catalogDir, folder, 'CREDITS.md'), credits(folder, arts));
  }
}

await main();
