import { useEffect } from 'react';
import { childActions } from './child-actions';
import { selectSelectedLayer, selectSelectedParent, useEditorStore } from './editor-store';
import { layerActions } from './LayersPanel';
import { saveDraft } from './save-draft';

/** Where the keyboard belongs to the control (typing, choosing), not to the canvas. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.closest) return false;
  return Boolean(
    el.closest('input, textarea, select, [contenteditable], [role="radio"], dialog[open]'),
  );
}

/** A key pressed among the layer's properties edits them; it never deletes the layer. */
function inInspector(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el?.closest?.('.ed-inspector'));
}

/** Enter on the canvas itself (not on a button, which Enter presses). */
function onCanvas(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el?.classList?.contains('ed-overlay'));
}

/**
 * Editor shortcuts: Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, Ctrl/Cmd+S save; with a
 * layer selected, arrows nudge 1 px (Shift: 10 px), Delete removes it, Escape deselects. A
 * stack's child is placed by its stack: arrows leave it, Escape goes back to the stack, and on
 * the canvas Enter goes from a stack to its first layer.
 */
export function useEditorKeys(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const store = useEditorStore.getState();
      if (mod && key === 's') {
        event.preventDefault();
        void saveDraft();
        return;
      }
      // Text fields keep their own undo while typing.
      if (isTyping(event.target)) return;
      if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) store.redo();
        else store.undo();
        return;
      }
      if (mod && key === 'y') {
        event.preventDefault();
        store.redo();
        return;
      }
      const layer = selectSelectedLayer(store);
      if (!layer || mod || event.altKey) return;
      const parent = selectSelectedParent(store);
      if (parent) {
        if ((key === 'delete' || key === 'backspace') && !inInspector(event.target)) {
          event.preventDefault();
          // The stack's only layer stays: the inspector says why.
          childActions.remove(layer.id);
        } else if (key === 'escape') {
          store.select(parent.id);
        } else if (key === 'enter' && layer.kind === 'stack' && onCanvas(event.target)) {
          event.preventDefault();
          store.select(layer.layers[0]?.id ?? layer.id);
        }
        return;
      }
      if (key === 'enter' && layer.kind === 'stack' && onCanvas(event.target)) {
        event.preventDefault();
        store.select(layer.layers[0]?.id ?? layer.id);
        return;
      }
      const step = event.shiftKey ? 10 : 1;
      const nudges: Record<string, [number, number]> = {
        arrowleft: [-step, 0],
        arrowright: [step, 0],
        arrowup: [0, -step],
        arrowdown: [0, step],
      };
      const nudge = nudges[key];
      if (nudge) {
        event.preventDefault();
        store.updateLayer(
          layer.id,
          (l) => ({ ...l, x: l.x + nudge[0], y: l.y + nudge[1] }),
          `nudge-${layer.id}`,
        );
      } else if ((key === 'delete' || key === 'backspace') && !inInspector(event.target)) {
        event.preventDefault();
        layerActions.remove(layer.id);
      } else if (key === 'escape') {
        store.select(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
