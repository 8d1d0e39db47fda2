import { describe, expect, it } from 'vitest';
import type {
  ColourValue,
  Layer,
  Layout,
  Paint,
  Template,
  VisibilityCondition,
} from '../../shared/template-format.js';
import { ratiosOf, readCatalogTemplates } from '../../scripts/preview-template.js';

/**
 * WCAG 2.x contrast of every text and list layer of the built-in templates against what is drawn
 * beneath it, computed from the template's own colours with the default brand (a brand-bound
 * colour takes its variable's default, then the binding's fallback). Body text needs 4.5:1, large
 * text (≥ 24 px bold or ≥ 32 px regular at layout scale) 3:1. A gradient counts with its worst
 * stop. Text drawn over a photo cannot be judged from the template; it must sit on a pill
 * (`background`), or it is listed as skipped with the reason.
 */

type Rgba = [number, number, number, number];

function parseHex(hex: string): Rgba {
  let h = hex.slice(1);
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
}

function resolveColour(template: Template, colour: ColourValue): Rgba | null {
  if (typeof colour === 'string') return parseHex(colour);
  const variable = template.variables.find((v) => v.name === colour.var);
  const value = variable?.type === 'colour' ? variable.default : undefined;
  const hex = value ?? colour.fallback;
  if (!hex) return null;
  const [r, g, b, a] = parseHex(hex);
  return [r, g, b, a * (colour.alpha ?? 1)];
}

/** The colours a paint may show at some point (a gradient: each stop). */
function paintColours(template: Template, paint: Paint): Rgba[] {
  if (typeof paint === 'string' || 'var' in paint) {
    const c = resolveColour(template, paint);
    return c ? [c] : [];
  }
  return paint.stops.flatMap((s) => {
    const c = resolveColour(template, s.colour);
    return c ? [c] : [];
  });
}

function over(top: Rgba, bottom: Rgba, opacity = 1): Rgba {
  const a = top[3] * opacity;
  return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

function intersects(a: Layer, b: Layer): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function covers(a: Layer, b: Layer): boolean {
  return (
    a.x <= b.x && a.y <= b.y && a.x + a.width >= b.x + b.width && a.y + a.height >= b.y + b.height
  );
}

/** The catalog's rules are single conditions; a group is left to the engine. */
function singleCondition(layer: Layer): VisibilityCondition | undefined {
  const rule = layer.visibleWhen;
  return rule && 'var' in rule ? rule : undefined;
}

/**
 * The layers drawn for each value of the enums the layout switches on with `equals`/`notEquals`
 * (a badge colour per attendee type, …); layers shown when a value is not empty stay in every
 * case and count as possibly hidden.
 */
function scenarios(template: Template, layout: Layout): Layer[][] {
  const switches = [
    ...new Set(
      layout.layers
        .map((l) => singleCondition(l))
        .filter((w) => w && (w.equals !== undefined || w.notEquals !== undefined))
        .map((w) => w!.var),
    ),
  ];
  let cases: Array<Record<string, string>> = [{}];
  for (const name of switches) {
    const variable = template.variables.find((v) => v.name === name);
    if (variable?.type !== 'enum') continue;
    cases = cases.flatMap((c) => variable.options.map((o) => ({ ...c, [name]: o.value })));
  }
  return cases.map((values) =>
    layout.layers.filter((l) => {
      const when = singleCondition(l);
      if (!when || !(when.var in values)) return true;
      if (when.equals !== undefined) return String(when.equals) === values[when.var];
      if (when.notEquals !== undefined) return String(when.notEquals) !== values[when.var];
      return true;
    }),
  );
}

/**
 * A format 2 stack's children in its place: the engine moves them inside the stack's box, so
 * each is judged as if it could be anywhere in it (the worst case of what lies beneath).
 */
function withoutStacks(layers: Layer[]): Layer[] {
  return layers.flatMap((layer): Layer[] =>
    layer.kind === 'stack'
      ? withoutStacks(layer.layers).map((child) => ({
          ...child,
          x: layer.x,
          y: layer.y,
          width: layer.width,
          height: layer.height,
        }))
      : [layer],
  );
}

type Backdrop = { colours: Rgba[] } | { skip: string };

/** The colours that may be beneath `layer` (index `index` of the layout), worst cases included. */
function backdropOf(template: Template, layout: Layout, layers: Layer[], index: number): Backdrop {
  const layer = layers[index]!;
  const below = (from: number): Rgba[] | string => {
    for (let i = from; i >= 0; i--) {
      const other = layers[i]!;
      if (
        other.kind === 'text' ||
        other.kind === 'list' ||
        other.kind === 'qr' ||
        other.kind === 'barcode' ||
        other.kind === 'stack'
      )
        continue;
      if (!intersects(other, layer)) continue;
      if (other.kind === 'image') return `over the image layer "${other.id}"`;
      if (!other.fill) continue;
      const colours = paintColours(template, other.fill).filter((c) => c[3] > 0);
      if (colours.length === 0) continue;
      const rest = below(i - 1);
      if (typeof rest === 'string') return rest;
      const composed = colours.flatMap((c) => rest.map((r) => over(c, r, other.opacity ?? 1)));
      // A shape that only partly covers the text, or may be hidden, leaves what is beneath visible.
      const whole =
        other.shape === 'rectangle' &&
        covers(other, layer) &&
        singleCondition(other)?.notEmpty === undefined;
      return whole && composed.every((_, k) => colours[k % colours.length]![3] === 1)
        ? composed
        : [...composed, ...rest];
    }
    return paintColours(template, layout.background).map((c) => over(c, [255, 255, 255, 1]));
  };
  const result = below(index - 1);
  return typeof result === 'string' ? { skip: result } : { colours: result };
}

const catalog = readCatalogTemplates();

describe('contrast of the built-in templates', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrast([0, 0, 0, 1], [255, 255, 255, 1])).toBeCloseTo(21, 5);
    expect(contrast([119, 119, 119, 1], [255, 255, 255, 1])).toBeCloseTo(4.48, 2);
  });

  describe.each(catalog)('$slug', ({ template }) => {
    it.each(ratiosOf(template))('%s: every text meets WCAG AA against its background', (ratio) => {
      const own = template.layouts[ratio]!;
      const layout = { ...own, layers: withoutStacks(own.layers) };
      const failures: string[] = [];
      const skipped: string[] = [];
      for (const layers of scenarios(template, layout)) {
        for (const [index, layer] of layers.entries()) {
          if (layer.kind !== 'text' && layer.kind !== 'list') continue;
          const ink = resolveColour(template, layer.colour);
          if (!ink) continue;
          let backdrop: Backdrop;
          if (layer.kind === 'text' && layer.background) {
            const base = backdropOf(template, layout, layers, index);
            const pill = paintColours(template, layer.background.paint);
            backdrop =
              pill.every((c) => c[3] === 1) || 'skip' in base
                ? { colours: pill }
                : { colours: pill.flatMap((c) => base.colours.map((b) => over(c, b))) };
          } else backdrop = backdropOf(template, layout, layers, index);
          if ('skip' in backdrop) {
            skipped.push(`${layer.id}: ${backdrop.skip}`);
            continue;
          }
          const large = layer.size >= 32 || (layer.size >= 24 && layer.font.weight >= 700);
          const needed = large ? 3 : 4.5;
          const worst = Math.min(
            ...backdrop.colours.map((bg) => contrast(over(ink, bg, layer.opacity ?? 1), bg)),
          );
          if (worst < needed) {
            failures.push(`${layer.id}: ${worst.toFixed(2)}:1 < ${needed}:1`);
          }
        }
      }
      // Skipped layers are text over photos, judged by eye on the contact sheets.
      expect(skipped.every((reason) => reason.includes('over the image layer'))).toBe(true);
      expect([...new Set(failures)]).toEqual([]);
    });
  });
});
