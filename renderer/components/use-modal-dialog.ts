import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps a native <dialog> modal while `open` is true and closed while it is false; returns the
 * ref to put on the element. `onOpen` runs just before the dialog opens (not on every render it
 * stays open), e.g. to reset a form; pass a stable function, since a new one re-runs the effect.
 *
 * The caller still wires the element's own `onClose`: Escape and `<form method="dialog">` close
 * the dialog natively, and the caller decides what that means for `open`.
 */
export function useModalDialog(
  open: boolean,
  onOpen?: () => void,
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Checking dialog.open first: showModal() throws on an open dialog, and a native close
    // (Escape) may already have closed it before `open` follows.
    if (open && !dialog.open) {
      onOpen?.();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, onOpen]);
  return ref;
}
