import { useEffect, type ReactElement } from 'react';
import { AppLink } from '../../components/Sidebar';
import { Button, EmptyState, ErrorBanner, Loading, ProgressBar } from '../../components/ui';
import { formatDateTime, useLanguage, useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { batchName } from './batch-name';
import { StatusBadge } from './batch-status';
import { useBatchList } from '../../api/use-batch-list';

export function BatchesScreen(): ReactElement {
  const t = useT();
  const language = useLanguage();
  const { data, error, refetch } = useBatchList('follow');
  const batches = data ?? null;
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  const navigate = useAppStore((s) => s.navigate);

  useEffect(() => {
    void loadCatalog();
  }, [loadCatalog]);

  const names = new Map((catalog ?? []).map((item) => [item.id, item.name]));

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('batches.title')}</h1>
          <p>{t('batches.subtitle')}</p>
        </div>
        <Button
          variant="primary"
          icon="plus"
          onClick={() => navigate({ name: 'wizard', templateId: null })}
        >
          {t('batches.new')}
        </Button>
      </header>
      {error ? <ErrorBanner error={error} onRetry={() => void refetch()} /> : null}
      {batches === null && !error ? <Loading /> : null}
      {batches && batches.length === 0 ? (
        <div className="card">
          <EmptyState
            icon="layers"
            title={t('batches.empty')}
            action={
              <Button
                variant="primary"
                icon="sparkles"
                onClick={() => navigate({ name: 'wizard', templateId: null })}
              >
                {t('batches.new')}
              </Button>
            }
          >
            {t('batches.empty.detail')}
          </EmptyState>
        </div>
      ) : null}
      {batches && batches.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="batches-table">
            <thead>
              <tr>
                <th scope="col">{t('batches.col.batch')}</th>
                <th scope="col">{t('batches.col.status')}</th>
                <th scope="col" style={{ width: '32%' }}>
                  {t('batches.col.progress')}
                </th>
                <th scope="col">{t('batches.col.created')}</th>
              </tr>
            </thead>
            <tbody>
              {batches.map((batch) => (
                <tr
                  key={batch.id}
                  className="clickable"
                  onClick={() => navigate({ name: 'batch', id: batch.id })}
                >
                  <td>
                    <AppLink to={{ name: 'batch', id: batch.id }} className="batch-link">
                      <strong>{batchName(batch, language, names.get(batch.templateId))}</strong>
                    </AppLink>
                    <div className="mono subtle">{batch.id}</div>
                  </td>
                  <td>
                    <StatusBadge status={batch.status} />
                  </td>
                  <td>
                    <div className="stack gap-2">
                      <ProgressBar
                        small
                        total={batch.total}
                        succeeded={batch.succeeded}
                        failed={batch.failed}
                        label={t('batches.rows', {
                          done: batch.succeeded + batch.failed,
                          total: batch.total,
                        })}
                      />
                      <span className="small muted num">
                        {t('batches.rows', {
                          done: batch.succeeded + batch.failed,
                          total: batch.total,
                        })}
                        {batch.failed > 0
                          ? ` · ${batch.failed} ${t('batch.failed').toLowerCase()}`
                          : ''}
                      </span>
                    </div>
                  </td>
                  <td className="muted small">{formatDateTime(language, batch.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
