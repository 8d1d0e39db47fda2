import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { layoutName } from '../catalog/layout-name';
import { RATIO_NAMES, type Ratio } from '../../../shared/ratios';
import { api } from '../../api/client';
import { refreshAccount } from '../../api/use-account';
import { useSignedLink } from '../../api/use-signed-link';
import type { Batch, ManifestRow } from '../../api/types';
import { Icon } from '../../components/Icon';
import {
  Button,
  ConfirmDialog,
  ErrorBanner,
  Loading,
  ProgressBar,
  Segmented,
} from '../../components/ui';
import { useModalDialog } from '../../components/use-modal-dialog';
import { formatDateTime, formatDuration, formatNumber, useLanguage, useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import { ratioKey } from '../catalog/CatalogScreen';
import { reasonText } from '../batch-wizard/ReviewStep';
import { bundleFileName } from '../../../shared/bundle-file-name';
import { batchName } from './batch-name';
import { isLive } from '../../api/batch-live';
import { useBatch } from '../../api/use-batch';
import { forgetBatch, rememberBatch } from '../../api/use-batch-list';
import { StatusBadge } from './batch-status';
import { ResultsTable } from './ResultsTable';
import { SheetParts } from './SheetParts';
import { failedSourceRows, RerunDialog, type RerunChoice } from './RerunDialog';

/** A batch's target is a ratio, or a print or custom-size layout shown by its name. */
const isRatio = (target: string): target is Ratio =>
  (RATIO_NAMES as readonly string[]).includes(target);
import { useRowErrorText } from './use-row-error-text';
import { setupFor } from '../batch-wizard/batch-setups';
import { rowLabel } from './row-label';
import { useThrottled } from './use-throttled';

/** The results of a running batch are fetched again at most this often. */
const ROWS_REFRESH_MS = 1000;

export function BatchScreen({ id }: { id: string }): ReactElement {
  const t = useT();
  const language = useLanguage();
  const navigate = useAppStore((s) => s.navigate);
  const toast = useAppStore((s) => s.toast);
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  const { batch, error, reload: load, pace } = useBatch(id);
  const [actionError, setActionError] = useState<unknown>(null);
  const [filter, setFilter] = useState<'all' | 'failed'>('all');
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'cancel' | 'delete' | null>(null);
  const [opened, setOpened] = useState<ManifestRow | null>(null);
  const wasLive = useRef(false);
  const errorText = useRowErrorText(batch?.templateId ?? null, id);
  const wizardReset = useAppStore((s) => s.wizardReset);
  const wizardSetTemplate = useAppStore((s) => s.wizardSetTemplate);
  const wizardPatch = useAppStore((s) => s.wizardPatch);
  const setup = useMemo(() => setupFor(id), [id]);
  const [rerunChoice, setRerunChoice] = useState<RerunChoice | null>(null);
  /**
   * The wizard again, at the mapping, with everything this batch was started with: every row it
   * drew, or (`rows`) only the spreadsheet rows that failed.
   */
  const rerun = async (rows?: number[]) => {
    if (!setup?.templateId) return;
    wizardReset(setup.templateId);
    await wizardSetTemplate(setup.templateId).catch(() => {});
    const only = rows ?? setup.rows ?? null;
    wizardPatch({ ...setup, rows: only, previewRow: only?.[0] ?? 0, step: 'mapping' });
    navigate({ name: 'wizard', templateId: setup.templateId });
  };
  /** With failed rows, asks first: those only, or every row (as a batch without any does). */
  const askRerun = async (current: Batch) => {
    if (current.failed === 0) return rerun();
    const failed = await failedSourceRows(current);
    if (failed.length === 0) return rerun();
    const per = current.targets && current.targets.length > 1 ? current.targets.length : 1;
    setRerunChoice({ failed, all: Math.round(current.total / per) });
  };

  useEffect(() => {
    void loadCatalog();
  }, [loadCatalog]);

  const live = batch !== null && isLive(batch);
  useEffect(() => {
    if (live) wasLive.current = true;
  }, [live]);

  // While it runs, the visible rows of the table follow the counter: fetched again whenever the
  // rows done change, at most about once a second (progress arrives up to four times a second,
  // and a page of 500 rows each time would be too many requests), the last change always shown.
  const processed = batch ? batch.succeeded + batch.failed : null;
  const refreshRows = useThrottled(() => setVersion((v) => v + 1), ROWS_REFRESH_MS);
  const shownProcessed = useRef(processed);
  useEffect(() => {
    if (processed === shownProcessed.current) return;
    const first = shownProcessed.current === null;
    shownProcessed.current = processed;
    if (live && !first) refreshRows();
  }, [live, processed, refreshRows]);

  // When a batch finishes: fresh manifest, fresh balance.
  useEffect(() => {
    if (batch && !live && wasLive.current) {
      wasLive.current = false;
      setVersion((v) => v + 1);
      void refreshAccount();
      const notRendered = batch.total - batch.succeeded - batch.failed;
      // Green only when every row rendered: failures and rows a cancel left are said, counted.
      if (batch.status === 'cancelled')
        toast(
          'info',
          t('batch.doneCancelled', {
            done: formatNumber(language, batch.succeeded),
            total: formatNumber(language, batch.total),
            remaining: formatNumber(language, notRendered),
          }),
        );
      else if (batch.failed > 0 && batch.succeeded > 0)
        toast('error', t('batch.donePartial', { failed: batch.failed, total: batch.total }));
      else if (batch.failed > 0) toast('error', t('batch.doneFailed'));
      else toast('success', t('batch.done'));
    }
  }, [batch, live, toast, t, language]);

  const act = async (name: string, action: () => Promise<void>) => {
    setBusy(name);
    setActionError(null);
    try {
      await action();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(null);
    }
  };

  if (error) {
    return (
      <div className="page">
        <BackLink />
        <ErrorBanner error={error} onRetry={load} />
      </div>
    );
  }
  if (!batch) {
    return (
      <div className="page">
        <BackLink />
        <Loading />
      </div>
    );
  }

  const title = batchName(batch, language, catalog?.find((c) => c.id === batch.templateId)?.name);
  const done = batch.succeeded + batch.failed;
  // Rows never rendered: a cancel's, or those a stop left; a replay queues them with the failed.
  const remaining = Math.max(0, batch.total - done);
  const replayable = !live && (batch.failed > 0 || remaining > 0) && batch.status !== 'succeeded';
  const replayLabel =
    remaining === 0
      ? t('batch.replay')
      : batch.failed > 0
        ? t('batch.renderFailedAndRemaining', {
            count: formatNumber(language, batch.failed + remaining),
          })
        : t('batch.renderRemaining', { count: formatNumber(language, remaining) });

  return (
    <div className="page wide">
      <BackLink />
      <header className="page-header">
        <div className="stack gap-2">
          <div className="row gap-3">
            <h1>{title}</h1>
            <StatusBadge status={batch.status} />
          </div>
          <div className="row small muted wrap">
            <span className="mono">{batch.id}</span>
            <span aria-hidden>·</span>
            <span>
              {(batch.targets ?? [batch.target])
                .map((name) => (isRatio(name) ? t(ratioKey(name)) : layoutName(t, name)))
                .join(' + ')}
            </span>
            <span aria-hidden>·</span>
            <span>{batch.format.toUpperCase()}</span>
            <span aria-hidden>·</span>
            <span>{formatDateTime(language, batch.createdAt)}</span>
          </div>
        </div>
        <div className="row wrap">
          {live ? (
            <Button
              variant="danger"
              icon="stop"
              busy={busy === 'cancel'}
              onClick={() => setConfirm('cancel')}
            >
              {t('batch.cancel')}
            </Button>
          ) : null}
          {replayable ? (
            <Button
              icon="refresh"
              busy={busy === 'replay'}
              onClick={() =>
                void act('replay', async () => {
                  const next = await api.batches.replay(batch.id);
                  rememberBatch(next);
                  setFilter('all');
                  setVersion((v) => v + 1);
                  void refreshAccount();
                  toast('info', t(remaining > 0 ? 'batch.remainingQueued' : 'batch.replayed'));
                })
              }
            >
              {replayLabel}
            </Button>
          ) : null}
          {!live && setup?.templateId ? (
            <Button
              icon="pencil"
              busy={busy === 'rerun'}
              onClick={() => void act('rerun', () => askRerun(batch))}
            >
              {t('batch.rerun')}
            </Button>
          ) : null}
          {!live && batch.succeeded > 0 ? (
            <Button
              variant="primary"
              icon="download"
              busy={busy === 'export'}
              onClick={() =>
                void act('export', async () => {
                  const link = await api.batches.bundle(batch.id);
                  await native.saveUrl(
                    link.url,
                    bundleFileName({
                      ...batch,
                      templateName:
                        batch.templateName ?? catalog?.find((c) => c.id === batch.templateId)?.name,
                    }),
                    [{ name: 'Zip', extensions: ['zip'] }],
                  );
                })
              }
            >
              {busy === 'export' ? t('batch.exporting') : t('batch.export')}
            </Button>
          ) : null}
          {native.canRevealInFolder() && batch.outputDir ? (
            <Button icon="folder" onClick={() => void native.revealInFolder(batch.outputDir ?? '')}>
              {t('batch.reveal')}
            </Button>
          ) : null}
          {!live ? (
            <Button
              variant="ghost"
              icon="trash"
              aria-label={t('batch.delete')}
              onClick={() => setConfirm('delete')}
            />
          ) : null}
        </div>
      </header>

      {batch.rejectedReason ? (
        <div className="banner danger" role="alert">
          <Icon name="alert" />
          {t('batch.rejected', { reason: reasonText(batch.rejectedReason, t) })}
        </div>
      ) : null}
      {batch.stoppedReason ? (
        <div className="banner warning" role="status">
          <Icon name="alert" />
          {t('batch.stopped', { reason: batch.stoppedReason })}
        </div>
      ) : null}
      {actionError ? <ErrorBanner error={actionError} /> : null}

      <section className="card" aria-label={t('batch.progress')}>
        <div className="card-body stack gap-4">
          <div className="row between wrap">
            <div className="progress-figure">
              <span className="num" data-testid="batch-done">
                {formatNumber(language, done)}
              </span>
              <span className="muted"> / {formatNumber(language, batch.total)}</span>
            </div>
            <div className="row gap-3 small muted num" aria-live="polite">
              {live ? (
                <>
                  <span>
                    <Icon name="zap" size={13} />{' '}
                    {t('batch.speed', { rate: formatNumber(language, pace.rowsPerSecond, 1) })}
                  </span>
                  <span>
                    {pace.secondsLeft !== null
                      ? t('batch.eta', { time: formatDuration(t, pace.secondsLeft) })
                      : t('batch.etaUnknown')}
                  </span>
                </>
              ) : batch.finishedAt ? (
                <span>{formatDateTime(language, batch.finishedAt)}</span>
              ) : null}
            </div>
          </div>
          <ProgressBar
            total={batch.total}
            succeeded={batch.succeeded}
            failed={batch.failed}
            label={t('batches.rows', { done, total: batch.total })}
          />
          <div className="stat-grid">
            <div className="stat success">
              <div className="stat-label">{t('batch.succeeded')}</div>
              <div className="stat-value" data-testid="batch-succeeded">
                {formatNumber(language, batch.succeeded)}
              </div>
            </div>
            <div className={`stat${batch.failed > 0 ? ' danger' : ''}`}>
              <div className="stat-label">{t('batch.failed')}</div>
              <div className="stat-value" data-testid="batch-failed">
                {formatNumber(language, batch.failed)}
              </div>
            </div>
            <div className="stat">
              <div className="stat-label">{live ? t('batch.pending') : t('batch.notRendered')}</div>
              <div className="stat-value" data-testid="batch-remaining">
                {formatNumber(language, live ? batch.pending : remaining)}
              </div>
            </div>
          </div>
        </div>
      </section>

      {batch.sheetParts && batch.sheetParts.length > 0 ? (
        <SheetParts batchId={batch.id} parts={batch.sheetParts} />
      ) : null}

      <section className="stack gap-3" aria-labelledby="results-title">
        <div className="row between">
          <h2 id="results-title">{t('batch.results')}</h2>
          <Segmented
            label={t('batch.results')}
            value={filter}
            onChange={setFilter}
            options={[
              { value: 'all', label: t('batch.filter.all') },
              {
                value: 'failed',
                label: `${t('batch.filter.failed')} (${formatNumber(language, batch.failed)})`,
              },
            ]}
          />
        </div>
        <ResultsTable
          batchId={batch.id}
          filter={filter}
          total={batch.total}
          version={version}
          onOpen={setOpened}
          errorText={errorText}
          targets={batch.targets}
          someRows={batch.someRows}
          sheetsOnly={batch.sheets !== undefined && batch.sheets.singleFiles !== true}
        />
      </section>

      <ConfirmDialog
        open={confirm === 'cancel'}
        title={t('batch.cancel')}
        body={t('batch.cancelConfirm')}
        confirmLabel={t('batch.cancel')}
        danger
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          void act('cancel', async () => {
            rememberBatch(await api.batches.cancel(batch.id));
            void refreshAccount();
          })
        }
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title={t('batch.delete')}
        body={t('batch.deleteConfirm')}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          void act('delete', async () => {
            await api.batches.remove(batch.id);
            forgetBatch(batch.id);
            toast('info', t('batch.deleted'));
            navigate({ name: 'batches' });
          })
        }
      />
      <RerunDialog
        choice={rerunChoice}
        onClose={() => setRerunChoice(null)}
        onChoose={(rows) => {
          const failed = rerunChoice?.failed;
          setRerunChoice(null);
          void rerun(rows === 'failed' ? failed : undefined);
        }}
      />
      <ImageDialog row={opened} targets={batch?.targets} onClose={() => setOpened(null)} />
    </div>
  );
}

function BackLink(): ReactElement {
  const t = useT();
  const navigate = useAppStore((s) => s.navigate);
  return (
    <div>
      <button type="button" className="crumb" onClick={() => navigate({ name: 'batches' })}>
        <Icon name="arrowLeft" size={14} />
        {t('batch.back')}
      </button>
    </div>
  );
}

function ImageDialog({
  row,
  targets,
  onClose,
}: {
  row: ManifestRow | null;
  targets: string[] | undefined;
  onClose: () => void;
}): ReactElement {
  const ref = useModalDialog(row !== null);
  const t = useT();
  const image = useSignedLink(row?.outputKey ? api.outputPath(row.outputKey) : null);
  return (
    <dialog
      ref={ref}
      className="dialog image-dialog"
      onClose={onClose}
      aria-label={row ? t('batch.open', { row: rowLabel(row.rowIndex, targets) }) : ''}
    >
      {row?.outputKey ? (
        <>
          <img src={image} alt={t('batch.open', { row: rowLabel(row.rowIndex, targets) })} />
          <div className="dialog-actions">
            <span className="grow small muted">{row.fileName}</span>
            <Button onClick={onClose} autoFocus>
              {t('common.close')}
            </Button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
