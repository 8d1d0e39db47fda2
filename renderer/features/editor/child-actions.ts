import { layoutLayers } from '../../../shared/layout-pages';
import { duplicateChild, findLayer, moveChild, removeChild } from '../../../shared/stack-children';
import { selectLayers, selectLayout, useEditorStore } from './editor-store';
import { withFreshIds } from './layer-ops';

/**
 * Actions on a layer inside a stack, shared by the layers panel, the inspector and the keyboard.
 * The stack places its children, so they move within its order rather than on the canvas.
 */
export const childActions = {
  /** -1 moves the child earlier in the stack (up in a vertical one), +1 later. */
  move(id: string, delta: number): void {
    useEditorStore.getState().updateLayers((layers) => moveChild(layers, id, delta));
  },

  /** A copy right after it in the stack, with fresh ids (its own and a stack's children's). */
  duplicate(id: string): void {
    const store = useEditorStore.getState();
    const layout = selectLayout(store);
    const layers = selectLayers(store);
    if (!layout || !layers) return;
    const taken = layoutLayers(layout).map((l) => l.id);
    const done = duplicateChild(layers, id, (layer) => withFreshIds(layer, taken));
    if (!done) return;
    store.updateLayers(() => done.layers);
    store.select(done.copy.id);
  },

  /**
   * Removes the child and selects its stack; `last` when it is the stack's only layer (refused:
   * the caller says so), `none` when the id is not a child.
   */
  remove(id: string): 'removed' | 'last' | 'none' {
    const store = useEditorStore.getState();
    const layers = selectLayers(store);
    const parent = layers ? findLayer(layers, id)?.parent : null;
    if (!layers || !parent) return 'none';
    const next = removeChild(layers, id);
    if (next === 'last') return 'last';
    store.updateLayers(() => next);
    if (store.selected === id) store.select(parent.id);
    return 'removed';
  },
};
