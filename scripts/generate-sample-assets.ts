import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Draws the sample photos, avatars, logos and decorations of the built-in templates. Everything is
 * procedural (gradients and shapes, seeded randomness), so the catalog ships only images the
 * project owns and the same run writes the same bytes. Run: npx tsx scripts/generate-sample-assets.ts
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogDir = path.join(repoRoot, 'templates', 'catalog');
const fontsDir = path.join(repoRoot, 'templates', 'fonts');

GlobalFonts.registerFromPath(
  path.join(fontsDir, 'be-vietnam-pro', 'BeVietnamPro_800ExtraBold.ttf'),
  'Be Vietnam Pro',
);
GlobalFonts.registerFromPath(
  path.join(fontsDir, 'noto-serif', 'NotoSerif_700Bold.ttf'),
  'Noto Serif',
);
GlobalFonts.registerFromPath(
  path.join(fontsDir, 'montserrat', 'Montserrat_800ExtraBold.ttf'),
  'Montserrat',
);

type Ctx = SKRSContext2D;

/** Small deterministic PRNG (mulberry32): the same seed draws the same picture. */
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

interface Output {
  folder: string;
  file: string;
  width: number;
  height: number;
  draw: (ctx: Ctx, w: number, h: number) => void;
}

function save({ folder, file, width, height, draw }: Output): void {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  draw(ctx, width, height);
  const dir = path.join(catalogDir, folder);
  mkdirSync(dir, { recursive: true });
  const ext = path.extname(file);
  const bytes =
    ext === '.png'
      ? canvas.toBuffer('image/png')
      : ext === '.webp'
        ? canvas.toBuffer('image/webp', 82)
        : canvas.toBuffer('image/jpeg', 84);
  writeFileSync(path.join(dir, file), bytes);
  console.log(`${folder}/${file}  ${(bytes.length / 1024).toFixed(1)} KB`);
}

function linear(ctx: Ctx, x0: number, y0: number, x1: number, y1: number, stops: string[]) {
  const g = ctx.createLinearGradient(x0, y0, x1, y1);
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c));
  return g;
}

function radial(ctx: Ctx, x: number, y: number, r: number, stops: string[]) {
  const g = ctx.createRadialGradient(x, y, 0, x, y, r);
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c));
  return g;
}

function roundRect(ctx: Ctx, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** Soft blurred colour blobs: the base of every "studio" background. */
function blobs(ctx: Ctx, w: number, h: number, seed: number, colours: string[], count = 6) {
  const rand = rng(seed);
  ctx.save();
  ctx.filter = `blur(${Math.round(Math.min(w, h) / 9)}px)`;
  for (let i = 0; i < count; i++) {
    ctx.fillStyle = colours[i % colours.length] ?? '#ffffff';
    ctx.globalAlpha = 0.55 + rand() * 0.35;
    ctx.beginPath();
    ctx.arc(rand() * w, rand() * h, (0.18 + rand() * 0.22) * Math.max(w, h), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** A soft contact shadow under an object standing at (cx, y). */
function contactShadow(ctx: Ctx, cx: number, y: number, rx: number, alpha = 0.28) {
  ctx.save();
  ctx.filter = 'blur(18px)';
  ctx.fillStyle = `rgba(40, 20, 10, ${alpha})`;
  ctx.beginPath();
  ctx.ellipse(cx, y, rx, rx * 0.16, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

// --- Product shots ------------------------------------------------------------------------------

function leaf(ctx: Ctx, x: number, y: number, len: number, angle: number, colour: string) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.quadraticCurveTo(len * 0.5, -len * 0.35, len, 0);
  ctx.quadraticCurveTo(len * 0.5, len * 0.35, 0, 0);
  ctx.fill();
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.lineTo(len * 0.9, 0);
  ctx.stroke();
  ctx.restore();
}

/** A red Tết gift box with a gold ribbon. */
function giftShot(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = linear(ctx, 0, 0, 0, h, ['#FBE9C8', '#F5D49C']);
  ctx.fillRect(0, 0, w, h);
  blobs(ctx, w, h, 23, ['#FFF6E0', '#F3C77A', '#FCE3B0'], 5);
  const cx = w * 0.5;
  const base = h * 0.8;
  contactShadow(ctx, cx, base, 300, 0.35);
  const bw = 480;
  const bh = 360;
  const bx = cx - bw / 2;
  const by = base - bh;
  ctx.fillStyle = linear(ctx, bx, 0, bx + bw, 0, ['#8E0F14', '#C8232B', '#A3161C']);
  ctx.fillRect(bx, by, bw, bh);
  // Lid.
  ctx.fillStyle = linear(ctx, bx, 0, bx + bw, 0, ['#A3161C', '#DA2F36', '#B31B22']);
  ctx.fillRect(bx - 24, by - 90, bw + 48, 100);
  // Ribbon.
  const gold = linear(ctx, 0, by - 90, 0, base, ['#FFE08A', '#D4A437', '#F6CF6B']);
  ctx.fillStyle = gold;
  ctx.fillRect(cx - 34, by - 90, 68, bh + 90);
  ctx.fillRect(bx - 24, by - 52, bw + 48, 40);
  // Bow.
  ctx.save();
  ctx.translate(cx, by - 90);
  for (const dir of [-1, 1]) {
    ctx.beginPath();
    ctx.moveTo(0, 0);
    ctx.bezierCurveTo(dir * 60, -150, dir * 190, -110, dir * 150, -20);
    ctx.bezierCurveTo(dir * 120, 20, dir * 40, 10, 0, 0);
    ctx.fillStyle = gold;
    ctx.fill();
  }
  ctx.beginPath();
  ctx.arc(0, -8, 30, 0, Math.PI * 2);
  ctx.fillStyle = '#E8B84E';
  ctx.fill();
  ctx.restore();
  // A gold pattern on the box.
  ctx.strokeStyle = 'rgba(255, 215, 120, 0.35)';
  ctx.lineWidth = 3;
  for (let i = 0; i < 3; i++) {
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.arc(cx + side * 150, by + 110 + i * 90, 28, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
  // Mai blossoms around.
  blossom(ctx, cx - 330, base - 40, 44, 0.2);
  blossom(ctx, cx + 340, base - 70, 36, 1.1);
  blossom(ctx, cx + 290, base + 20, 26, 0.5);
}

/** A five-petal hoa mai (yellow apricot blossom). */
function blossom(ctx: Ctx, x: number, y: number, r: number, rot: number) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(rot);
  for (let i = 0; i < 5; i++) {
    ctx.save();
    ctx.rotate((i * Math.PI * 2) / 5);
    ctx.beginPath();
    ctx.ellipse(0, -r * 0.62, r * 0.46, r * 0.62, 0, 0, Math.PI * 2);
    ctx.fillStyle = radial(ctx, 0, -r * 0.3, r * 1.1, ['#FFE873', '#FFC928', '#F2A900']);
    ctx.fill();
    ctx.restore();
  }
  ctx.beginPath();
  ctx.arc(0, 0, r * 0.26, 0, Math.PI * 2);
  ctx.fillStyle = '#C26A00';
  ctx.fill();
  for (let i = 0; i < 10; i++) {
    const a = (i * Math.PI * 2) / 10;
    ctx.beginPath();
    ctx.arc(Math.cos(a) * r * 0.36, Math.sin(a) * r * 0.36, r * 0.06, 0, Math.PI * 2);
    ctx.fillStyle = '#8A3E00';
    ctx.fill();
  }
  ctx.restore();
}

/** A transparent hoa mai branch for corners of Tết designs. */
function maiBranch(ctx: Ctx, w: number, h: number) {
  ctx.strokeStyle = '#5B3418';
  ctx.lineCap = 'round';
  const branch = (pts: number[][], width: number) => {
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(pts[0]![0]!, pts[0]![1]!);
    for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i]![0]!, pts[i]![1]!);
    ctx.stroke();
  };
  branch(
    [
      [w, 30],
      [w * 0.72, 90],
      [w * 0.45, 120],
      [w * 0.12, 230],
    ],
    14,
  );
  branch(
    [
      [w * 0.72, 90],
      [w * 0.6, 260],
      [w * 0.5, 380],
    ],
    9,
  );
  branch(
    [
      [w * 0.45, 120],
      [w * 0.3, 40],
    ],
    7,
  );
  const rand = rng(7);
  const spots: Array<[number, number, number]> = [
    [w * 0.12, 230, 40],
    [w * 0.3, 40, 34],
    [w * 0.5, 380, 38],
    [w * 0.58, 120, 44],
    [w * 0.82, 60, 36],
    [w * 0.66, 220, 30],
    [w * 0.26, 170, 26],
    [w * 0.4, 90, 22],
    [w * 0.92, 120, 24],
  ];
  for (const [x, y, r] of spots) blossom(ctx, x, y, r, rand() * 2);
  // Buds.
  for (const [x, y] of [
    [w * 0.2, 205],
    [w * 0.55, 330],
    [w * 0.76, 150],
  ] as const) {
    ctx.beginPath();
    ctx.arc(x, y, 9, 0, Math.PI * 2);
    ctx.fillStyle = '#E9B21F';
    ctx.fill();
  }
  void h;
}

/** A bouquet of pink flowers on transparency, for greeting cards. */
function bouquet(ctx: Ctx, w: number, h: number) {
  const rand = rng(83);
  // Stems and leaves.
  ctx.strokeStyle = '#4F7A45';
  ctx.lineWidth = 8;
  ctx.lineCap = 'round';
  for (let i = 0; i < 7; i++) {
    ctx.beginPath();
    ctx.moveTo(w * 0.5, h * 0.98);
    ctx.quadraticCurveTo(w * (0.3 + rand() * 0.4), h * 0.7, w * (0.18 + i * 0.11), h * 0.36);
    ctx.stroke();
  }
  for (let i = 0; i < 8; i++) {
    leaf(
      ctx,
      w * (0.2 + rand() * 0.6),
      h * (0.5 + rand() * 0.3),
      90 + rand() * 40,
      rand() * 6,
      i % 2 ? '#6E9B5E' : '#5B8A4E',
    );
  }
  const palette = [
    ['#FFD9E2', '#F48FB1', '#C2185B'],
    ['#FFE7EC', '#F8A5BD', '#D94F7A'],
    ['#FFF1E6', '#F9B98F', '#E0703A'],
    ['#FFFFFF', '#F7D1DC', '#E38AA6'],
  ];
  const heads: Array<[number, number, number]> = [
    [0.5, 0.28, 110],
    [0.28, 0.36, 90],
    [0.72, 0.34, 95],
    [0.38, 0.16, 80],
    [0.64, 0.14, 78],
    [0.18, 0.2, 60],
    [0.84, 0.2, 62],
  ];
  heads.forEach(([fx, fy, r], i) => {
    const colours = palette[i % palette.length]!;
    const x = w * fx;
    const y = h * fy;
    ctx.save();
    ctx.shadowColor = 'rgba(120, 20, 60, 0.25)';
    ctx.shadowBlur = 20;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = radial(ctx, x, y, r, [colours[2]!, colours[1]!, colours[0]!]);
    ctx.fill();
    ctx.restore();
    // Rose-like swirl of petals.
    for (let k = 0; k < 4; k++) {
      ctx.beginPath();
      ctx.arc(
        x + Math.cos(k * 2.1) * r * 0.12,
        y + Math.sin(k * 2.1) * r * 0.12,
        r * (0.75 - k * 0.17),
        Math.PI * (0.1 + k * 0.5),
        Math.PI * (1.4 + k * 0.5),
      );
      ctx.strokeStyle = `rgba(255, 255, 255, ${0.55 - k * 0.08})`;
      ctx.lineWidth = r * 0.07;
      ctx.stroke();
    }
  });
  // Baby's breath.
  for (let i = 0; i < 60; i++) {
    ctx.beginPath();
    ctx.arc(w * (0.1 + rand() * 0.8), h * (0.05 + rand() * 0.45), 5 + rand() * 5, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.95)';
    ctx.fill();
  }
}

/** A smartphone on a vivid gradient for an 11.11 flash sale. */
function phoneShot(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = linear(ctx, 0, 0, w, h, ['#2A0E61', '#5B1FA6', '#C2277F']);
  ctx.fillRect(0, 0, w, h);
  blobs(ctx, w, h, 47, ['#FF5FA2', '#7B3FF2', '#FF9F5A'], 5);
  const cx = w * 0.5;
  const cy = h * 0.52;
  const pw = 380;
  const ph = 780;
  ctx.save();
  ctx.translate(cx, cy);
  ctx.rotate(-0.12);
  ctx.save();
  ctx.shadowColor = 'rgba(10, 0, 30, 0.55)';
  ctx.shadowBlur = 70;
  ctx.shadowOffsetX = 30;
  ctx.shadowOffsetY = 40;
  roundRect(ctx, -pw / 2, -ph / 2, pw, ph, 64);
  ctx.fillStyle = '#15121C';
  ctx.fill();
  ctx.restore();
  roundRect(ctx, -pw / 2 + 14, -ph / 2 + 14, pw - 28, ph - 28, 52);
  ctx.fillStyle = linear(ctx, 0, -ph / 2, 0, ph / 2, ['#FFB36B', '#FF5F8F', '#7B3FF2', '#2C47D9']);
  ctx.fill();
  // Wallpaper waves.
  ctx.save();
  roundRect(ctx, -pw / 2 + 14, -ph / 2 + 14, pw - 28, ph - 28, 52);
  ctx.clip();
  for (let i = 0; i < 5; i++) {
    ctx.beginPath();
    ctx.moveTo(-pw, -100 + i * 90);
    ctx.bezierCurveTo(-100, -250 + i * 90, 100, 80 + i * 90, pw, -60 + i * 90);
    ctx.strokeStyle = `rgba(255, 255, 255, ${0.12 + i * 0.04})`;
    ctx.lineWidth = 22;
    ctx.stroke();
  }
  ctx.restore();
  roundRect(ctx, -60, -ph / 2 + 32, 120, 32, 16);
  ctx.fillStyle = '#0C0A10';
  ctx.fill();
  ctx.restore();
  // Floating spheres.
  const rand = rng(5);
  for (let i = 0; i < 6; i++) {
    const x = rand() * w;
    const y = rand() * h;
    const r = 20 + rand() * 50;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = radial(ctx, x - r * 0.3, y - r * 0.3, r * 1.4, [
      '#FFE2F0',
      '#FF6FAE',
      '#8A1F7A',
    ]);
    ctx.fill();
  }
}

/** Shapes of a bright office: desks and plants, blurred like a shallow depth-of-field photo. */
function officeShot(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = linear(ctx, 0, 0, 0, h, ['#E9F1F7', '#D7E4EE', '#C7D6E2']);
  ctx.fillRect(0, 0, w, h);
  ctx.save();
  ctx.filter = 'blur(14px)';
  // Windows.
  for (let i = 0; i < 4; i++) {
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillRect(60 + i * 280, 80, 220, 420);
  }
  // Desk.
  ctx.fillStyle = '#B98B5E';
  ctx.fillRect(0, h * 0.68, w, 40);
  ctx.fillStyle = '#9BB0C0';
  ctx.fillRect(0, h * 0.7, w, h * 0.3);
  // Laptops and monitors.
  ctx.fillStyle = '#2F3A46';
  ctx.fillRect(w * 0.12, h * 0.46, 260, 160);
  ctx.fillRect(w * 0.6, h * 0.44, 300, 180);
  // Plants.
  for (const [x, s] of [
    [w * 0.45, 1],
    [w * 0.9, 1.3],
  ] as const) {
    ctx.fillStyle = '#3E7D4F';
    ctx.beginPath();
    ctx.arc(x, h * 0.52, 80 * s, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#5FA36C';
    ctx.beginPath();
    ctx.arc(x - 40, h * 0.48, 55 * s, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#E8E2D6';
    ctx.fillRect(x - 40 * s, h * 0.58, 80 * s, 80 * s);
  }
  ctx.restore();
}

// --- Logos and marks ----------------------------------------------------------------------------

/** A simple logo: a coloured mark with a letter, on transparency. */
function logoMark(
  fill: string,
  letter: string,
  ink: string,
  shape: 'circle' | 'squircle' | 'drop',
) {
  return (ctx: Ctx, w: number, h: number) => {
    const s = Math.min(w, h);
    ctx.fillStyle = fill;
    ctx.beginPath();
    if (shape === 'circle') ctx.arc(w / 2, h / 2, s * 0.48, 0, Math.PI * 2);
    else if (shape === 'squircle') ctx.roundRect(s * 0.02, s * 0.02, s * 0.96, s * 0.96, s * 0.28);
    else {
      ctx.moveTo(w / 2, s * 0.02);
      ctx.bezierCurveTo(w * 0.92, s * 0.42, w * 0.98, s * 0.98, w / 2, s * 0.98);
      ctx.bezierCurveTo(w * 0.02, s * 0.98, w * 0.08, s * 0.42, w / 2, s * 0.02);
    }
    ctx.fill();
    ctx.fillStyle = ink;
    ctx.font = `800 ${Math.round(s * 0.5)}px "Be Vietnam Pro"`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(letter, w / 2, h * (shape === 'drop' ? 0.62 : 0.54));
  };
}

/** A wordmark logo (mark + name) on transparency, for wide logo slots. */
function wordmark(
  fill: string,
  letter: string,
  name: string,
  ink: string,
  font = 'Be Vietnam Pro',
) {
  return (ctx: Ctx, w: number, h: number) => {
    logoMark(fill, letter, '#FFFFFF', 'circle')(ctx, h, h);
    ctx.fillStyle = ink;
    // Largest size up to half the height at which the name fits beside the mark.
    let size = Math.round(h * 0.5);
    do ctx.font = `800 ${size--}px "${font}"`;
    while (ctx.measureText(name).width > w - h * 1.22 && size > 8);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillText(name, h * 1.18, h * 0.54);
  };
}

/** A row of five stars, `filled` of them in `colour` (gold by default), on transparency (ratings). */
function stars(filled: number, colour = '#F5A623') {
  return (ctx: Ctx, w: number, h: number) => {
    const r = h * 0.48;
    const gap = (w - 10 * r) / 4;
    for (let i = 0; i < 5; i++) {
      const cx = r + i * (2 * r + gap);
      const cy = h / 2;
      ctx.beginPath();
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 === 0 ? r : r * 0.45;
        ctx.lineTo(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr * 1.02);
      }
      ctx.closePath();
      ctx.fillStyle = i < filled ? colour : '#D9D4CC';
      ctx.fill();
    }
  };
}

// --- Catalog extension: Trung Thu, bảng giá, giấy khen, nhà đất, podcast -----------------------

/** A bowl of noodle soup from above on a dark wooden table (menus). */
function noodleBowl(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = linear(ctx, 0, 0, w, h, ['#3B2A20', '#2A1D16']);
  ctx.fillRect(0, 0, w, h);
  // Strokes and blur scale with the size, so the 2160 px print version looks like the 900 px one.
  const k = Math.min(w, h) / 900;
  const rand = rng(141);
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.18)';
  for (let i = 0; i < 30; i++) {
    ctx.lineWidth = (1 + rand() * 3) * k;
    const x = rand() * w;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x + (rand() * 30 - 15) * k, h);
    ctx.stroke();
  }
  const cx = w * 0.5;
  const cy = h * 0.52;
  const R = Math.min(w, h) * 0.38;
  ctx.save();
  ctx.shadowColor = 'rgba(0, 0, 0, 0.55)';
  ctx.shadowBlur = 60 * k;
  ctx.fillStyle = '#F3EEE6';
  ctx.beginPath();
  ctx.arc(cx, cy, R, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
  ctx.strokeStyle = '#2D5DA8';
  ctx.lineWidth = R * 0.03;
  ctx.beginPath();
  ctx.arc(cx, cy, R * 0.93, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = radial(ctx, cx, cy, R * 0.8, ['#E8B866', '#C98A3A', '#A8682A']);
  ctx.beginPath();
  ctx.arc(cx, cy, R * 0.8, 0, Math.PI * 2);
  ctx.fill();
  // Noodles, beef slices, herbs, lime.
  ctx.strokeStyle = 'rgba(255, 248, 230, 0.85)';
  ctx.lineWidth = 4 * k;
  for (let i = 0; i < 18; i++) {
    ctx.beginPath();
    const a = rand() * Math.PI * 2;
    ctx.arc(
      cx + Math.cos(a) * R * 0.3,
      cy + Math.sin(a) * R * 0.3,
      R * (0.15 + rand() * 0.2),
      a,
      a + 2,
    );
    ctx.stroke();
  }
  for (let i = 0; i < 6; i++) {
    const a = (i / 6) * Math.PI * 2 + 0.3;
    ctx.fillStyle = i % 2 ? '#8C4A3C' : '#A55D4B';
    ctx.beginPath();
    ctx.ellipse(
      cx + Math.cos(a) * R * 0.42,
      cy + Math.sin(a) * R * 0.42,
      R * 0.16,
      R * 0.09,
      a,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }
  for (let i = 0; i < 14; i++) {
    leaf(
      ctx,
      cx + (rand() - 0.5) * R * 0.9,
      cy + (rand() - 0.5) * R * 0.9,
      R * 0.14,
      rand() * 6,
      i % 2 ? '#3E8E41' : '#5DAA4E',
    );
  }
  ctx.fillStyle = '#9BCB4A';
  ctx.beginPath();
  ctx.arc(cx + R * 1.05, cy + R * 0.75, R * 0.16, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#E4F2B8';
  ctx.beginPath();
  ctx.arc(cx + R * 1.05, cy + R * 0.75, R * 0.12, 0, Math.PI * 2);
  ctx.fill();
}

/** A golden award seal with ribbons on transparency (certificates). */
function awardSeal(ctx: Ctx, w: number, h: number) {
  const cx = w / 2;
  const cy = h * 0.4;
  const r = w * 0.36;
  ctx.fillStyle = '#B3261E';
  for (const dir of [-1, 1]) {
    ctx.beginPath();
    ctx.moveTo(cx + dir * r * 0.2, cy);
    ctx.lineTo(cx + dir * r * 0.75, h * 0.98);
    ctx.lineTo(cx + dir * r * 0.45, h * 0.9);
    ctx.lineTo(cx + dir * r * 0.25, h * 0.98);
    ctx.lineTo(cx - dir * r * 0.2, cy);
    ctx.fill();
  }
  ctx.beginPath();
  for (let k = 0; k < 48; k++) {
    const a = (k * Math.PI) / 24;
    const rr = k % 2 === 0 ? r : r * 0.9;
    ctx.lineTo(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr);
  }
  ctx.closePath();
  ctx.fillStyle = linear(ctx, cx - r, cy - r, cx + r, cy + r, ['#F6D77A', '#D4A537', '#A8791C']);
  ctx.fill();
  ctx.strokeStyle = '#FFF3C4';
  ctx.lineWidth = r * 0.04;
  ctx.beginPath();
  ctx.arc(cx, cy, r * 0.7, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = '#FFF3C4';
  ctx.beginPath();
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const rr = k % 2 === 0 ? r * 0.42 : r * 0.18;
    ctx.lineTo(cx + Math.cos(a) * rr, cy + Math.sin(a) * rr);
  }
  ctx.fill();
}

/** Three paper shopping bags with rope handles on a warm backdrop (shopping festivals). */
function shoppingBags(ctx: Ctx, w: number, h: number) {
  ctx.fillStyle = linear(ctx, 0, 0, w, h, ['#FFE8D6', '#FFD0B0']);
  ctx.fillRect(0, 0, w, h);
  blobs(ctx, w, h, 191, ['#FFFFFF', '#FFC09A', '#FFE2CC'], 4);
  const bags: Array<[number, number, number, number, string, string]> = [
    [0.16, 0.34, 0.3, 0.42, '#E4572E', '#B8401E'],
    [0.52, 0.26, 0.32, 0.5, '#2E4057', '#1D2A3A'],
    [0.38, 0.46, 0.26, 0.34, '#F3A712', '#C98905'],
  ];
  for (const [bx, by, bw, bh, fill, dark] of bags) {
    const [x, y, ww, hh] = [bx * w, by * h, bw * w, bh * h];
    contactShadow(ctx, x + ww / 2, y + hh, ww * 0.55, 0.3);
    ctx.strokeStyle = dark;
    ctx.lineWidth = ww * 0.035;
    ctx.beginPath();
    ctx.arc(x + ww / 2, y, ww * 0.22, Math.PI, 0);
    ctx.stroke();
    ctx.fillStyle = linear(ctx, x, y, x + ww, y, [fill, dark]);
    ctx.fillRect(x, y, ww, hh);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.font = `800 ${Math.round(ww * 0.22)}px "Be Vietnam Pro"`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('%', x + ww / 2, y + hh * 0.55);
  }
}

const outputs: Output[] = [
  // Product promotion (the benchmark reference); its product shot is drawn by
  // generate-catalog-art.ts, with the other catalog scenes.
  {
    folder: 'product-promo',
    file: 'logo.png',
    width: 480,
    height: 120,
    draw: wordmark('#B4532A', 'L', 'Lumière', '#2B1B14', 'Noto Serif'),
  },
  // Tết sale.
  { folder: 'tet-sale', file: 'gift.jpg', width: 1080, height: 1080, draw: giftShot },
  { folder: 'tet-sale', file: 'mai-branch.png', width: 520, height: 420, draw: maiBranch },
  {
    folder: 'tet-sale',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#FFD36B', 'H', '#8E0F14', 'circle'),
  },
  // Khai trương (grand opening).
  {
    folder: 'grand-opening',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#2F5D46', 'M', '#F6E7D2', 'squircle'),
  },
  // Greeting card (8/3, 20/10).
  { folder: 'women-day-greeting', file: 'bouquet.webp', width: 640, height: 640, draw: bouquet },
  {
    folder: 'women-day-greeting',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#C2185B', 'A', '#FFFFFF', 'drop'),
  },
  // 11.11 flash sale.
  { folder: 'flash-sale-1111', file: 'phone.jpg', width: 1080, height: 1080, draw: phoneShot },
  {
    folder: 'flash-sale-1111',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#FFFFFF', 'N', '#5B1FA6', 'squircle'),
  },
  // Speaker card.
  {
    folder: 'speaker-card',
    file: 'logo.png',
    width: 480,
    height: 120,
    draw: wordmark('#3D5AFE', 'D', 'DevSummit', '#FFFFFF', 'Montserrat'),
  },
  // Name badge.
  {
    folder: 'name-badge',
    file: 'logo.png',
    width: 480,
    height: 120,
    draw: wordmark('#0F766E', 'P', 'ProductConf', '#0F172A', 'Montserrat'),
  },
  // Testimonial.
  {
    folder: 'testimonial',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#1E3A34', 'V', '#E9F2EC', 'squircle'),
  },
  { folder: 'testimonial', file: 'stars-5.png', width: 400, height: 72, draw: stars(5) },
  { folder: 'testimonial', file: 'stars-4.png', width: 400, height: 72, draw: stars(4) },
  { folder: 'testimonial', file: 'stars-3.png', width: 400, height: 72, draw: stars(3) },
  // Blog / OG header.
  {
    folder: 'blog-header',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#2F6FDE', 'F', '#FFFFFF', 'circle'),
  },
  // Hiring.
  { folder: 'hiring', file: 'office.jpg', width: 1200, height: 1000, draw: officeShot },
  {
    folder: 'hiring',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#111827', 'K', '#FACC15', 'squircle'),
  },
  // Trung Thu (Mid-Autumn) greeting.
  {
    folder: 'mid-autumn-greeting',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#F4C56A', 'T', '#0B1D3A', 'circle'),
  },
  // Bảng giá (menu price list).
  // 2160 px: the A4 menu prints it 182 mm wide (2150 px at 300 dpi).
  { folder: 'menu-price-list', file: 'pho.jpg', width: 2160, height: 2160, draw: noodleBowl },
  {
    folder: 'menu-price-list',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#C8102E', 'P', '#FFF4E0', 'squircle'),
  },
  // Giấy khen (certificate).
  { folder: 'certificate-award', file: 'seal.png', width: 320, height: 400, draw: awardSeal },
  {
    folder: 'certificate-award',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#1D3B6F', 'S', '#F6D77A', 'circle'),
  },
  // Nhà đất (real-estate listing).
  {
    folder: 'real-estate-listing',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#0F5132', 'A', '#FFFFFF', 'squircle'),
  },
  // Podcast episode.
  // Quote card.
  {
    folder: 'quote-card',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#F2E8CF', 'O', '#3F3D56', 'circle'),
  },
  // App feature.
  {
    folder: 'app-feature',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#0EA5E9', 'K', '#FFFFFF', 'squircle'),
  },
  { folder: 'app-feature', file: 'stars-5.png', width: 400, height: 72, draw: stars(5, '#0EA5E9') },
  { folder: 'app-feature', file: 'stars-4.png', width: 400, height: 72, draw: stars(4, '#0EA5E9') },
  { folder: 'app-feature', file: 'stars-3.png', width: 400, height: 72, draw: stars(3, '#0EA5E9') },
  // Statistics highlight.
  {
    folder: 'stats-highlight',
    file: 'logo.png',
    width: 480,
    height: 120,
    draw: wordmark('#16A34A', 'V', 'Verde', '#FFFFFF', 'Montserrat'),
  },
  // Before / after.
  {
    folder: 'before-after',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#1E40AF', 'S', '#FFFFFF', 'drop'),
  },
  // Webinar.
  {
    folder: 'webinar',
    file: 'logo.png',
    width: 480,
    height: 120,
    draw: wordmark('#2563EB', 'N', 'Nova', '#0F172A', 'Montserrat'),
  },
  // 12.12 sale.
  { folder: 'sale-1212', file: 'bags.jpg', width: 900, height: 900, draw: shoppingBags },
  {
    folder: 'sale-1212',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#FFFFFF', 'M', '#C2185B', 'squircle'),
  },
  // Event announcement.
  {
    folder: 'event-announcement',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#F43F5E', 'F', '#FFFFFF', 'circle'),
  },
  // Countdown.
  {
    folder: 'countdown',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#5BC0BE', 'L', '#0B132B', 'squircle'),
  },
  // Holiday greeting.
  {
    folder: 'holiday-greeting',
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark('#FDE68A', 'W', '#0F3D2E', 'circle'),
  },
  // Catalog v2 templates.
  ...(
    [
      ['birthday-greeting', '#BE185D', 'B', '#FFFFFF', 'drop'],
      ['spa-promo', '#2F5D45', 'A', '#F1F5EE', 'circle'],
      ['course-enrolment', '#2346C9', 'S', '#FFFFFF', 'squircle'],
      ['product-slides', '#C2410C', 'M', '#FFF7ED', 'circle'],
      ['tips-carousel', '#FACC15', 'K', '#0F172A', 'squircle'],
      ['recipe-card', '#9A3412', 'F', '#FFFBF2', 'circle'],
      ['fitness-class', '#22D3EE', 'P', '#0B1120', 'squircle'],
      ['black-friday', '#FACC15', 'O', '#18181B', 'circle'],
      ['delivery-promo', '#059669', 'G', '#FFFFFF', 'drop'],
      ['tet-greeting', '#FFD36B', 'P', '#8E0F14', 'circle'],
      ['customer-review', '#BE123C', 'L', '#FFFFFF', 'squircle'],
      ['job-opening', '#00796B', 'T', '#FFFFFF', 'circle'],
      ['book-launch', '#F9A8D4', 'A', '#2E1065', 'drop'],
      ['raffle-ticket', '#FDE68A', 'H', '#991B1B', 'circle'],
    ] as const
  ).map(([folder, bg, letter, fg, shape]): Output => ({
    folder,
    file: 'logo.png',
    width: 240,
    height: 240,
    draw: logoMark(bg, letter, fg, shape),
  })),
];

for (const output of outputs) save(output);
