import { useState, type FormEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import { refreshWebhooks, useWebhooks } from '../../api/use-webhooks';
import type { CreatedWebhook, Webhook } from '../../api/types';
import { Button, CopyButton, ErrorBanner, Field } from '../../components/ui';
import { formatDateTime, useLanguage, useT } from '../../i18n/i18n';

/**
 * Settings → Webhooks: URLs that receive a batch's end (and optionally each failed row), signed
 * with a secret shown once, and the delivery log with each attempt's outcome and next retry.
 */
/** `cluster`: any node sends, so the hint asks for an address every node reaches. */
export function WebhooksCard({ cluster = false }: { cluster?: boolean }): ReactElement {
  const t = useT();
  const language = useLanguage();
  const webhooks = useWebhooks();
  const hooks = webhooks.data?.hooks ?? [];
  const log = webhooks.data?.log ?? [];
  const [actionError, setError] = useState<unknown>(null);
  // A refresh that fails keeps the last list on screen; only a list never loaded says why.
  const error = actionError ?? (webhooks.data ? null : webhooks.error);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | undefined>(undefined);
  const [rowFailures, setRowFailures] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // Checked here, in the UI's words: the browser's own check speaks the browser's language.
    const problem = await webhookUrlProblem(url.trim());
    setUrlError(problem ? t(problem) : undefined);
    if (problem) return;
    try {
      const made = await api.webhooks.create({
        url: url.trim(),
        events: rowFailures ? ['batch.finished', 'batch.row_failed'] : ['batch.finished'],
      });
      // The secret panel below the form says it was added (role=status); a toast would lie
      // over the new row's Remove, at the bottom right of a laptop screen.
      setCreated(made);
      setUrl('');
      await refreshWebhooks();
    } catch (e) {
      setError(e);
    }
  };

  const remove = async (hook: Webhook) => {
    setError(null);
    try {
      await api.webhooks.remove(hook.id);
      if (created?.id === hook.id) setCreated(null);
      await refreshWebhooks();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section className="card" data-testid="webhooks-card">
      <div className="card-header">
        <div>
          <h2>{t('webhooks.title')}</h2>
          <p className="small muted">{t('webhooks.subtitle')}</p>
        </div>
      </div>
      <div className="card-body stack gap-4">
        {error ? <ErrorBanner error={error} /> : null}
        <form className="stack gap-3" noValidate onSubmit={(e) => void add(e)}>
          <Field
            label={t('webhooks.url')}
            hint={t(cluster ? 'webhooks.url.hint.cluster' : 'webhooks.url.hint')}
            error={urlError}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className="input"
                type="url"
                inputMode="url"
                placeholder={
                  cluster
                    ? 'https://hooks.example.com/render-desk'
                    : 'http://127.0.0.1:8080/render-desk'
                }
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setUrlError(undefined);
                }}
              />
            )}
          </Field>
          <label className="row gap-2">
            <input
              type="checkbox"
              checked={rowFailures}
              onChange={(e) => setRowFailures(e.target.checked)}
            />
            <span>{t('webhooks.rowFailures')}</span>
          </label>
          <div>
            <Button type="submit" variant="primary" icon="plus">
              {t('webhooks.add')}
            </Button>
          </div>
        </form>

        {created ? (
          <div className="stack gap-2" role="status" data-testid="webhook-secret">
            <p className="small">{t('webhooks.secret.once')}</p>
            <div className="row gap-2">
              <code>{created.secret}</code>
              <CopyButton text={created.secret} />
            </div>
          </div>
        ) : null}

        {hooks.length > 0 ? (
          <table className="table" data-testid="webhooks">
            <thead>
              <tr>
                <th scope="col">{t('webhooks.col.url')}</th>
                <th scope="col">{t('webhooks.col.events')}</th>
                <th scope="col">{t('webhooks.col.secret')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('webhooks.remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {hooks.map((hook) => (
                <tr key={hook.id}>
                  <td>
                    <code>{hook.url}</code>
                  </td>
                  <td className="small">{hook.events.join(', ')}</td>
                  <td>
                    <code>{hook.secretPrefix}…</code>
                  </td>
                  <td className="num">
                    <Button size="sm" variant="danger" onClick={() => void remove(hook)}>
                      {t('webhooks.remove')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="small muted">{t('webhooks.none')}</p>
        )}

        <h3>{t('webhooks.log')}</h3>
        {log.length > 0 ? (
          <table className="table" data-testid="webhook-deliveries">
            <thead>
              <tr>
                <th scope="col">{t('webhooks.col.time')}</th>
                <th scope="col">{t('webhooks.col.event')}</th>
                <th scope="col">{t('webhooks.col.status')}</th>
                <th scope="col" className="num">
                  {t('webhooks.col.attempts')}
                </th>
                <th scope="col">{t('webhooks.col.answer')}</th>
                <th scope="col">{t('webhooks.col.next')}</th>
              </tr>
            </thead>
            <tbody>
              {log.map((delivery) => (
                <tr key={delivery.id} data-status={delivery.status}>
                  <td className="small muted">{formatDateTime(language, delivery.createdAt)}</td>
                  <td className="small">{delivery.event}</td>
                  <td>
                    <span
                      className={`badge plain${delivery.status === 'failed' ? ' danger' : delivery.status === 'delivered' ? ' success' : ''}`}
                    >
                      {t(`webhooks.status.${delivery.status}`)}
                    </span>
                  </td>
                  <td className="num">{delivery.attempts}</td>
                  <td className="small">
                    {delivery.lastStatusCode !== null
                      ? String(delivery.lastStatusCode)
                      : (delivery.lastError ?? '—')}
                  </td>
                  <td className="small muted">
                    {delivery.nextAttemptAt
                      ? formatDateTime(language, delivery.nextAttemptAt)
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="small muted">{t('webhooks.log.empty')}</p>
        )}
      </div>
    </section>
  );
}

/**
 * What is wrong with a webhook address, as a message key; null when the API will take it. The
 * API's own rule decides, loaded with its schema library when an address is added, not with the
 * app: only the words are the UI's.
 */
async function webhookUrlProblem(
  url: string,
): Promise<'webhooks.url.missing' | 'webhooks.url.invalid' | 'webhooks.url.credentials' | null> {
  if (url === '') return 'webhooks.url.missing';
  const { URL_WITH_CREDENTIALS, WebhookUrl } = await import('../../../shared/webhook-schemas');
  if (WebhookUrl.safeParse(url).success) return null;
  return URL_WITH_CREDENTIALS.test(url) ? 'webhooks.url.credentials' : 'webhooks.url.invalid';
}
