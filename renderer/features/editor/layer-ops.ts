import type { Layer, Layout, Problem, Ratio, Template, Variable } from '../../api/types';
import { layoutLayers, layoutPages, withChildren } from '../../../shared/layout-pages';
import { foldForSearch } from '../../../shared/fold-text';
import { pageLayersPath } from './layout-page';

/** Pure edits of a template document the editor's actions are made of. */

/** The kinds the editor adds; a stack (format 2) is edited in the template's JSON. */
export type LayerKind = Exclude<Layer['kind'], 'stack'>;
export const LAYER_KINDS: LayerKind[] = ['text', 'image', 'shape', 'qr', 'barcode', 'list'];

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isLayerId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * The id a name typed for a layer is kept under: as typed when it is one already ("hero_2"),
 * else written without marks, spaces as dashes ("Tiêu đề chính" → "tieu-de-chinh"), since ids
 * appear in the template's JSON, the API's messages and the rules'. Null when nothing is left.
 */
export function layerIdFromName(name: string): string | null {
  const typed = name.trim();
  if (isLayerId(typed)) return typed;
  const id = foldForSearch(typed)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return id === '' ? null : id;
}

export function uniqueId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const clean = base.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 56) || 'layer';
  if (!used.has(clean)) return clean;
  for (let n = 2; ; n++) if (!used.has(`${clean}_${n}`)) return `${clean}_${n}`;
}

export function uniqueVariableName(base: string, variables: Variable[]): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '') || 'value';
  return uniqueId(
    clean.slice(0, 56),
    variables.map((v) => v.name),
  );
}

/** Every layer id used in any layout (ids are per layout, but one name per thing reads better). */
function allLayerIds(template: Template): string[] {
  return Object.values(template.layouts).flatMap((layout) =>
    layout ? layoutLayers(layout).map((l) => l.id) : [],
  );
}

/**
 * A new layer of `kind` in the middle of the canvas. Image and list layers need a variable to
 * bind; when the template has none of the right type, one is created with it.
 */
export function newLayer(
  template: Template,
  layout: Layout,
  kind: LayerKind,
): { layer: Layer; variable?: Variable } {
  const id = uniqueId(kind, allLayerIds(template));
  const width = Math.round(layout.width * (kind === 'qr' ? 0.2 : kind === 'barcode' ? 0.4 : 0.5));
  // A linear code's bars are about a third as high as it is wide, with its digits below.
  const height = Math.round(
    kind === 'qr' ? width : kind === 'barcode' ? width * 0.4 : layout.height * 0.15,
  );
  const base = {
    id,
    x: Math.round((layout.width - width) / 2),
    y: Math.round((layout.height - height) / 2),
    width,
    height,
  };
  const style = {
    font: { family: 'Be Vietnam Pro', weight: 700, style: 'normal' as const },
    size: Math.round(layout.width / 16),
    colour: '#1B1B1F',
    align: 'left' as const,
    verticalAlign: 'top' as const,
    lineHeight: 1.2,
    letterSpacing: 0,
    transform: 'none' as const,
  };
  switch (kind) {
    case 'text':
      return { layer: { ...base, kind, text: 'New text', ...style, fit: 'shrink' } };
    case 'shape':
      return { layer: { ...base, kind, shape: 'rectangle', radius: 0, fill: '#5B5BD6' } };
    case 'qr':
      return {
        layer: {
          ...base,
          kind,
          value: 'https://example.com',
          foreground: '#000000',
          background: '#FFFFFF',
          errorCorrection: 'M',
          margin: 2,
        },
      };
    case 'barcode':
      return {
        layer: {
          ...base,
          kind,
          symbology: 'code128',
          value: 'RD-0001',
          foreground: '#000000',
          background: '#FFFFFF',
        },
      };
    case 'image': {
      const existing = template.variables.find((v) => v.type === 'image');
      const variable: Variable | undefined = existing
        ? undefined
        : { name: uniqueVariableName('image', template.variables), type: 'image', required: false };
      const source = { var: (existing ?? variable)!.name };
      const layer: Layer = {
        ...base,
        kind,
        source,
        fit: 'cover',
        focalPoint: { x: 0.5, y: 0.5 },
        radius: 0,
        circle: false,
        align: 'center',
      };
      return variable ? { layer, variable } : { layer };
    }
    case 'list': {
      const existing = template.variables.find((v) => v.type === 'list');
      const variable: Variable | undefined = existing
        ? undefined
        : {
            name: uniqueVariableName('items', template.variables),
            type: 'list',
            required: false,
            default: ['First point', 'Second point'],
          };
      const layer: Layer = {
        ...base,
        height: Math.round(layout.height * 0.3),
        kind,
        items: { var: (existing ?? variable)!.name },
        ...style,
        size: Math.round(layout.width / 24),
        bullet: '•',
        gap: 12,
      };
      return variable ? { layer, variable } : { layer };
    }
  }
}

/** A layer moved and sized for a canvas `sx` × `sy` times the size of its own; text scales by the smaller. */
function scaledLayer(layer: Layer, sx: number, sy: number): Layer {
  const sText = Math.min(sx, sy);
  const geometry = {
    x: Math.round(layer.x * sx),
    y: Math.round(layer.y * sy),
    width: Math.max(1, Math.round(layer.width * sx)),
    height: Math.max(1, Math.round(layer.height * sy)),
  };
  if (layer.kind === 'text' || layer.kind === 'list') {
    return { ...layer, ...geometry, ...scaledTextSize(layer, sText) };
  }
  if (layer.kind === 'stack') {
    // A stack's children, gap and padding scale with it (their x and y are the stack's to set).
    return {
      ...layer,
      ...geometry,
      gap: Math.round(layer.gap * sText),
      padding: Math.round(layer.padding * sText),
      layers: layer.layers.map((child) => scaledLayer(child, sx, sy)),
    };
  }
  if (layer.kind === 'qr') {
    // A QR code stays square.
    const side = Math.min(geometry.width, geometry.height);
    return { ...layer, ...geometry, width: side, height: side };
  }
  return { ...layer, ...geometry };
}

function scaledTextSize(
  layer: Extract<Layer, { kind: 'text' | 'list' }>,
  factor: number,
): { size: number; minSize?: number } {
  return {
    size: Math.max(1, Math.round(layer.size * factor)),
    ...(layer.minSize ? { minSize: Math.max(1, Math.round(layer.minSize * factor)) } : {}),
  };
}

/**
 * A copy of a layer with an id none of `taken` has; a stack's children get fresh ids too (ids
 * are unique across a layout, children included). `taken` grows with the ids given.
 */
export function withFreshIds(layer: Layer, taken: string[]): Layer {
  const id = uniqueId(layer.id, taken);
  taken.push(id);
  if (layer.kind !== 'stack') return { ...layer, id };
  return { ...layer, id, layers: layer.layers.map((child) => withFreshIds(child, taken)) };
}

/** Copies the layout of another ratio, scaled to this ratio's canvas (a starting point). */
export function scaledLayout(source: Layout, width: number, height: number): Layout {
  const sx = width / source.width;
  const sy = height / source.height;
  const layers = source.layers.map((layer) => scaledLayer(layer, sx, sy));
  return { ...source, width, height, layers };
}

/**
 * What each layout keeps of its own when a layer is applied to all: where the layer sits, its
 * box, its text size (fitted to that box, as the built-in templates size each ratio), and an
 * image's crop (focal point and kept subject, chosen for that frame's shape).
 */
const PER_SIZE = [
  'x',
  'y',
  'width',
  'height',
  'rotation',
  'size',
  'minSize',
  'focalPoint',
  'keep',
] as const;

export interface AppliedToAll {
  template: Template;
  /** Layouts whose layer of the same id took the properties. */
  updated: string[];
  /** Layouts that had no such layer and got a scaled copy. */
  added: string[];
  /**
   * Layouts that cannot take the layer, and why: nothing was changed in any layout when this is
   * not empty (the caller may apply to the others with `skip`).
   */
  refused: RefusedSize[];
}

export type RefusedSize =
  | { name: string; reason: 'other-kind'; kind: Layer['kind'] }
  | { name: string; reason: 'ids-taken'; ids: string[] };

/** The layer with `id` among `layers` or inside their stacks, with the index path to it. */
function findNested(layers: Layer[], id: string): { layer: Layer; path: number[] } | null {
  for (const [index, layer] of layers.entries()) {
    if (layer.id === id) return { layer, path: [index] };
    if (layer.kind === 'stack') {
      const inner = findNested(layer.layers, id);
      if (inner) return { layer: inner.layer, path: [index, ...inner.path] };
    }
  }
  return null;
}

/** `layers` with the layer at `path` (from findNested) replaced. */
function replacedAt(layers: Layer[], path: number[], layer: Layer): Layer[] {
  const [index, ...rest] = path;
  return layers.map((current, i) => {
    if (i !== index) return current;
    if (rest.length === 0) return layer;
    if (current.kind !== 'stack') return current;
    return { ...current, layers: replacedAt(current.layers, rest, layer) };
  });
}

/** The layer at `path` (from findNested) among `layers`. */
function layerAt(layers: Layer[], path: number[]): Layer | undefined {
  const [index, ...rest] = path;
  const layer = index === undefined ? undefined : layers[index];
  if (!layer || rest.length === 0) return layer;
  return layer.kind === 'stack' ? layerAt(layer.layers, rest) : undefined;
}

/**
 * `layers` with a layer added: into the stack `home.stack` at its index when the size has that
 * stack (the stack places it), else on top of the page.
 */
function addedIn(
  layers: Layer[],
  layer: Layer,
  home: { stack: string | undefined; index: number } | null,
): Layer[] {
  const parent = home?.stack ? findNested(layers, home.stack) : null;
  if (!home || !parent || parent.layer.kind !== 'stack') return [...layers, layer];
  const children = [...parent.layer.layers];
  children.splice(Math.min(home.index, children.length), 0, layer);
  return replacedAt(layers, parent.path, { ...parent.layer, layers: children });
}

/**
 * The source layer as this size should have it: its content and style, with the target's own
 * PER_SIZE values; a stack's children matched by id the same way, new children scaled.
 */
function mergedLayer(source: Layer, target: Layer, sx: number, sy: number): Layer {
  const own = target as Record<string, unknown>;
  const next: Record<string, unknown> = { ...source };
  for (const key of PER_SIZE) {
    if (own[key] === undefined) delete next[key];
    else next[key] = own[key];
  }
  if (source.kind === 'stack' && target.kind === 'stack') {
    next.layers = source.layers.map((child) => {
      const match = target.layers.find((c) => c.id === child.id && c.kind === child.kind);
      return match ? mergedLayer(child, match, sx, sy) : scaledLayer(child, sx, sy);
    });
  }
  return next as Layer;
}

/**
 * Gives every other layout the layer's properties (content, font, colours, alignment,
 * visibility, opacity) while each keeps its own position, box, rotation, text size and crop,
 * wherever the layer sits there (at the top or inside a group). A layout without the layer gets
 * a copy placed and sized in proportion, as when a size is added (a stack's layer into that
 * size's stack of the same id, when it has one). A size where the id names a
 * layer of another kind, or where the copy would bring ids the size already uses elsewhere, is
 * refused: then nothing changes, unless `skip` lists the refused sizes to leave out.
 */
export function applyLayerToAllLayouts(
  template: Template,
  from: string,
  layerId: string,
  skip: readonly string[] = [],
): AppliedToAll {
  const sourceLayout = template.layouts[from];
  const sourceFound = sourceLayout ? findNested(sourceLayout.layers, layerId) : null;
  const source = sourceFound?.layer;
  if (!sourceLayout || !sourceFound || !source)
    return { template, updated: [], added: [], refused: [] };
  // A stack's layer a size lacks goes into that size's stack of the same id, at the same place.
  const home =
    sourceFound.path.length > 1
      ? {
          stack: layerAt(sourceLayout.layers, sourceFound.path.slice(0, -1))?.id,
          index: sourceFound.path[sourceFound.path.length - 1]!,
        }
      : null;
  const updated: string[] = [];
  const added: string[] = [];
  const refused: RefusedSize[] = [];
  const layouts: Record<string, Layout> = {};
  for (const [name, layout] of Object.entries(template.layouts)) {
    if (!layout) continue;
    if (name === from || skip.includes(name)) {
      layouts[name] = layout;
      continue;
    }
    const sx = layout.width / sourceLayout.width;
    const sy = layout.height / sourceLayout.height;
    const found = findNested(layout.layers, layerId);
    if (found && found.layer.kind !== source.kind) {
      refused.push({ name, reason: 'other-kind', kind: found.layer.kind });
      continue;
    }
    const layer = found ? mergedLayer(source, found.layer, sx, sy) : scaledLayer(source, sx, sy);
    // Ids the layout keeps besides the replaced layer must not come back with the copy.
    const replaced = new Set(found ? withChildren([found.layer]).map((l) => l.id) : []);
    const kept = new Set(
      layoutLayers(layout)
        .map((l) => l.id)
        .filter((id) => !replaced.has(id)),
    );
    const clashes = withChildren([layer])
      .map((l) => l.id)
      .filter((id) => kept.has(id));
    if (clashes.length > 0) {
      refused.push({ name, reason: 'ids-taken', ids: clashes });
      continue;
    }
    const layers = found
      ? replacedAt(layout.layers, found.path, layer)
      : addedIn(layout.layers, layer, home);
    layouts[name] = { ...layout, layers };
    (found ? updated : added).push(name);
  }
  if (refused.length > 0) return { template, updated: [], added: [], refused };
  return {
    template: { ...template, layouts: layouts as Template['layouts'] },
    updated,
    added,
    refused,
  };
}

/** JSON-walks a value replacing `{ var: from }` references and `{{from}}` placeholders. */
function renameIn(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.split(`{{${from}}}`).join(`{{${to}}}`);
  if (Array.isArray(value)) return value.map((v) => renameIn(v, from, to));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = key === 'var' && v === from ? to : renameIn(v, from, to);
    }
    return out;
  }
  return value;
}

/** Renames a variable and every binding, placeholder, rule and sample value that names it. */
export function renameVariable(template: Template, from: string, to: string): Template {
  const sampleValues = { ...template.sampleValues };
  if (from in sampleValues) {
    sampleValues[to] = sampleValues[from];
    delete sampleValues[from];
  }
  return {
    ...template,
    variables: template.variables.map((v) => (v.name === from ? { ...v, name: to } : v)),
    sampleValues,
    layouts: renameIn(template.layouts, from, to) as Template['layouts'],
  };
}

/** Where a variable is used: `ratio/layerId` for each layer that names it. */
export function variableUses(template: Template, name: string): string[] {
  const uses: string[] = [];
  for (const [ratio, layout] of Object.entries(template.layouts)) {
    const layers = layout ? layoutPages(layout).flatMap((page) => page.layers) : [];
    for (const layer of layers) {
      if (JSON.stringify(renameIn(layer, name, '\u0000')) !== JSON.stringify(layer))
        uses.push(`${ratio}/${layer.id}`);
    }
  }
  return uses;
}

/**
 * The server's path of a property of a layer on a page (from 0) of a layout; a stack's child by
 * its index at each depth (`…layers[1].layers[0]`).
 */
export function layerPath(
  ratio: Ratio,
  page: number,
  index: number | readonly number[],
  property?: string,
): string {
  const [first, ...rest] = typeof index === 'number' ? [index] : index;
  const inner = rest.map((i) => `.layers[${i}]`).join('');
  return `${pageLayersPath(ratio, page)}[${first}]${inner}${property ? `.${property}` : ''}`;
}

/** The first problem at `path` or below it. */
export function problemAt(problems: Problem[], path: string): string | undefined {
  return problems.find(
    (p) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`),
  )?.message;
}

export function moveInArray<T>(items: T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return items;
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}
