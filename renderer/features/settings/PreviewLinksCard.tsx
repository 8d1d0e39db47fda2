import { useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { Button, ConfirmDialog, ErrorBanner } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';

/**
 * Settings → Preview links: what they are, and revoking every link made so far by rotating their
 * signing secret (`POST /v1/preview-links/rotate-secret`).
 */
export function PreviewLinksCard(): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const revoke = async () => {
    setError(null);
    try {
      await api.previewLinks.rotateSecret();
      toast('success', t('previewLinks.revoked'));
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section className="card" data-testid="preview-links-card">
      <div className="card-header">
        <div>
          <h2>{t('previewLinks.title')}</h2>
          <p className="small muted">{t('previewLinks.subtitle')}</p>
        </div>
      </div>
      <div className="card-body stack gap-3">
        {error ? <ErrorBanner error={error} /> : null}
        <p className="small muted">{t('previewLinks.revoke.hint')}</p>
        <div>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('previewLinks.revoke')}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('previewLinks.revoke')}
        body={t('previewLinks.revoke.confirm')}
        confirmLabel={t('previewLinks.revoke')}
        danger
        onConfirm={() => void revoke()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
