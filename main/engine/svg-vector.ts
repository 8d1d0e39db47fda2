import fs from 'node:fs';
import { Path2D, type CanvasGradient, type SKRSContext2D } from '@napi-rs/canvas';
import type { ImageInput } from '../render/render-protocol.js';
import { looksLikeMarkup, MAX_SVG_BYTES } from './svg-self-contained.js';

/**
 * SVG images drawn as vector into a PDF page. @napi-rs/canvas rasterises an SVG `Image` it draws,
 * so the SVG is first normalised by resvg (already the engine's SVG reader for checks): shapes
 * become `<path>`s, styles attributes, `<use>` copies, all in groups with a matrix. That small
 * vocabulary maps onto canvas calls with `Path2D`. Anything outside it (embedded pictures, clip
 * paths, masks, filters, patterns, text, a group's opacity over several shapes) is not drawn
 * this way: the caller then embeds the rasterised SVG as before, so nothing is ever drawn wrong.
 */

type Matrix = [number, number, number, number, number, number];
type FillRule = 'nonzero' | 'evenodd';
type LineCap = 'butt' | 'round' | 'square';
type LineJoin = 'miter' | 'round' | 'bevel';

interface Stop {
  offset: number;
  colour: string;
  opacity: number;
}

interface Gradient {
  kind: 'linear' | 'radial';
  userSpace: boolean;
  transform: Matrix | null;
  /** x1 y1 x2 y2 (linear) or cx cy r fx fy (radial). */
  coords: number[];
  stops: Stop[];
}

type Paint = { colour: string } | { gradient: Gradient } | null;

interface PathNode {
  kind: 'path';
  path: Path2D;
  transform: Matrix | null;
  fill: Paint;
  fillOpacity: number;
  fillRule: FillRule;
  stroke: Paint;
  strokeOpacity: number;
  strokeWidth: number;
  lineCap: LineCap;
  lineJoin: LineJoin;
  miterLimit: number;
  dash: number[];
  dashOffset: number;
}

interface GroupNode {
  kind: 'group';
  transform: Matrix | null;
  opacity: number;
  children: SvgNode[];
}

type SvgNode = PathNode | GroupNode;

/** A normalised SVG: its size (what a fit places, as an image's pixels) and what it draws. */
export interface VectorSvg {
  width: number;
  height: number;
  /** From the viewBox to the width and height. */
  viewBox: Matrix;
  root: GroupNode;
}

/** The image's text when it is an SVG (not gzipped, not over the SVG limit); else null. */
async function svgText(input: ImageInput): Promise<string | null> {
  if (input.kind === 'file' && (await fs.promises.stat(input.path)).size > MAX_SVG_BYTES)
    return null;
  const bytes = input.kind === 'file' ? await fs.promises.readFile(input.path) : input.bytes;
  if (bytes.length > MAX_SVG_BYTES || !looksLikeMarkup(bytes.subarray(0, 512))) return null;
  return Buffer.from(bytes).toString('utf8');
}

/** The SVG of an image input as vector, or null to draw it as pixels. */
export async function loadVectorSvg(input: ImageInput): Promise<VectorSvg | null> {
  let text: string | null;
  try {
    text = await svgText(input);
  } catch {
    return null;
  }
  // Text would need resvg to find the fonts the raster path finds: keep it raster.
  if (!text || /<(?:\w+:)?text[\s>]/.test(text)) return null;
  let normalised: string;
  try {
    // Loaded by the first vector image, not by every render thread as it starts.
    const { Resvg } = await import('@resvg/resvg-js');
    normalised = new Resvg(text, { font: { loadSystemFonts: false } }).toString();
  } catch {
    return null;
  }
  return parseNormalised(normalised);
}

/** Draws the SVG so that its (0,0)–(width,height) lies at the current transform's origin. */
export function drawVectorSvg(ctx: SKRSContext2D, svg: VectorSvg): void {
  ctx.save();
  ctx.transform(...svg.viewBox);
  drawNode(ctx, svg.root, 1);
  ctx.restore();
}

function drawNode(ctx: SKRSContext2D, node: SvgNode, alpha: number): void {
  ctx.save();
  if (node.transform) ctx.transform(...node.transform);
  if (node.kind === 'group') {
    for (const child of node.children) drawNode(ctx, child, alpha * node.opacity);
  } else {
    if (node.fill) {
      ctx.globalAlpha = alpha * node.fillOpacity;
      ctx.fillStyle = paintStyle(ctx, node.fill, node.path);
      ctx.fill(node.path, node.fillRule);
    }
    if (node.stroke && node.strokeWidth > 0) {
      ctx.globalAlpha = alpha * node.strokeOpacity;
      ctx.strokeStyle = paintStyle(ctx, node.stroke, node.path);
      ctx.lineWidth = node.strokeWidth;
      ctx.lineCap = node.lineCap;
      ctx.lineJoin = node.lineJoin;
      ctx.miterLimit = node.miterLimit;
      ctx.setLineDash(node.dash);
      ctx.lineDashOffset = node.dashOffset;
      ctx.stroke(node.path);
    }
  }
  ctx.restore();
}

function paintStyle(
  ctx: SKRSContext2D,
  paint: NonNullable<Paint>,
  path: Path2D,
): string | CanvasGradient {
  if ('colour' in paint) return paint.colour;
  const g = paint.gradient;
  // Gradient coordinates in the shape's bounding box (0–1) or in user space, then its transform.
  let m: Matrix = [1, 0, 0, 1, 0, 0];
  if (!g.userSpace) {
    const [left, top, right, bottom] = path.getBounds();
    m = [right - left, 0, 0, bottom - top, left, top];
  }
  if (g.transform) m = multiply(m, g.transform);
  const at = (x: number, y: number): [number, number] => [
    m[0] * x + m[2] * y + m[4],
    m[1] * x + m[3] * y + m[5],
  ];
  let gradient: CanvasGradient;
  if (g.kind === 'linear') {
    const [x1, y1, x2, y2] = g.coords as [number, number, number, number];
    gradient = ctx.createLinearGradient(...at(x1, y1), ...at(x2, y2));
  } else {
    const [cx, cy, r, fx, fy] = g.coords as [number, number, number, number, number];
    // A radial gradient stays round only under a uniform scale (parseNormalised checks it).
    const scale = Math.hypot(m[0], m[1]);
    gradient = ctx.createRadialGradient(...at(fx, fy), 0, ...at(cx, cy), r * scale);
  }
  for (const stop of g.stops) gradient.addColorStop(stop.offset, withAlpha(stop));
  return gradient;
}

function withAlpha(stop: Stop): string {
  if (stop.opacity >= 1) return stop.colour;
  const hex = stop.colour.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${stop.opacity})`;
}

function multiply(a: Matrix, b: Matrix): Matrix {
  return [
    a[0] * b[0] + a[2] * b[1],
    a[1] * b[0] + a[3] * b[1],
    a[0] * b[2] + a[2] * b[3],
    a[1] * b[2] + a[3] * b[3],
    a[0] * b[4] + a[2] * b[5] + a[4],
    a[1] * b[4] + a[3] * b[5] + a[5],
  ];
}

/** Thrown inside the parser for anything outside the vocabulary drawn here. */
class NotVector extends Error {}

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** resvg's own output: well-formed elements with double-quoted attributes and no text. */
function elements(markup: string): Element {
  const root: Element = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  const tag =
    /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;
  for (const match of markup.matchAll(tag)) {
    const [, closing, name, attrText, selfClosing] = match;
    if (!name) continue;
    if (closing) {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, key, value] of (attrText ?? '').matchAll(/([\w:-]+)="([^"]*)"/g))
      attrs[key!] = value!.replace(/&(\w+);/g, (all, entity: string) => ENTITIES[entity] ?? all);
    const element = { name, attrs, children: [] };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  return root;
}

function parseNormalised(markup: string): VectorSvg | null {
  try {
    const svg = elements(markup).children.find((e) => e.name === 'svg');
    if (!svg) return null;
    const width = Number(svg.attrs.width);
    const height = Number(svg.attrs.height);
    if (!(width > 0 && height > 0)) return null;
    const [vx, vy, vw, vh] = (svg.attrs.viewBox ?? `0 0 ${width} ${height}`)
      .trim()
      .split(/[\s,]+/)
      .map(Number) as [number, number, number, number];
    if (!(vw > 0 && vh > 0)) return null;
    const sx = width / vw;
    const sy = height / vh;
    const gradients = new Map<string, Gradient>();
    for (const defs of svg.children.filter((e) => e.name === 'defs'))
      for (const def of defs.children) gradients.set(def.attrs.id ?? '', gradientOf(def));
    const children = svg.children.filter((e) => e.name !== 'defs').map((e) => nodeOf(e, gradients));
    return {
      width,
      height,
      viewBox: [sx, 0, 0, sy, -vx * sx, -vy * sy],
      root: { kind: 'group', transform: null, opacity: 1, children },
    };
  } catch (error) {
    if (error instanceof NotVector) return null;
    throw error;
  }
}

function nodeOf(e: Element, gradients: Map<string, Gradient>): SvgNode {
  for (const unsupported of ['clip-path', 'mask', 'filter'])
    if (e.attrs[unsupported] !== undefined) throw new NotVector(unsupported);
  const transform = e.attrs.transform ? matrixOf(e.attrs.transform) : null;
  if (e.name === 'g') {
    const opacity = number(e.attrs.opacity, 1);
    const children = e.children.map((child) => nodeOf(child, gradients));
    // Canvas has no group opacity: exact for one shape, not for overlapping ones.
    if (opacity < 1 && (children.length > 1 || children.some((c) => c.kind === 'group')))
      throw new NotVector('group opacity');
    return { kind: 'group', transform, opacity, children };
  }
  if (e.name !== 'path' || !e.attrs.d) throw new NotVector(e.name);
  return {
    kind: 'path',
    path: new Path2D(e.attrs.d),
    transform,
    fill: paintOf(e.attrs.fill ?? '#000000', gradients),
    fillOpacity: number(e.attrs['fill-opacity'], 1),
    fillRule: e.attrs['fill-rule'] === 'evenodd' ? 'evenodd' : 'nonzero',
    stroke: paintOf(e.attrs.stroke ?? 'none', gradients),
    strokeOpacity: number(e.attrs['stroke-opacity'], 1),
    strokeWidth: number(e.attrs['stroke-width'], 1),
    lineCap: lineCapOf(e.attrs['stroke-linecap']),
    lineJoin: lineJoinOf(e.attrs['stroke-linejoin']),
    miterLimit: number(e.attrs['stroke-miterlimit'], 4),
    dash: e.attrs['stroke-dasharray']
      ? e.attrs['stroke-dasharray'].split(/[\s,]+/).map(Number)
      : [],
    dashOffset: number(e.attrs['stroke-dashoffset'], 0),
  };
}

function lineCapOf(value: string | undefined): LineCap {
  if (value === undefined) return 'butt';
  if (value === 'butt' || value === 'round' || value === 'square') return value;
  throw new NotVector(`stroke-linecap ${value}`);
}

function lineJoinOf(value: string | undefined): LineJoin {
  if (value === undefined || value === 'miter') return 'miter';
  if (value === 'round' || value === 'bevel') return value;
  throw new NotVector(`stroke-linejoin ${value}`);
}

function paintOf(value: string, gradients: Map<string, Gradient>): Paint {
  if (value === 'none') return null;
  const ref = /^url\(#([^)]+)\)$/.exec(value);
  if (ref) {
    const gradient = gradients.get(ref[1]!);
    if (!gradient) throw new NotVector(`paint ${value}`);
    return { gradient };
  }
  if (!/^#[0-9a-fA-F]{6}$/.test(value)) throw new NotVector(`paint ${value}`);
  return { colour: value };
}

function gradientOf(e: Element): Gradient {
  if (e.name !== 'linearGradient' && e.name !== 'radialGradient') throw new NotVector(e.name);
  if ((e.attrs.spreadMethod ?? 'pad') !== 'pad') throw new NotVector('spreadMethod');
  const transform = e.attrs.gradientTransform ? matrixOf(e.attrs.gradientTransform) : null;
  const stops = e.children.map((stop) => {
    const colour = stop.attrs['stop-color'] ?? '#000000';
    if (!/^#[0-9a-fA-F]{6}$/.test(colour)) throw new NotVector(`stop-color ${colour}`);
    return {
      offset: number(stop.attrs.offset, 0),
      colour,
      opacity: number(stop.attrs['stop-opacity'], 1),
    };
  });
  const userSpace = e.attrs.gradientUnits === 'userSpaceOnUse';
  if (e.name === 'linearGradient') {
    const a = e.attrs;
    return {
      kind: 'linear',
      userSpace,
      transform,
      coords: [number(a.x1, 0), number(a.y1, 0), number(a.x2, 1), number(a.y2, 0)],
      stops,
    };
  }
  const a = e.attrs;
  const cx = number(a.cx, 0.5);
  const cy = number(a.cy, 0.5);
  // A radial gradient over a non-square box, or skewed, is an ellipse canvas cannot draw.
  if (!userSpace || (transform && (transform[1] !== 0 || transform[2] !== 0)))
    throw new NotVector('elliptical radial gradient');
  if (transform && Math.abs(transform[0] - transform[3]) > 1e-9)
    throw new NotVector('elliptical radial gradient');
  return {
    kind: 'radial',
    userSpace,
    transform,
    coords: [cx, cy, number(a.r, 0.5), number(a.fx, cx), number(a.fy, cy)],
    stops,
  };
}

function matrixOf(value: string): Matrix {
  const match = /^matrix\(([^)]*)\)$/.exec(value.trim());
  if (!match) throw new NotVector(`transform ${value}`);
  const numbers = match[1]!
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (numbers.length !== 6 || numbers.some((n) => !Number.isFinite(n)))
    throw new NotVector(`transform ${value}`);
  return numbers as Matrix;
}

function number(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value);
  if (!Number.isFinite(n)) throw new NotVector(`number ${value}`);
  return n;
}
