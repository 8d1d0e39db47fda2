import { useCallback, useEffect, useId, useState, type ReactElement } from 'react';
import { KEY_SCOPES, type KeyScope } from '../../../shared/key-scopes';
import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import type { ApiKey, NewApiKey } from '../../api/types';
import { Icon } from '../../components/Icon';
import {
  Button,
  ConfirmDialog,
  CopyButton,
  EmptyState,
  ErrorBanner,
  Field,
  Loading,
} from '../../components/ui';
import { formatDateTime, formatNumber, useLanguage, useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { useAccount } from '../../api/use-account';

export function LocalApiScreen(): ReactElement {
  const t = useT();
  const language = useLanguage();
  const system = useAppStore((s) => s.system);
  const loadSystem = useAppStore((s) => s.loadSystem);
  const account = useAccount().data ?? null;
  useEffect(() => {
    void loadSystem().catch(() => {});
  }, [loadSystem]);
  const base = system?.url ?? location.origin;
  // A key just made goes into the examples, so they run as pasted.
  const [newKey, setNewKey] = useState<string | null>(null);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('api.title')}</h1>
          <p>{t('api.subtitle')}</p>
        </div>
      </header>

      <section className="card">
        <div className="card-header">
          <h2>{t('api.server')}</h2>
        </div>
        <dl className="card-body kv">
          <dt>{t('api.url')}</dt>
          <dd className="row">
            <code data-testid="api-url">{base}</code>
            <CopyButton text={base} />
          </dd>
          <dt>{t('api.rateLimit')}</dt>
          <dd>
            {account
              ? t('api.rateLimit.value', {
                  limit: formatNumber(language, account.rateLimit.limit),
                  seconds: account.rateLimit.windowSeconds,
                })
              : '—'}
          </dd>
          <dt>{t('api.openapi')}</dt>
          <dd>
            <code>{base}/v1/openapi.json</code>
          </dd>
        </dl>
      </section>

      <ApiKeys onCreated={setNewKey} />
      <Examples base={base} secret={newKey} />
    </div>
  );
}

function ApiKeys({ onCreated }: { onCreated: (secret: string) => void }): ReactElement {
  const t = useT();
  const language = useLanguage();
  const toast = useAppStore((s) => s.toast);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('render');
  const scopeHintId = useId();
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<unknown>(null);
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const load = useCallback(() => {
    api.apiKeys.list().then((list) => {
      setKeys(list);
      setError(null);
    }, setError);
  }, []);
  useEffect(load, [load]);

  const create = async () => {
    setCreating(true);
    setCreateError(null);
    try {
      const key = await api.apiKeys.create(name.trim(), scope);
      setCreated(key);
      onCreated(key.secret);
      setName('');
      setScope('render');
      load();
    } catch (e) {
      setCreateError(e);
    } finally {
      setCreating(false);
    }
  };

  return (
    <section className="card">
      <div className="card-header">
        <h2>{t('api.keys')}</h2>
      </div>
      <div className="card-body stack gap-4">
        <form
          className="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Field
            label={t('api.key.name')}
            error={isApiError(createError) ? createError.problemFor('name') : undefined}
          >
            {({ id, invalid }) => (
              <input
                id={id}
                className="input"
                value={name}
                maxLength={80}
                required
                aria-invalid={invalid || undefined}
                placeholder={t('api.key.name.placeholder')}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Field label={t('api.key.scope')}>
            {({ id }) => (
              <select
                id={id}
                className="select"
                value={scope}
                aria-describedby={scopeHintId}
                data-testid="key-scope"
                onChange={(e) => setScope(e.target.value as KeyScope)}
              >
                {KEY_SCOPES.map((option) => (
                  <option key={option} value={option}>
                    {t(`api.scope.${option}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Button
            type="submit"
            variant="primary"
            icon="key"
            busy={creating}
            disabled={creating || name.trim() === ''}
          >
            {t('api.key.create')}
          </Button>
        </form>
        <p className="small muted" id={scopeHintId}>
          {t(`api.scope.${scope}.hint`)}
        </p>
        {createError && !(isApiError(createError) && createError.problemFor('name')) ? (
          <ErrorBanner error={createError} />
        ) : null}

        {created ? (
          <div className="banner success new-key" role="status">
            <Icon name="key" />
            <div className="grow stack gap-2">
              <div className="banner-title">{t('api.key.created')}</div>
              <div className="row">
                <code
                  className="secret"
                  data-testid="new-key-secret"
                  aria-label={t('api.key.secret')}
                >
                  {created.secret}
                </code>
                <CopyButton text={created.secret} />
              </div>
            </div>
            <Button
              variant="ghost"
              size="sm"
              icon="x"
              aria-label={t('common.dismiss')}
              onClick={() => setCreated(null)}
            />
          </div>
        ) : null}
      </div>

      {error ? (
        <div className="card-body">
          <ErrorBanner error={error} onRetry={load} />
        </div>
      ) : null}
      {keys === null && !error ? <Loading /> : null}
      {keys && keys.length === 0 ? <EmptyState icon="key" title={t('api.keys.empty')} /> : null}
      {keys && keys.length > 0 ? (
        <table className="table" data-testid="api-keys">
          <thead>
            <tr>
              <th scope="col">{t('api.col.name')}</th>
              <th scope="col">{t('api.col.scope')}</th>
              <th scope="col">{t('api.col.key')}</th>
              <th scope="col">{t('api.col.created')}</th>
              <th scope="col">{t('api.col.used')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('api.key.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr
                key={key.id}
                className={key.revokedAt ? 'revoked' : undefined}
                data-key-name={key.name}
              >
                <td>
                  <strong>{key.name}</strong>
                </td>
                <td>
                  <span
                    className={`badge plain${key.scope === 'admin' ? ' accent' : ''}`}
                    title={t(`api.scope.${key.scope}.hint`)}
                    data-scope={key.scope}
                  >
                    {t(`api.scope.${key.scope}`)}
                  </span>
                </td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td className="small muted">{formatDateTime(language, key.createdAt)}</td>
                <td className="small muted">
                  {key.lastUsedAt
                    ? formatDateTime(language, key.lastUsedAt)
                    : t('api.key.neverUsed')}
                </td>
                <td className="num">
                  {key.revokedAt ? (
                    <span className="small muted">
                      {t('api.key.revoked', { date: formatDateTime(language, key.revokedAt) })}
                    </span>
                  ) : (
                    <Button size="sm" variant="danger" onClick={() => setRevoking(key)}>
                      {t('api.key.revoke')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={t('api.key.revoke')}
        body={revoking ? t('api.key.revokeConfirm', { name: revoking.name }) : ''}
        confirmLabel={t('api.key.revoke')}
        danger
        onClose={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          api.apiKeys
            .revoke(revoking.id)
            .then(load, (e: unknown) => toast('error', (e as Error).message));
        }}
      />
    </section>
  );
}

function Examples({ base, secret }: { base: string; secret: string | null }): ReactElement {
  const t = useT();
  const [tab, setTab] = useState<'curl' | 'python'>('curl');
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  useEffect(() => {
    void loadCatalog();
  }, [loadCatalog]);
  const templateId =
    catalog?.find((c) => c.id === 'tmpl_product_promo')?.id ??
    catalog?.[0]?.id ??
    'tmpl_product_promo';
  // The template's own sample values: an example with empty values only earns a 422.
  const [values, setValues] = useState<Record<string, unknown>>({});
  useEffect(() => {
    let live = true;
    api.catalog.detail(templateId).then(
      (detail) => live && setValues(detail.sampleValues),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [templateId]);
  const key = secret ?? 'YOUR_API_KEY';
  const body = JSON.stringify({ templateId, values, format: 'png' });
  // In single quotes for the shell: a ' in a value closes and reopens them.
  const shellBody = body.replace(/'/g, `'\\''`);
  const curl = [
    // --fail: an error is an exit code and a message, never JSON saved as image.png.
    `curl --fail --show-error -X POST ${base}/v1/render \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${shellBody}' \\`,
    `  -o image.png`,
  ].join('\n');
  const python = [
    'import requests',
    '',
    `response = requests.post(`,
    `    "${base}/v1/render",`,
    `    headers={"Authorization": "Bearer ${key}"},`,
    `    json=${pythonLiteral(body)},`,
    `    timeout=60,`,
    `)`,
    'response.raise_for_status()',
    'with open("image.png", "wb") as f:',
    '    f.write(response.content)',
    'print("credits left:", response.headers["x-credits-remaining"])',
  ].join('\n');
  const code = tab === 'curl' ? curl : python;
  return (
    <section className="card">
      <div className="card-header">
        <h2>{t('api.examples')}</h2>
        <span className="small muted">
          {secret ? t('api.examples.withKey') : t('api.examples.note')}
        </span>
      </div>
      <div className="card-body stack gap-3">
        <div className="tabs" role="tablist" aria-label={t('api.examples')}>
          {(['curl', 'python'] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`tab-${name}`}
              aria-selected={tab === name}
              aria-controls="example-panel"
              tabIndex={tab === name ? 0 : -1}
              onClick={() => setTab(name)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                  const next = tab === 'curl' ? 'python' : 'curl';
                  setTab(next);
                  document.getElementById(`tab-${next}`)?.focus();
                }
              }}
            >
              {t(`api.examples.${name}`)}
            </button>
          ))}
        </div>
        <div
          className="code-wrap"
          role="tabpanel"
          id="example-panel"
          aria-labelledby={`tab-${tab}`}
        >
          <pre
            className="code-block"
            data-testid={`example-${tab}`}
            // Scrolls sideways: focusable so the keyboard can scroll it too.
            tabIndex={0}
            aria-label={t('api.examples')}
          >
            {code}
          </pre>
          <div className="copy-corner">
            <CopyButton text={code} />
          </div>
        </div>
      </div>
    </section>
  );
}

/** JSON as a Python literal: the same text, with JSON's true/false/null spelled Python's way. */
function pythonLiteral(json: string): string {
  return json.replace(
    /("(?:[^"\\]|\\.)*")|\b(true|false|null)\b/g,
    (match, text: string | undefined) =>
      text ? match : match === 'true' ? 'True' : match === 'false' ? 'False' : 'None',
  );
}
