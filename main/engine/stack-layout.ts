import type { Layer, StackLayer, TextLayer } from '../../shared/template-format.js';
import { isVisible, type DrawContext } from './draw-context.js';
import { measureTextLayer } from './measure-text-layer.js';
import { measureListLayer } from './layers/list-layer.js';

/** A layer that is drawn as it is: every kind but a stack. */
export type DrawnLayer = Exclude<Layer, StackLayer>;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a child goes along the stack (main) and across it (cross). */
interface Axis {
  main: 'height' | 'width';
  cross: 'height' | 'width';
  mainAt: 'y' | 'x';
  crossAt: 'y' | 'x';
}

const VERTICAL: Axis = { main: 'height', cross: 'width', mainAt: 'y', crossAt: 'x' };
const HORIZONTAL: Axis = { main: 'width', cross: 'height', mainAt: 'x', crossAt: 'y' };

/** A child laid out in a box: the drawn layers it becomes, and how much room it takes. */
interface Placed {
  layers: DrawnLayer[];
  /** Along the stack's axis: what the child needs (a text's lines, a nested stack's content). */
  main: number;
}

const axisOf = (stack: StackLayer) => (stack.direction === 'horizontal' ? HORIZONTAL : VERTICAL);

/**
 * A text child needs the room its fitted lines take, up to its box, and so does a list in a
 * column (its items' lines); other children keep their box. Only these shrink when the stack is
 * full.
 */
function isFlexible(layer: Layer, axis: Axis): boolean {
  return (
    layer.kind === 'text' || layer.kind === 'stack' || (layer.kind === 'list' && axis === VERTICAL)
  );
}

/**
 * Lays a child out in `box` (its room along the axis as given, its own size across): a text
 * child becomes a text layer with a tight box (so it is drawn as it was measured), a nested
 * stack its children, anything else itself in the box.
 */
function place(dc: DrawContext, child: Layer, box: Box, axis: Axis, depth: number): Placed {
  if (child.kind === 'stack') {
    const inner = layoutStack(dc, { ...child, ...box }, depth + 1);
    // A nested stack along the same axis hugs its content when that starts at its start.
    const hugs = axisOf(child) === axis && child.justify === 'start';
    return { layers: inner.layers, main: hugs ? inner.used[axis.main] : box[axis.main] };
  }
  if (child.kind === 'text') {
    const sized: TextLayer = { ...child, ...box };
    const measured = measureTextLayer(dc, sized);
    if (!measured) return { layers: [], main: 0 };
    // Across a row, whole pixels: the measured width is what the line breaks needed, so the text
    // fits a box that wide at the size and in the lines it was measured with.
    const along = axis === HORIZONTAL ? Math.ceil(measured.width) : measured.height;
    const need = Math.min(box[axis.main], along);
    return { layers: [{ ...sized, [axis.main]: Math.max(1, need) }], main: need };
  }
  if (child.kind === 'list' && axis === VERTICAL) {
    const sized = { ...child, ...box };
    const need = measureListLayer(dc, sized);
    return need > 0
      ? { layers: [{ ...sized, height: need }], main: need }
      : { layers: [], main: 0 };
  }
  return { layers: [{ ...child, ...box }], main: box[axis.main] };
}

/**
 * Lays a stack's visible children out one after the other. A text child takes what its fitted
 * lines need, so the children after it move; when they do not fit the stack, the flexible
 * children (text, nested stacks) get room in proportion to what they asked for and fit down
 * into it. Returns the drawn layers in order and the room the content used (with padding).
 */
export function layoutStack(
  dc: DrawContext,
  stack: StackLayer,
  depth = 0,
): { layers: DrawnLayer[]; used: { width: number; height: number } } {
  const axis = axisOf(stack);
  const children = stack.layers.filter((layer) => isVisible(layer, dc));
  const inner: Box = {
    x: stack.x + stack.padding,
    y: stack.y + stack.padding,
    width: Math.max(1, stack.width - 2 * stack.padding),
    height: Math.max(1, stack.height - 2 * stack.padding),
  };
  const crossOf = (child: Layer) => Math.min(child[axis.cross], inner[axis.cross]);
  const boxFor = (child: Layer, main: number): Box => {
    const box = { x: 0, y: 0, width: 0, height: 0 };
    box[axis.main] = Math.max(1, main);
    box[axis.cross] = crossOf(child);
    return box;
  };
  // First pass: each child in its own box (no larger than the stack).
  let placed = children.map((child) =>
    place(dc, child, boxFor(child, Math.min(child[axis.main], inner[axis.main])), axis, depth),
  );
  // A text child with no text takes no room and no gap, like a hidden one.
  const drawn = placed.filter((p) => p.main > 0 || p.layers.length > 0).length;
  const gaps = stack.gap * Math.max(0, drawn - 1);
  const total = () => placed.reduce((sum, p) => sum + p.main, 0) + gaps;
  if (total() > inner[axis.main] + 0.01) {
    const fixed = placed.reduce(
      (sum, p, index) => sum + (isFlexible(children[index]!, axis) ? 0 : p.main),
      0,
    );
    const flexible = total() - gaps - fixed;
    const room = Math.max(0, inner[axis.main] - gaps - fixed);
    const share = flexible > 0 ? room / flexible : 0;
    placed = placed.map((p, index) => {
      const child = children[index]!;
      if (!isFlexible(child, axis)) return p;
      return place(dc, child, boxFor(child, Math.max(1, p.main * share)), axis, depth);
    });
  }
  const used = total();
  const free = Math.max(0, inner[axis.main] - used);
  let at =
    inner[axis.mainAt] +
    (stack.justify === 'end' ? free : stack.justify === 'center' ? free / 2 : 0);
  const layers: DrawnLayer[] = [];
  placed.forEach((p, index) => {
    const child = children[index]!;
    const across = inner[axis.cross] - crossOf(child);
    const crossAt =
      inner[axis.crossAt] +
      (stack.align === 'end' ? across : stack.align === 'center' ? across / 2 : 0);
    const shift = { [axis.mainAt]: at, [axis.crossAt]: crossAt } as { x: number; y: number };
    for (const layer of p.layers) layers.push(moved(layer, shift, stack));
    if (p.main > 0 || p.layers.length > 0) at += p.main + stack.gap;
  });
  if (stack.rotation) rotateAbout(layers, stack);
  const usedBox = { width: 0, height: 0 };
  usedBox[axis.main] = used + 2 * stack.padding;
  usedBox[axis.cross] = stack[axis.cross];
  return { layers, used: usedBox };
}

/**
 * A child's drawn layer moved to where the stack put the child: layers of a nested stack were
 * laid out at 0,0 and move with it. The stack's opacity and decorative flag carry down.
 */
function moved(layer: DrawnLayer, shift: { x: number; y: number }, stack: StackLayer): DrawnLayer {
  const opacity =
    stack.opacity === undefined ? layer.opacity : (layer.opacity ?? 1) * stack.opacity;
  return {
    ...layer,
    x: layer.x + shift.x,
    y: layer.y + shift.y,
    ...(opacity === undefined ? {} : { opacity }),
    ...(stack.decorative && !layer.decorative ? { decorative: true } : {}),
  };
}

/**
 * A turned stack turns as one piece: each drawn layer's centre turns about the stack's centre
 * and the layer turns by the same angle about its own (drawing turns a layer about its centre).
 */
function rotateAbout(layers: DrawnLayer[], stack: StackLayer): void {
  const angle = ((stack.rotation ?? 0) * Math.PI) / 180;
  const cx = stack.x + stack.width / 2;
  const cy = stack.y + stack.height / 2;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  layers.forEach((layer, index) => {
    const dx = layer.x + layer.width / 2 - cx;
    const dy = layer.y + layer.height / 2 - cy;
    layers[index] = {
      ...layer,
      x: cx + dx * cos - dy * sin - layer.width / 2,
      y: cy + dx * sin + dy * cos - layer.height / 2,
      rotation: (layer.rotation ?? 0) + (stack.rotation ?? 0),
    };
  });
}
