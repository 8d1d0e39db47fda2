import { useEffect } from 'react';
import { selectSelectedLayer, useEditorStore } from './editor-store';
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

/**
 * Editor shortcuts: Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, Ctrl/Cmd+S save; with a
 * layer selected, arrows nudge 1 px (Shift: 10 px), Delete removes it, Escape deselects.
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
