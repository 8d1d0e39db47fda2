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
  return layoutPages(layout).flatMap((page) => page.layers);
}

/** A layer with where it sits in the template JSON, for problems that point at it. */
export interface PlacedLayer {
  layer: Layer;
  /** `layouts.a4.layers[2]` or `layouts.badge.morePages[0].layers[1]`. */
  path: string;
}

/** Every layer of every page of a layout, with its path under `layouts.<name>`. */
export function placedLayers(name: string, layout: Layout): PlacedLayer[] {
  return [
    ...layout.layers.map((layer, index) => ({ layer, path: `layouts.${name}.layers[${index}]` })),
    ...(layout.morePages ?? []).flatMap((page, pageIndex) =>
      page.layers.map((layer, index) => ({
        layer,
        path: `layouts.${name}.morePages[${pageIndex}].layers[${index}]`,
      })),
    ),
  ];
}
