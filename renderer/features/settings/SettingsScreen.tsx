import { useEffect, useState, type ReactElement } from 'react';
import type { Preferences } from '../../api/types';
import { Button, ErrorBanner, Field, Segmented } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import { ImageUrlsCard } from './ImageUrlsCard';
import { PreviewLinksCard } from './PreviewLinksCard';
import { TeamServiceCard } from './TeamServiceCard';
import { WebhooksCard } from './WebhooksCard';

export function SettingsScreen(): ReactElement {
  const t = useT();
  const system = useAppStore((s) => s.system);
  const preferences = useAppStore((s) => s.preferences);
  const loadSystem = useAppStore((s) => s.loadSystem);
  const savePreferences = useAppStore((s) => s.savePreferences);
  const toast = useAppStore((s) => s.toast);
  const [error, setError] = useState<unknown>(null);
  const [workers, setWorkers] = useState<string>(preferences.workers?.toString() ?? '');
  const [port, setPort] = useState<string>(preferences.port?.toString() ?? '');

  useEffect(() => {
    void loadSystem().catch(setError);
  }, [loadSystem]);
  useEffect(() => {
    setWorkers(preferences.workers?.toString() ?? '');
    setPort(preferences.port?.toString() ?? '');
  }, [preferences.workers, preferences.port]);

  const save = async (patch: Partial<Preferences>, message?: string) => {
    setError(null);
    try {
      await savePreferences(patch);
      if (message) toast('success', message);
    } catch (e) {
      setError(e);
    }
  };

  const restartNeeded =
    (preferences.workers ?? null) !== null &&
    system !== null &&
    preferences.workers !== system.workers;

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('settings.title')}</h1>
          <p>{t('settings.subtitle')}</p>
        </div>
      </header>
      {error ? <ErrorBanner error={error} /> : null}

      <section className="card">
        <div className="card-header">
          <h2>{t('settings.appearance')}</h2>
        </div>
        <div className="card-body stack gap-4">
          <Field label={t('settings.theme')}>
            {({ id }) => (
              <Segmented
                id={id}
                label={t('settings.theme')}
                value={preferences.theme}
                onChange={(theme) => void save({ theme })}
                options={[
                  { value: 'system', label: t('settings.theme.system') },
                  { value: 'light', label: t('settings.theme.light') },
                  { value: 'dark', label: t('settings.theme.dark') },
                ]}
              />
            )}
          </Field>
          <Field label={t('settings.language')}>
            {({ id }) => (
              <select
                id={id}
                className="select"
                style={{ maxWidth: 280 }}
                value={preferences.language}
                onChange={(e) => void save({ language: e.target.value as Preferences['language'] })}
                data-testid="language-select"
              >
                <option value="system">{t('settings.language.system')}</option>
                <option value="en">English</option>
                <option value="vi">Tiếng Việt</option>
              </select>
            )}
          </Field>
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>{t('settings.performance')}</h2>
        </div>
        <form
          className="card-body stack gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void save(
              {
                workers: workers === '' ? null : Number(workers),
                port: port === '' ? null : Number(port),
              },
              t('settings.saved'),
            );
          }}
        >
          <div className="field-row">
            <Field
              label={t('settings.workers')}
              hint={t('settings.workers.hint', { current: system?.workers ?? '—' })}
            >
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  className="input num"
                  type="number"
                  min={1}
                  max={64}
                  placeholder={t('settings.workers.auto')}
                  value={workers}
                  onChange={(e) => setWorkers(e.target.value)}
                />
              )}
            </Field>
            <Field
              label={t('settings.port')}
              hint={t('settings.port.hint', { current: system ? String(system.port) : '—' })}
            >
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  className="input num"
                  type="number"
                  min={0}
                  max={65535}
                  placeholder={t('settings.port.auto')}
                  value={port}
                  onChange={(e) => setPort(e.target.value)}
                />
              )}
            </Field>
          </div>
          {restartNeeded ? <p className="small muted">{t('settings.restart')}</p> : null}
          <div>
            <Button type="submit" variant="primary">
              {t('common.save')}
            </Button>
          </div>
        </form>
      </section>

      {system?.mode === 'embedded' ? <TeamServiceCard /> : null}

      <ImageUrlsCard />

      <PreviewLinksCard />

      <WebhooksCard cluster={system?.mode === 'cluster'} />

      <section className="card">
        <div className="card-header">
          <h2>{t('settings.data')}</h2>
        </div>
        <dl className="card-body kv">
          <dt>{t('settings.dataDir')}</dt>
          <dd className="row">
            <code>{system?.dataDir ?? '—'}</code>
            {native.canRevealInFolder() && system ? (
              <Button
                size="sm"
                icon="folder"
                onClick={() => void native.revealInFolder(system.dataDir)}
              >
                {t('settings.reveal')}
              </Button>
            ) : null}
          </dd>
          <dt>{t('settings.version')}</dt>
          <dd>{system?.version ?? '—'}</dd>
        </dl>
      </section>
    </div>
  );
}
