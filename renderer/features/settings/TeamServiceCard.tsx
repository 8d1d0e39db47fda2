import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import { rememberTeamService, useTeamService } from '../../api/use-team-service';
import type { TeamServiceStatus, TeamServiceUpdate } from '../../api/types';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { useT, type Translate } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';

type SecretName = 'postgresPassword' | 'redisPassword' | 's3AccessKeyId' | 's3SecretAccessKey';
const SECRETS: SecretName[] = [
  'postgresPassword',
  'redisPassword',
  's3AccessKeyId',
  's3SecretAccessKey',
];
const NO_SECRETS: Record<SecretName, string> = {
  postgresPassword: '',
  redisPassword: '',
  s3AccessKeyId: '',
  s3SecretAccessKey: '',
};

/**
 * Settings → Team service: the shared service this app opens, and lending this computer's
 * render threads to it. Secrets are write-only: the fields show whether one is saved, and a
 * typed value replaces it.
 */
export function TeamServiceCard(): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const teamService = useTeamService();
  const status = teamService.data ?? null;
  const [actionError, setError] = useState<unknown>(null);
  const error = actionError ?? (status ? null : teamService.error);
  const [busy, setBusy] = useState<'save' | 'check' | 'open' | null>(null);
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [lend, setLend] = useState(false);
  const [workers, setWorkers] = useState('1');
  const [postgresUrl, setPostgresUrl] = useState('');
  const [secrets, setSecrets] = useState(NO_SECRETS);

  /** The form shows what was saved: when first loaded and after each save (not each refresh). */
  const adopt = useCallback((next: TeamServiceStatus) => {
    setUrl(next.url ?? '');
    setLend(next.lend.enabled);
    setWorkers(String(next.lend.workers));
    // Shown with its password masked; sent back unchanged, the server keeps the saved one.
    setPostgresUrl(next.lend.postgresUrl ?? '');
  }, []);

  const adopted = useRef(false);
  useEffect(() => {
    if (!status || adopted.current) return;
    adopted.current = true;
    adopt(status);
  }, [status, adopt]);

  const run = async (what: 'save' | 'check' | 'open', work: () => Promise<void>) => {
    setError(null);
    setBusy(what);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    return run('save', async () => {
      const typed = Object.fromEntries(
        SECRETS.filter((name) => secrets[name] !== '').map((name) => [name, secrets[name]]),
      );
      const update: TeamServiceUpdate = {
        url: url.trim() === '' ? null : url.trim(),
        ...(apiKey !== '' ? { apiKey } : {}),
        lend: {
          enabled: lend,
          workers: Math.max(1, Number(workers) || 1),
          // The URL as shown (its password masked) keeps the saved one.
          postgresUrl: postgresUrl.trim() === '' ? null : postgresUrl.trim(),
        },
        secrets: typed,
      };
      const saved = await api.teamService.save(update);
      rememberTeamService(saved);
      adopt(saved);
      setApiKey('');
      setSecrets(NO_SECRETS);
      toast('success', t('team.saved'));
    });
  };

  const check = () =>
    run('check', async () => {
      const result = await api.teamService.check();
      toast(
        'success',
        t('team.checked', {
          url: result.url,
          version: result.version,
          mode: t(result.mode === 'cluster' ? 'team.mode.cluster' : 'team.mode.embedded'),
        }),
      );
    });

  const open = () =>
    run('open', async () => {
      const { url: link } = await api.teamService.open();
      // In the desktop window another site opens in the browser; in a browser, in a new tab.
      window.open(link, '_blank', 'noopener,noreferrer');
    });

  const secretHint = (set: boolean | undefined) =>
    set ? t('team.secret.saved') : t('team.secret.none');

  return (
    <section className="card" aria-labelledby="team-service-title" data-testid="team-service">
      <div className="card-header">
        <h2 id="team-service-title">{t('team.title')}</h2>
      </div>
      <form className="card-body stack gap-4" onSubmit={(e) => void save(e)}>
        <p className="small muted">{t('team.subtitle')}</p>
        {error ? <ErrorBanner error={error} /> : null}
        {/* Editable once the saved settings are in: a value typed before would be overwritten. */}
        <fieldset
          className="form-gate stack gap-4"
          disabled={status === null}
          aria-busy={status === null}
        >
          <div className="field-row">
            <Field label={t('team.url')} hint={t('team.url.hint')}>
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  className="input"
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  placeholder="https://render.example.com"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                />
              )}
            </Field>
            <Field
              label={t('team.key')}
              hint={status?.apiKeySet ? t('team.key.saved') : t('team.key.none')}
            >
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  className="input"
                  type="password"
                  autoComplete="off"
                  placeholder={status?.apiKeySet ? '••••••••' : 'rdk_…'}
                  value={apiKey}
                  onChange={(e) => setApiKey(e.target.value)}
                />
              )}
            </Field>
          </div>

          <fieldset className="stack gap-3">
            <legend>{t('team.lend')}</legend>
            <p className="small muted">{t('team.lend.hint')}</p>
            <label className="row gap-2">
              <input
                type="checkbox"
                checked={lend}
                onChange={(e) => setLend(e.target.checked)}
                data-testid="team-lend"
              />
              <span>{t('team.lend.enabled')}</span>
            </label>
            <div className="field-row">
              <Field label={t('team.lend.postgres')}>
                {({ id }) => (
                  <input
                    id={id}
                    className="input"
                    autoComplete="off"
                    placeholder="postgres://render@db.example.com/render_desk"
                    value={postgresUrl}
                    onChange={(e) => setPostgresUrl(e.target.value)}
                  />
                )}
              </Field>
              <Field label={t('team.lend.workers')}>
                {({ id }) => (
                  <input
                    id={id}
                    className="input num"
                    type="number"
                    min={1}
                    max={64}
                    value={workers}
                    onChange={(e) => setWorkers(e.target.value)}
                  />
                )}
              </Field>
            </div>
            <div className="field-row">
              {SECRETS.map((name) => (
                <Field
                  key={name}
                  label={t(`team.lend.${name}`)}
                  hint={secretHint(status?.secretsSet[name])}
                >
                  {({ id, describedBy }) => (
                    <input
                      id={id}
                      aria-describedby={describedBy}
                      className="input"
                      type="password"
                      autoComplete="off"
                      value={secrets[name]}
                      onChange={(e) => setSecrets((s) => ({ ...s, [name]: e.target.value }))}
                    />
                  )}
                </Field>
              ))}
            </div>
            {status ? (
              <p className="small" role="status" data-testid="team-worker">
                {workerText(t, status)}
              </p>
            ) : null}
          </fieldset>

          <div className="row gap-2 wrap">
            <Button type="submit" variant="primary" busy={busy === 'save'}>
              {t('team.save')}
            </Button>
            <Button
              onClick={() => void check()}
              busy={busy === 'check'}
              disabled={!status?.url || !status.apiKeySet}
            >
              {t('team.check')}
            </Button>
            <Button
              icon="external"
              onClick={() => void open()}
              busy={busy === 'open'}
              disabled={!status?.url || !status.apiKeySet}
            >
              {t('team.open')}
            </Button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}

function workerText(t: Translate, status: TeamServiceStatus): string {
  const { worker } = status;
  switch (worker.status) {
    case 'off':
      return t('team.worker.off');
    case 'starting':
      return t('team.worker.starting');
    case 'running':
      return t('team.worker.running', { n: status.lend.workers, node: worker.nodeId ?? '—' });
    case 'restarting':
      return t('team.worker.restarting', { detail: worker.detail ?? '' });
    case 'failed':
      return t('team.worker.failed', { detail: worker.detail ?? '' });
  }
}
