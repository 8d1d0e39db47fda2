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
 * Microsoft's Fluent Emoji (MIT), composed on painted backgrounds. Every file is drawn for one
 * template only, and each template folder gets a CREDITS.md naming the source and licence of
 * its files (it travels with a fork and a pack). Same run, same bytes.
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
  const g = ctx.createLinearGradient(w / 2 - dx, h / 2 - dy, w / 2 + dx, h / 2 + dy);
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
}

/** Soft light and colour washes, so a flat gradient reads as a lit surface. */
function washes(ctx: Ctx, w: number, h: number, seed: number, colours: string[]) {
  const rand = rng(seed);
  ctx.save();
  for (const colour of colours) {
    const [x, y, r] = [rand() * w, rand() * h, (0.3 + rand() * 0.3) * Math.max(w, h)];
    const g = ctx.createRadialGradient(x, y, 0, x, y, r);
    g.addColorStop(0, colour);
    g.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
  }
  ctx.restore();
}

/** Scattered small marks (confetti, stars, snow): seeded, kept away from the centre. */
function scatter(
  ctx: Ctx,
  w: number,
  h: number,
  seed: number,
  colours: string[],
  count: number,
  shape: 'dot' | 'dash' | 'star',
) {
  const rand = rng(seed);
  ctx.save();
  for (let i = 0; i < count; i++) {
    const [x, y] = [rand() * w, rand() * h];
    const s = (0.004 + rand() * 0.01) * Math.max(w, h);
    ctx.fillStyle = colours[i % colours.length]!;
    ctx.globalAlpha = 0.45 + rand() * 0.5;
    ctx.beginPath();
    if (shape === 'dot') ctx.arc(x, y, s, 0, Math.PI * 2);
    else if (shape === 'dash') {
      ctx.translate(x, y);
      ctx.rotate(rand() * Math.PI);
      ctx.roundRect(-s * 1.8, -s / 2, s * 3.6, s, s / 2);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    } else {
      for (let k = 0; k < 8; k++) {
        const r = k % 2 === 0 ? s * 1.6 : s * 0.45;
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
  const g = ctx.createLinearGradient(0, from * h, 0, h);
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c));
  ctx.fillStyle = g;
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
  const [cx, cy, radius] = [x * w, y * h, r * Math.max(w, h)];
  const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, radius);
  g.addColorStop(0, colour);
  g.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.save();
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  ctx.restore();
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
  const [x0, y0, x1, y1] = [from[0] * w, from[1] * h, to[0] * w, to[1] * h];
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2 + sag * h];
  const at = (t: number): [number, number] => [
    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1,
    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1,
  ];
  ctx.save();
  ctx.strokeStyle = 'rgba(120, 60, 80, 0.55)';
  ctx.lineWidth = Math.max(2, w * 0.002);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.quadraticCurveTo(cx, cy, x1, y1);
  ctx.stroke();
  const size = Math.hypot(x1 - x0, y1 - y0) / flags;
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

// --- Outputs --------------------------------------------------------------------------------------

interface Art {
  folder: string;
  file: string;
  width: number;
  height: number;
  what: string;
  credits: Credit[];
  draw: (ctx: Ctx, w: number, h: number) => Promise<void>;
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
    file: 'festive.jpg',
    width: 1600,
    height: 1000,
    what: 'winter holiday scene',
    // Wide (16:10), so that wide and tall frames alike are filled without shrinking the scene.
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#0F3D2E', '#14532D', '#0B2A20'], 180);
      washes(ctx, w, h, 13, ['rgba(253,230,138,0.35)', 'rgba(185,28,28,0.25)']);
      scatter(ctx, w, h, 17, ['#FFFFFF', '#E2F3EA'], 110, 'dot');
      floor(ctx, w, h, 0.78, ['#EAF4F0', '#CFE3DA']);
      await place(ctx, w, h, [
        { name: 'christmas-tree', x: 0.5, y: 0.52, size: 0.5 },
        { name: 'wrapped-gift', x: 0.356, y: 0.74, size: 0.2 },
        { name: 'wrapped-gift', x: 0.65, y: 0.76, size: 0.16, rotate: 6 },
        { name: 'snowflake', x: 0.3, y: 0.26, size: 0.12, shadow: false },
        { name: 'snowflake', x: 0.706, y: 0.3, size: 0.09, shadow: false },
        { name: 'glowing-star', x: 0.5, y: 0.17, size: 0.12 },
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
    what: 'house with garden',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#8FD3FE', '#CDEBFF', '#F5FBFF'], 180);
      washes(ctx, w, h, 29, ['rgba(255,246,200,0.7)']);
      floor(ctx, w, h, 0.7, ['#7CC46A', '#4E9A45']);
      await place(ctx, w, h, [
        { name: 'cloud', x: 0.2, y: 0.16, size: 0.18, shadow: false },
        { name: 'cloud', x: 0.8, y: 0.12, size: 0.14, shadow: false },
        { name: 'evergreen-tree', x: 0.14, y: 0.56, size: 0.36 },
        { name: 'deciduous-tree', x: 0.87, y: 0.55, size: 0.38 },
        { name: 'house-with-garden', x: 0.5, y: 0.5, size: 0.78 },
        { name: 'potted-plant', x: 0.26, y: 0.82, size: 0.1 },
      ]);
    },
  },
  {
    folder: 'before-after',
    // Wide, so it fills a wide frame as well as a tall one (cropped at the sides) instead of being
    // shrunk to keep the house whole, with the frame's background showing beside it.
    file: 'before.jpg',
    width: 1600,
    height: 900,
    what: 'run-down house',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#A7B1BC', '#C9CFD6', '#DADDE1'], 180);
      floor(ctx, w, h, 0.72, ['#9C8F6E', '#7E7357']);
      await place(ctx, w, h, [
        { name: 'cloud', x: 0.66, y: 0.16, size: 0.22, shadow: false },
        { name: 'derelict-house', x: 0.5, y: 0.54, size: 0.66 },
        { name: 'fallen-leaf', x: 0.35, y: 0.84, size: 0.1, rotate: 20 },
        { name: 'fallen-leaf', x: 0.75, y: 0.9, size: 0.08, rotate: -35 },
      ]);
    },
  },
  {
    folder: 'before-after',
    file: 'after.jpg',
    width: 1600,
    height: 900,
    what: 'renovated house',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#7CC7F8', '#BFE6FF', '#EEF8FF'], 180);
      washes(ctx, w, h, 31, ['rgba(255,243,180,0.7)']);
      floor(ctx, w, h, 0.72, ['#6CC25E', '#3F8F3A']);
      await place(ctx, w, h, [
        { name: 'sun', x: 0.68, y: 0.16, size: 0.18, shadow: false },
        { name: 'house', x: 0.5, y: 0.54, size: 0.66 },
        { name: 'tulip', x: 0.33, y: 0.8, size: 0.12 },
        { name: 'sunflower', x: 0.68, y: 0.78, size: 0.14 },
        { name: 'tulip', x: 0.8, y: 0.84, size: 0.1 },
      ]);
    },
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
    file: 'gym.jpg',
    width: 1000,
    height: 800,
    what: 'weights, stopwatch and water',
    credits: [FLUENT],
    draw: async (ctx, w, h) => {
      paintBackground(ctx, w, h, ['#0B1120', '#111827', '#1F2937'], 160);
      washes(ctx, w, h, 97, ['rgba(34,211,238,0.35)', 'rgba(168,85,247,0.2)']);
      scatter(ctx, w, h, 101, ['#22D3EE', '#FFFFFF'], 40, 'dash');
      await place(ctx, w, h, [
        { name: 'person-lifting-weights', x: 0.5, y: 0.52, size: 0.6 },
        { name: 'stopwatch', x: 0.18, y: 0.62, size: 0.2, rotate: -10 },
        { name: 'flexed-biceps', x: 0.82, y: 0.34, size: 0.18, rotate: 10 },
        { name: 'water-wave', x: 0.82, y: 0.72, size: 0.16 },
      ]);
    },
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
    // Taller than wide: the split layouts frame it in a narrow column, which a square picture
    // could fill only by being shrunk, the column's background showing above and below it.
    file: 'reviewer.jpg',
    width: 600,
    height: 900,
    what: 'reviewer portrait',
    ...portrait(
      avatars.personas as AvatarStyle,
      'Ngoc Anh',
      {
        mouth: ['bigSmile'],
        eyes: ['happy'],
        hair: ['bobBangs'],
        hairColor: ['362c47'],
        facialHairProbability: 0,
        skinColor: ['e5a07e'],
        clothingColor: ['e24553'],
      },
      ['#FDE2E4', '#F8B4BC'],
    ),
  },
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
        : canvas.toBuffer('image/jpeg', 86);
  const dir = path.join(catalogDir, art.folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, art.file), bytes);
  console.log(`${art.folder}/${art.file}  ${(bytes.length / 1024).toFixed(1)} KB`);
  return bytes.length;
}

/** CREDITS.md of one template folder: each drawn file with its sources, then licence texts. */
function credits(folder: string, arts: Art[]): string {
  const lines = [
    '# Credits of this template’s artwork',
    '',
    'Drawn by `scripts/generate-catalog-art.ts` from the works below; the compositions and',
    'backgrounds are the project’s own (CC0 1.0). Brand names and people in the sample values are',
    'invented.',
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
