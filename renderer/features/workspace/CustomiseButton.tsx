import { useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';

/**
 * On a template's detail screen: "Customise" forks a built-in into My templates and opens the
 * editor; a workspace template is edited as it is.
 */
export function CustomiseButton({ templateId }: { templateId: string }): ReactElement {
  const t = useT();
  const navigate = useAppStore((s) => s.navigate);
  const toast = useAppStore((s) => s.toast);
  const [busy, setBusy] = useState(false);
  if (templateId.startsWith('wtpl_')) {
    return (
      <div className="row wrap">
        <Button icon="pencil" onClick={() => navigate({ name: 'editor', id: templateId })}>
          {t('workspace.edit')}
        </Button>
      </div>
    );
  }
  const fork = async () => {
    setBusy(true);
    try {
      const detail = await api.workspace.fork(templateId);
      toast('success', t('workspace.forked', { name: detail.name }));
      navigate({ name: 'editor', id: detail.id });
    } catch (e) {
      toast('error', (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row wrap">
      <Button icon="sparkles" busy={busy} onClick={() => void fork()}>
        {t('workspace.customise')}
      </Button>
      <span className="small subtle">{t('workspace.customise.hint')}</span>
    </div>
  );
}
