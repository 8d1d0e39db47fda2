import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { WorkspaceTemplateItem } from '../../api/types';
import { Button, ErrorBanner } from '../../components/ui';
import { useT } from '../../i18n/i18n';

/** Renames a workspace template (a save of its name as a new version). */
export function RenameDialog({
  item,
  onClose,
  onRenamed,
}: {
  item: WorkspaceTemplateItem | null;
  onClose: () => void;
  onRenamed: () => void;
}): ReactElement {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (item && !dialog.open) {
      setName(item.name);
      setError(null);
      dialog.showModal();
    }
    if (!item && dialog.open) dialog.close();
  }, [item]);

  const submit = async () => {
    if (!item || !name.trim()) return;
    setBusy(true);
    try {
      await api.workspace.patch(item.id, { name: name.trim(), baseVersion: item.version });
      onRenamed();
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
          <h2 id={`${id}-title`}>{t('workspace.rename')}</h2>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-name`}>
              {t('workspace.rename.label')}
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
          {error ? <ErrorBanner error={error} /> : null}
        </div>
        <div className="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()}>
            {t('workspace.rename')}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
