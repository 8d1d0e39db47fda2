import { useCallback, useId, useState, type ReactElement } from 'react';
import { useT } from '../i18n/i18n';
import { Button, ErrorBanner } from './ui';
import { useModalDialog } from './use-modal-dialog';

/** Asks for a name (a new brand, a rename); `onSubmit` does the work, and its error is shown. */
export function NameDialog({
  open,
  title,
  label,
  submitLabel,
  initialName,
  copyLabel,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The name field's label. */
  label: string;
  submitLabel: string;
  initialName: string;
  /** When given, a checkbox (on by default) whose state is passed to `onSubmit`. */
  copyLabel?: string;
  onSubmit: (name: string, copy: boolean) => Promise<void>;
  onClose: () => void;
}): ReactElement {
  const t = useT();
  const id = useId();
  const [name, setName] = useState(initialName);
  const [copy, setCopy] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Each opening starts from a clean form: the caller's name, the box ticked, no old error.
  const reset = useCallback(() => {
    setName(initialName);
    setCopy(true);
    setError(null);
  }, [initialName]);
  const ref = useModalDialog(open, reset);

  const submit = async () => {
    if (!name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(name.trim(), copy);
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="dialog-body stack gap-4">
          <h2 id={`${id}-title`}>{title}</h2>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-name`}>
              {label}
            </label>
            <input
              id={`${id}-name`}
              className="input"
              value={name}
              maxLength={120}
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          {copyLabel ? (
            <label className="check">
              <input type="checkbox" checked={copy} onChange={(e) => setCopy(e.target.checked)} />
              {copyLabel}
            </label>
          ) : null}
          {error ? <ErrorBanner error={error} /> : null}
        </div>
        <div className="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!name.trim() || busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
