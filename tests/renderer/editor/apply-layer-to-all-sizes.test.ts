import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLayerToAllLayouts } from '../../../renderer/features/editor/layer-ops.js';
import { Template } from '../../../shared/template-format.js';

const REFERENCE = path.join('templates', 'catalog', 'product-promo', 'template.json');

function reference(): Template {
  return Template.parse(JSON.parse(fs.readFileSync(REFERENCE, 'utf8')));
}

function layer(template: Template, layout: string, id: string) {
  const found = template.layouts[layout]?.layers.find((l) => l.id === id);
  if (!found) throw new Error(`no ${id} in ${layout}`);
  return found;
}

describe('Apply to all sizes', () => {
  it("gives every size the layer's content and style, each keeping its own place, box and text size", () => {
    const before = reference();
    const square = layer(before, 'square', 'headline');
    if (square.kind !== 'text') throw new Error('headline is text');
    const edited: Template = {
      ...before,
      layouts: {
        ...before.layouts,
        square: {
          ...before.layouts.square!,
          layers: before.layouts.square!.layers.map((l) =>
            l.id === 'headline' && l.kind === 'text'
              ? { ...l, text: 'Sale {{headline}}', colour: '#1E7B34', align: 'center' as const }
              : l,
          ),
        },
      },
    };
    const result = applyLayerToAllLayouts(edited, 'square', 'headline');
    expect(result.updated).toEqual(['portrait', 'story', 'landscape', 'og']);
    expect(result.added).toEqual([]);
    for (const name of result.updated) {
      const was = layer(before, name, 'headline');
      const now = layer(result.template, name, 'headline');
      if (was.kind !== 'text' || now.kind !== 'text') throw new Error('text layers');
      expect([now.text, now.colour, now.align], name).toEqual([
        'Sale {{headline}}',
        '#1E7B34',
        'center',
      ]);
      expect([now.x, now.y, now.width, now.height, now.size], name).toEqual([
        was.x,
        was.y,
        was.width,
        was.height,
        was.size,
      ]);
    }
    // Other layers and the source size are untouched.
    expect(result.template.layouts.square).toBe(edited.layouts.square);
    expect(layer(result.template, 'story', 'price')).toBe(layer(before, 'story', 'price'));
  });

  it('adds the layer where a size lacks it, placed and sized in proportion', () => {
    const before = reference();
    // The story layout has no rule; the square's is 72,584 on 1080×1080.
    expect(before.layouts.story!.layers.some((l) => l.id === 'rule')).toBe(false);
    const result = applyLayerToAllLayouts(before, 'square', 'rule');
    expect(result.added).toContain('story');
    const rule = layer(result.template, 'story', 'rule');
    const square = layer(before, 'square', 'rule');
    expect(rule.x).toBe(square.x);
    expect(rule.y).toBe(Math.round((square.y * 1920) / 1080));
  });
});
