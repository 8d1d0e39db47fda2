import { MAX_PAGES } from '../../../shared/template-limits';
import type { Layer, Layout, Paint } from '../../api/types';

/**
 * One page of a layout as the editor edits it, by index from 0: page 0 is the layout's own
 * layers and background, page n is `morePages[n - 1]`. These read and write a page without
 * touching the others, and keep the references of what they do not change.
 */

export function pageTotal(layout: Layout): number {
  return 1 + (layout.morePages?.length ?? 0);
}

/** A page index kept within the layout's pages (after an undo removed one, or a size switch). */
export function clampPage(layout: Layout | undefined, page: number): number {
  if (!layout) return 0;
  return Math.min(Math.max(0, page), pageTotal(layout) - 1);
}

/** One array for a page that is not there, so selectors reading it stay stable. */
const NO_LAYERS: Layer[] = [];

export function pageLayers(layout: Layout, page: number): Layer[] {
  return page === 0 ? layout.layers : (layout.morePages?.[page - 1]?.layers ?? NO_LAYERS);
}

/** The page's background: its own, or the layout's when it has none. */
export function pageBackground(layout: Layout, page: number): Paint {
  return (page === 0 ? undefined : layout.morePages?.[page - 1]?.background) ?? layout.background;
}

export function withPageLayers(layout: Layout, page: number, layers: Layer[]): Layout {
  if (layers === pageLayers(layout, page)) return layout;
  if (page === 0) return { ...layout, layers };
  const morePages = (layout.morePages ?? []).map((p, i) => (i === page - 1 ? { ...p, layers } : p));
  return { ...layout, morePages };
}

export function withPageBackground(layout: Layout, page: number, background: Paint): Layout {
  if (page === 0) return { ...layout, background };
  const morePages = (layout.morePages ?? []).map((p, i) =>
    i === page - 1 ? { ...p, background } : p,
  );
  return { ...layout, morePages };
}

export function canAddPage(layout: Layout): boolean {
  return pageTotal(layout) < MAX_PAGES;
}

/** A blank page after the last one, drawn on the layout's background. */
export function withPageAdded(layout: Layout): Layout {
  if (!canAddPage(layout)) return layout;
  return { ...layout, morePages: [...(layout.morePages ?? []), { layers: [] }] };
}

/**
 * The layout without one page. Removing page 1 moves page 2 up in its place (its layers, and its
 * background when it has its own); a layout keeps at least one page.
 */
export function withPageRemoved(layout: Layout, page: number): Layout {
  const more = layout.morePages ?? [];
  if (more.length === 0) return layout;
  let next: Layout;
  if (page === 0) {
    const [second, ...rest] = more;
    next = {
      ...layout,
      background: second?.background ?? layout.background,
      layers: second?.layers ?? [],
      morePages: rest,
    };
  } else {
    next = { ...layout, morePages: more.filter((_, i) => i !== page - 1) };
  }
  if (next.morePages?.length === 0) delete next.morePages;
  return next;
}

/** The server's path of a page's layers in a template, for problems that point at them. */
export function pageLayersPath(ratio: string, page: number): string {
  return page === 0 ? `layouts.${ratio}.layers` : `layouts.${ratio}.morePages[${page - 1}].layers`;
}
