import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';

/**
 * Settings → Image URLs in data: whether http(s) image values are fetched, and from which hosts
 * (`PUT /v1/system/image-urls`). The hosts are edited one per line.
 */
export function ImageUrlsCard(): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const [error, setError] = useState<unknown>(null);
  const [enabled, setEnabled] = useState(false);
  const [hosts, setHosts] = useState('');
  const [busy, setBusy] = useState(false);
  // Editable once the saved setting is in: a change made before would be overwritten by it.
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    void api.system.imageUrls().then((saved) => {
      setEnabled(saved.enabled);
      setHosts(saved.allowedHosts.join('\n'));
      setLoaded(true);
    }, setError);
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const saved = await api.system.putImageUrls({
        enabled,
        allowedHosts: hosts
          .split(/[\s,]+/)
          .map((host) => host.trim())
          .filter((host) => host !== ''),
      });
      setHosts(saved.allowedHosts.join('\n'));
      toast('success', t('imageUrls.saved'));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" data-testid="image-urls-card">
      <div className="card-header">
        <div>
          <h2>{t('imageUrls.title')}</h2>
          <p className="small muted">{t('imageUrls.subtitle')}</p>
        </div>
      </div>
      <form className="card-body stack gap-4" onSubmit={(e) => void save(e)}>
        {error ? <ErrorBanner error={error} /> : null}
        <fieldset className="form-gate stack gap-4" disabled={!loaded} aria-busy={!loaded}>
          <label className="row gap-2">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              data-testid="image-urls-enabled"
            />
            <span>{t('imageUrls.enabled')}</span>
          </label>
          <Field label={t('imageUrls.hosts')} hint={t('imageUrls.hosts.hint')}>
            {({ id, describedBy }) => (
              <textarea
                id={id}
                aria-describedby={describedBy}
                className="textarea mono"
                rows={3}
                spellCheck={false}
                placeholder={'images.example.com\n*.cdn.example.com'}
                value={hosts}
                onChange={(e) => setHosts(e.target.value)}
                data-testid="image-urls-hosts"
              />
            )}
          </Field>
          <p className="small muted">{t('imageUrls.rules')}</p>
          <div>
            <Button type="submit" variant="primary" disabled={busy}>
              {t('common.save')}
            </Button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
