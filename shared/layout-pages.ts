import type { Layer, Layout, Paint } from './template-format.js';

/** One page of a layout as it is drawn: its background and layers. */
export interface PageContent {
  background: Paint;
  layers: Layer[];
}

/** Every page of a layout in order: its own layers (page 1), then `morePages`. */
export function layoutPages(layout: Layout): PageContent[] {
  return [
    { background: layout.background, layers: layout.layers },
    ...(layout.morePages ?? []).map((page) => ({
      background: page.background ?? layout.background,
      layers: page.layers,
    })),
  ];
}

export function pageCount(layout: Layout): number {
  return 1 + (layout.morePages?.length ?? 0);
}

/** The layers of every page (layer ids are unique across a layout's pages). */
export function layoutLayers(layout: Layout): Layer[] {
  return layoutPages(layout).flatMap((page) => withChildren(page.layers));
}

/** Layers and, after each stack, the layers it holds (at any depth), in drawing order. */
export function withChildren(layers: Layer[]): Layer[] {
  return layers.flatMap((layer) =>
    layer.kind === 'stack' ? [layer, ...withChildren(layer.layers)] : [layer],
  );
}

/** A layer with where it sits in the template JSON, for problems that point at it. */
export interface PlacedLayer {
  layer: Layer;
  /** `layouts.a4.layers[2]` or `layouts.badge.morePages[0].layers[1]`. */
  path: string;
}

/**
 * Every layer of every page of a layout, a stack's children after it
 * (`layouts.story.layers[3].layers[0]`), with its path under `layouts.<name>`.
 */
export function placedLayers(name: string, layout: Layout): PlacedLayer[] {
  return [
    ...placedIn(layout.layers, `layouts.${name}`),
    ...(layout.morePages ?? []).flatMap((page, pageIndex) =>
      placedIn(page.layers, `layouts.${name}.morePages[${pageIndex}]`),
    ),
  ];
}

function placedIn(layers: Layer[], parent: string): PlacedLayer[] {
  return layers.flatMap((layer, index) => {
    const path = `${parent}.layers[${index}]`;
    const placed = { layer, path };
    return layer.kind === 'stack' ? [placed, ...placedIn(layer.layers, path)] : [placed];
  });
}
