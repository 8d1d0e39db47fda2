import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import type { LedgerEntryT, LedgerKind } from '../../api/types';
import { AppLink } from '../../components/Sidebar';
import { Button, EmptyState, ErrorBanner, Field, Loading } from '../../components/ui';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  useLanguage,
  useT,
  type MessageKey,
} from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { refreshAccount, useAccount } from '../../api/use-account';
import { useBatchList } from '../../api/use-batch-list';
import { batchName } from '../batches/batch-name';

const KINDS: LedgerKind[] = ['grant', 'debit', 'hold', 'release'];
const PAGE = 50;

export function CreditsScreen(): ReactElement {
  const t = useT();
  const language = useLanguage();
  const { data: account, error: accountError } = useAccount();

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('credits.title')}</h1>
          <p>{t('credits.subtitle')}</p>
        </div>
      </header>
      {accountError ? <ErrorBanner error={accountError} /> : null}
      {account ? (
        <div className="stat-grid">
          <div className="stat">
            <div className="stat-label">{t('credits.balance')}</div>
            <div className="stat-value" data-testid="credits-balance">
              {formatNumber(language, account.balance)}
            </div>
          </div>
          <div className="stat">
            <div className="stat-label">{t('credits.held')}</div>
            <div className="stat-value">{formatNumber(language, account.heldCredits)}</div>
          </div>
          <div className="stat">
            <div className="stat-label">{t('credits.subscription')}</div>
            <div className="row" style={{ marginTop: 6 }}>
              <span
                className={`badge ${account.subscription.status === 'active' ? 'success' : 'danger'}`}
              >
                {t(`credits.subscription.${account.subscription.status}`)}
              </span>
              {account.subscription.expiresAt ? (
                <span className="small muted">
                  {t('credits.subscription.until', {
                    date: formatDate(language, account.subscription.expiresAt),
                  })}
                </span>
              ) : null}
            </div>
            {account.subscription.status === 'lapsed' ? <RenewButton /> : null}
          </div>
        </div>
      ) : !accountError ? (
        <Loading />
      ) : null}
      <AddCredits />
      <Ledger />
    </div>
  );
}

function RenewButton(): ReactElement {
  const t = useT();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      busy={busy}
      style={{ marginTop: 8 }}
      onClick={() => {
        setBusy(true);
        void api.account
          .setSubscription('active')
          .then(() => refreshAccount())
          .finally(() => setBusy(false));
      }}
    >
      {t('credits.subscription.renew')}
    </Button>
  );
}

function AddCredits(): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const [amount, setAmount] = useState('100');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const problem = (path: string) => (isApiError(error) ? error.problemFor(path) : undefined);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const n = Number(amount);
      await api.account.grant(n, note.trim() || undefined);
      await refreshAccount();
      toast('success', t('credits.added', { count: n }));
      setNote('');
      setRefreshKey(refreshKey + 1);
      window.dispatchEvent(new Event('render-desk:ledger-changed'));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card">
      <div className="card-header">
        <h2>{t('credits.add')}</h2>
      </div>
      <form
        className="card-body add-credits"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={t('credits.amount')} error={problem('amount')}>
          {({ id, invalid }) => (
            <input
              id={id}
              className="input num"
              type="number"
              min={1}
              step={1}
              required
              aria-invalid={invalid || undefined}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          )}
        </Field>
        <Field label={t('credits.note')} optional error={problem('note')}>
          {({ id }) => (
            <input
              id={id}
              className="input"
              maxLength={200}
              value={note}
              placeholder={t('credits.note.placeholder')}
              onChange={(e) => setNote(e.target.value)}
            />
          )}
        </Field>
        <Button
          type="submit"
          variant="primary"
          icon="plus"
          busy={busy}
          disabled={busy || !(Number(amount) >= 1)}
        >
          {t('credits.add')}
        </Button>
        {error && !problem('amount') && !problem('note') ? (
          <div style={{ gridColumn: '1 / -1' }}>
            <ErrorBanner error={error} />
          </div>
        ) : null}
      </form>
    </section>
  );
}

function Ledger(): ReactElement {
  const t = useT();
  const language = useLanguage();
  const [kind, setKind] = useState<LedgerKind | ''>('');
  // A batch writes a hold, then a release and a debit per row: one line per batch reads better.
  const [everyEntry, setEveryEntry] = useState(false);
  const [entries, setEntries] = useState<LedgerEntryT[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (from: string | null, append: boolean) => {
      setLoading(true);
      setError(null);
      try {
        const page = await api.account.ledger({
          cursor: from,
          limit: PAGE,
          kind: kind || null,
          group: everyEntry ? null : 'batch',
        });
        setEntries((prev) => (append && prev ? [...prev, ...page.entries] : page.entries));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(e);
      } finally {
        setLoading(false);
      }
    },
    [kind, everyEntry],
  );

  // Batches are named in the ledger as on their own page; the list gives their names.
  useBatchList('once');

  useEffect(() => {
    void load(null, false);
    const onChange = () => void load(null, false);
    window.addEventListener('render-desk:ledger-changed', onChange);
    return () => window.removeEventListener('render-desk:ledger-changed', onChange);
  }, [load]);

  return (
    <section className="card">
      <div className="card-header">
        <h2>{t('credits.ledger')}</h2>
        <label className="row small">
          {t('credits.filter')}
          <select
            className="select"
            style={{ width: 'auto' }}
            value={kind}
            onChange={(e) => setKind(e.target.value as LedgerKind | '')}
          >
            <option value="">{t('credits.kind.all')}</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`credits.kind.${k}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <label className="check small">
          <input
            type="checkbox"
            checked={everyEntry}
            onChange={(e) => setEveryEntry(e.target.checked)}
          />
          {t('credits.everyEntry')}
        </label>
      </div>
      {error ? (
        <div className="card-body">
          <ErrorBanner error={error} onRetry={() => void load(null, false)} />
        </div>
      ) : null}
      {entries === null && !error ? <Loading /> : null}
      {entries && entries.length === 0 ? (
        <EmptyState icon="inbox" title={t('credits.empty')} />
      ) : null}
      {entries && entries.length > 0 ? (
        <table className="table" data-testid="ledger">
          <thead>
            <tr>
              <th scope="col">{t('credits.col.date')}</th>
              <th scope="col">{t('credits.col.kind')}</th>
              <th scope="col" className="num">
                {t('credits.col.amount')}
              </th>
              <th scope="col">{t('credits.col.detail')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="muted small date">{formatDateTime(language, entry.createdAt)}</td>
                <td>
                  <span
                    className={`badge ${entry.kind === 'grant' ? 'success' : entry.kind === 'debit' ? 'accent' : entry.kind === 'hold' ? 'warning' : ''}`}
                  >
                    {t(`credits.kind.${entry.kind}` as MessageKey)}
                  </span>
                </td>
                <td
                  className={`num ${entry.kind === 'grant' || entry.kind === 'release' ? 'positive' : 'negative'}`}
                >
                  {entry.kind === 'grant' || entry.kind === 'release' ? '+' : '−'}
                  {formatNumber(language, Math.abs(entry.amount))}
                </td>
                <td className="small">
                  <LedgerDetail entry={entry} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {cursor ? (
        <div className="card-body row" style={{ justifyContent: 'center' }}>
          <Button onClick={() => void load(cursor, true)} busy={loading}>
            {t('credits.more')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/**
 * Notes the core writes itself, in English (stored as written): the opening grant of a new data
 * folder (main/store/create-store.ts) and a grant without a note through the API
 * (account-routes.ts). Shown in the UI's language; notes people write stay as written.
 */
const CORE_NOTES = {
  'Opening balance': 'credits.note.opening',
  'Granted through the API': 'credits.note.api',
} as const;

function LedgerDetail({ entry }: { entry: LedgerEntryT }): ReactElement {
  const t = useT();
  const language = useLanguage();
  // A batch is named as everywhere else (template · spreadsheet · day); its id stays beside it.
  const batch = useBatchList('cached').data?.find((b) => b.id === entry.batchId);
  const name = batch ? batchName(batch, language) : entry.batchId;
  if (entry.batchId && entry.entryCount !== undefined) {
    return (
      <span className="stack" style={{ gap: 2 }}>
        <AppLink to={{ name: 'batch', id: entry.batchId }}>
          {t('credits.batchOnly', { id: name ?? entry.batchId })}
        </AppLink>
        <span className="muted">
          {batch ? <span className="mono">{entry.batchId} · </span> : null}
          {t('credits.batchLine', { count: entry.entryCount })}
          {entry.heldCredits ? ` · ${t('credits.batchHeld', { count: entry.heldCredits })}` : ''}
        </span>
      </span>
    );
  }
  if (entry.batchId) {
    return (
      <span className="stack" style={{ gap: 2 }}>
        <AppLink to={{ name: 'batch', id: entry.batchId }}>
          {entry.rowIndex !== null
            ? t('credits.batchRow', { id: name ?? entry.batchId, row: entry.rowIndex + 1 })
            : t('credits.batchOnly', { id: name ?? entry.batchId })}
        </AppLink>
        {batch ? <span className="muted mono">{entry.batchId}</span> : null}
      </span>
    );
  }
  if (entry.renderId)
    return <span className="mono">{t('credits.render', { id: entry.renderId })}</span>;
  // The core's own note on a new data folder's grant is said in the UI's language.
  const coreNote = entry.note ? CORE_NOTES[entry.note as keyof typeof CORE_NOTES] : undefined;
  const note = coreNote ? t(coreNote) : entry.note;
  return <span className="muted">{note ?? ''}</span>;
}
