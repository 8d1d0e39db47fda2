import { create } from 'zustand';
import type {
  Layer,
  Layout,
  Paint,
  Problem,
  Ratio,
  StackLayer,
  Template,
  Variable,
  WorkspaceTemplateDetail,
} from '../../api/types';
import {
  clampPage,
  pageBackground,
  pageLayers,
  pageTotal,
  withPageAdded,
  withPageBackground,
  withPageLayers,
  withPageRemoved,
} from './layout-page';
import type { Guide } from './snapping';
import { findLayer, updateLayerIn } from '../../../shared/stack-children';

/** Enough steps for an editing session; older ones fall off. */
const HISTORY_LIMIT = 200;
/** Edits with the same key this close together are one undo step (a drag, typing in a field). */
const COALESCE_MS = 1000;

export type SaveState = 'idle' | 'saving' | 'conflict' | 'error';

export interface EditorState {
  id: string | null;
  draft: Template | null;
  /** The document as last saved; `draft !== saved` means unsaved changes (undo restores refs). */
  saved: Template | null;
  version: number;
  updatedAt: string | null;
  /** Bumped by every change of the draft; the preview tags its image with the one it shows. */
  revision: number;
  ratio: Ratio;
  /** The page of the layout being edited, from 0 (page 1). */
  page: number;
  selected: string | null;
  past: Template[];
  future: Template[];
  lastKey: string | null;
  lastAt: number;
  guides: Guide[];
  /** Problems the server reported for the draft (preview or save), with their paths. */
  problems: Problem[];
  saveState: SaveState;
  saveError: unknown;
  /** Bumped when a gesture ends (pointer up): the preview renders at once, without debounce. */
  settled: number;

  load: (detail: WorkspaceTemplateDetail) => void;
  setRatio: (ratio: Ratio) => void;
  setPage: (page: number) => void;
  /** Adds a blank page after the last and switches to it. */
  addPage: () => void;
  /** Removes the page being edited (a layout keeps at least one). */
  removePage: () => void;
  select: (id: string | null) => void;
  /** Applies a change to the draft as one undo step (or part of the step `key` started). */
  edit: (change: (template: Template) => Template, key?: string) => void;
  /** Changes the layer of `id` on the page being edited, at the top or inside a stack. */
  updateLayer: (id: string, change: (layer: Layer) => Layer, key?: string) => void;
  updateLayout: (change: (layout: Layout) => Layout, key?: string) => void;
  /** Changes the layers of the page being edited. */
  updateLayers: (change: (layers: Layer[]) => Layer[], key?: string) => void;
  setBackground: (background: Paint, key?: string) => void;
  setVariables: (change: (variables: Variable[]) => Variable[], key?: string) => void;
  undo: () => void;
  redo: () => void;
  setGuides: (guides: Guide[]) => void;
  settle: () => void;
  setProblems: (problems: Problem[]) => void;
  setSaveState: (state: SaveState, error?: unknown) => void;
  markSaved: (detail: WorkspaceTemplateDetail, sent: Template) => void;
}

const initial = {
  id: null,
  draft: null,
  saved: null,
  version: 0,
  updatedAt: null,
  revision: 0,
  ratio: 'square' as Ratio,
  page: 0,
  selected: null,
  past: [],
  future: [],
  lastKey: null,
  lastAt: 0,
  guides: [],
  problems: [],
  saveState: 'idle' as SaveState,
  saveError: null,
  settled: 0,
};

/** The editor's own store: one template at a time, reset by `load`. */
export const useEditorStore = create<EditorState>()((set, get) => ({
  ...initial,

  load: (detail) => {
    const ratio = firstRatio(detail.template);
    set({
      ...initial,
      id: detail.id,
      draft: detail.template,
      saved: detail.template,
      version: detail.version,
      updatedAt: detail.updatedAt,
      ratio,
    });
  },

  setRatio: (ratio) => {
    const layout = get().draft?.layouts[ratio];
    const selected = get().selected;
    const page = clampPage(layout, get().page);
    set({
      ratio,
      page,
      guides: [],
      // Keep the selection when the other ratio has a layer of the same id on the same page.
      selected:
        layout && selected !== null && findLayer(pageLayers(layout, page), selected)
          ? selected
          : null,
    });
  },

  setPage: (page) => {
    const layout = get().draft?.layouts[get().ratio];
    const next = clampPage(layout, page);
    if (next === get().page) return;
    set({ page: next, guides: [], selected: null });
  },

  addPage: () => {
    const { ratio, draft } = get();
    const layout = draft?.layouts[ratio];
    if (!layout) return;
    const next = withPageAdded(layout);
    if (next === layout) return;
    get().updateLayout(() => next);
    set({ page: pageTotal(next) - 1, selected: null, guides: [] });
  },

  removePage: () => {
    const { page } = get();
    get().updateLayout((layout) => withPageRemoved(layout, page));
    const layout = get().draft?.layouts[get().ratio];
    set({ page: clampPage(layout, page), selected: null, guides: [] });
  },

  select: (selected) => {
    if (get().selected !== selected) set({ selected });
  },

  edit: (change, key) => {
    const { draft, past, lastKey, lastAt, revision } = get();
    if (!draft) return;
    const next = change(draft);
    if (next === draft) return;
    const now = performance.now();
    const coalesce = key !== undefined && key === lastKey && now - lastAt < COALESCE_MS;
    set({
      draft: next,
      revision: revision + 1,
      past: coalesce ? past : [...past, draft].slice(-HISTORY_LIMIT),
      future: [],
      lastKey: key ?? null,
      lastAt: now,
    });
  },

  updateLayout: (change, key) => {
    const ratio = get().ratio;
    get().edit((template) => {
      const layout = template.layouts[ratio];
      if (!layout) return template;
      const next = change(layout);
      if (next === layout) return template;
      return { ...template, layouts: { ...template.layouts, [ratio]: next } };
    }, key);
  },

  updateLayers: (change, key) => {
    const page = get().page;
    get().updateLayout(
      (layout) => withPageLayers(layout, page, change(pageLayers(layout, page))),
      key,
    );
  },

  setBackground: (background, key) => {
    const page = get().page;
    get().updateLayout((layout) => withPageBackground(layout, page, background), key);
  },

  updateLayer: (id, change, key) => {
    get().updateLayers((layers) => updateLayerIn(layers, id, change), key);
  },

  setVariables: (change, key) => {
    get().edit((template) => {
      const variables = change(template.variables);
      return variables === template.variables ? template : { ...template, variables };
    }, key);
  },

  undo: () => {
    const { draft, past, future, revision, ratio, page } = get();
    const previous = past[past.length - 1];
    if (!draft || !previous) return;
    set({
      draft: previous,
      past: past.slice(0, -1),
      future: [draft, ...future],
      revision: revision + 1,
      lastKey: null,
      ...afterHistory(previous, ratio, page),
    });
  },

  redo: () => {
    const { draft, past, future, revision, ratio, page } = get();
    const next = future[0];
    if (!draft || !next) return;
    set({
      draft: next,
      past: [...past, draft],
      future: future.slice(1),
      revision: revision + 1,
      lastKey: null,
      ...afterHistory(next, ratio, page),
    });
  },

  setGuides: (guides) => {
    if (guides.length === 0 && get().guides.length === 0) return;
    set({ guides });
  },

  settle: () => set({ settled: get().settled + 1 }),

  setProblems: (problems) => {
    if (problems.length === 0 && get().problems.length === 0) return;
    set({ problems });
  },

  setSaveState: (saveState, saveError = null) => set({ saveState, saveError }),

  markSaved: (detail, sent) => {
    set({
      saved: sent,
      version: detail.version,
      updatedAt: detail.updatedAt,
      saveState: 'idle',
      saveError: null,
      problems: [],
      // A new undo step starts after a save, so typing on does not merge into the saved one.
      lastKey: null,
    });
  },
}));

/** The size and page to show after an undo or redo: the same when they still exist. */
function afterHistory(
  template: Template,
  ratio: Ratio,
  page: number,
): { ratio: Ratio; page: number } {
  const kept = template.layouts[ratio] ? ratio : firstRatio(template);
  return { ratio: kept, page: kept === ratio ? clampPage(template.layouts[kept], page) : 0 };
}

export function firstRatio(template: Template): Ratio {
  return (Object.keys(template.layouts)[0] as Ratio | undefined) ?? 'square';
}

/** The layout being edited (selector helper). */
export function selectLayout(state: EditorState): Layout | undefined {
  return state.draft?.layouts[state.ratio];
}

/** The layers of the page being edited. */
export function selectLayers(state: EditorState): Layer[] | undefined {
  const layout = selectLayout(state);
  return layout ? pageLayers(layout, state.page) : undefined;
}

export function selectBackground(state: EditorState): Paint | undefined {
  const layout = selectLayout(state);
  return layout ? pageBackground(layout, state.page) : undefined;
}

/** The selected layer: one of the page's, or a child of one of its stacks. */
export function selectSelectedLayer(state: EditorState): Layer | undefined {
  const layers = selectLayers(state);
  if (!layers || state.selected === null) return undefined;
  return findLayer(layers, state.selected)?.layer;
}

/** The stack holding the selected layer; null when it is at the top of the page (or none is). */
export function selectSelectedParent(state: EditorState): StackLayer | null {
  const layers = selectLayers(state);
  if (!layers || state.selected === null) return null;
  return findLayer(layers, state.selected)?.parent ?? null;
}

export function selectDirty(state: EditorState): boolean {
  return state.draft !== state.saved;
}
