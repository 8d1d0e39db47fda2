import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner } from '../../components/ui';
import { formatNumber, useLanguage, useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import type { WizardStep } from '../../stores/wizard-slice';
import { variableLabel } from '../template/VariableField';
import { problemText, type ProblemPlace } from '../../i18n/problem-text';
import { rememberSetup } from './batch-setups';
import { cellAddress } from './cell-address';
import { FixCells } from './FixCells';
import { buildBatchRequest, unmappedRequired } from './mapping';
import { rememberBatch } from '../../api/use-batch-list';
import { refreshAccount, useAccount } from '../../api/use-account';

export function ReviewStep({
  onJump,
}: {
  onJump: (step: WizardStep) => void;
}): ReactElement | null {
  const t = useT();
  const language = useLanguage();
  const wizard = useAppStore((s) => s.wizard);
  const patch = useAppStore((s) => s.wizardPatch);
  const navigate = useAppStore((s) => s.navigate);
  const toast = useAppStore((s) => s.toast);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  const { preflight, preflighting, preflightError } = wizard;

  const [fixed, setFixed] = useState(0);
  /** `keep`: the last result stays on screen while the check runs again (a cell just fixed). */
  const check = useCallback(
    async (keep = false) => {
      const request = buildBatchRequest(useAppStore.getState().wizard);
      if (!request) return;
      patch({
        preflighting: true,
        preflightError: null,
        ...(keep ? {} : { preflight: null }),
      });
      try {
        const result = await api.batches.preflight(request);
        patch({ preflight: result, preflighting: false });
      } catch (error) {
        patch({ preflightError: error, preflighting: false, preflight: null });
      }
    },
    [patch],
  );

  useEffect(() => {
    if (!useAppStore.getState().wizard.preflight) void check();
  }, [check]);
  // Credits may have been added (or spent) since the check: the balance shown is the live one.
  const account = useAccount().data ?? null;
  const wizardReset = useAppStore((s) => s.wizardReset);

  const start = async () => {
    const request = buildBatchRequest(wizard);
    if (!request) return;
    setStarting(true);
    setStartError(null);
    try {
      const created = await api.batches.create(request);
      void refreshAccount();
      if (created.rejectedReason) {
        // A refused batch is no batch to keep: the banner above says what to do.
        await api.batches.remove(created.id).catch(() => {});
        void check();
        return;
      }
      rememberSetup(created.id, wizard);
      toast('success', t('wizard.started'));
      rememberBatch(await api.batches.get(created.id));
      // "New batch" starts afresh: the finished wizard's file, mapping and check are spent.
      wizardReset(wizard.templateId);
      navigate({ name: 'batch', id: created.id });
    } catch (error) {
      setStartError(error);
    } finally {
      setStarting(false);
    }
  };

  if (!wizard.template || !wizard.upload) return null;
  const { variables } = wizard.template;
  const missing = unmappedRequired(wizard.template, wizard.mapping, wizard.upload.fields ?? []);
  // A batch where no row can render only trips the breaker: it is not started.
  const balance = account?.balance ?? preflight?.balance ?? 0;
  const sufficient = preflight ? balance >= preflight.cost : true;
  const readyRows = preflight
    ? (preflight.valid ?? preflight.total - preflight.problems.length)
    : null;
  // Several sizes: every ready row makes one image (and costs one credit) per size.
  const perRow =
    preflight && preflight.images !== undefined && preflight.total > 0
      ? preflight.images / preflight.total
      : 1;
  const readyImages = readyRows === null ? null : readyRows * perRow;
  // One number for the money, said once: what the batch is expected to cost (an image that
  // renders costs a credit; a row with problems costs nothing). The whole cost is set aside while
  // it runs and what is not spent comes back, which the sentence says only when they differ.
  const charge = readyImages;
  const money = preflight
    ? t(
        charge !== null && charge < preflight.cost
          ? 'wizard.review.chargeHeld'
          : 'wizard.review.charge',
        {
          charge: t('common.credits', { count: charge ?? preflight.cost }),
          held: t('common.credits', { count: preflight.cost }),
        },
      )
    : '';
  const label = (name: string): string | null => {
    const variable = variables.find((v) => v.name === name);
    return variable ? variableLabel(variable) : null;
  };
  const locale = (name: string): string | null =>
    variables.find((v) => v.name === name)?.locale ?? null;
  /** The cell a variable's value came from in a row: its column's letters and the row's line. */
  const placeFor = (line: number | null): ProblemPlace => ({
    label,
    locale,
    line,
    cell: (name) => {
      const source = preflight?.mapping.find((m) => m.variable === name)?.source;
      const field =
        source && typeof source === 'object' && 'field' in source
          ? String((source as { field: unknown }).field)
          : null;
      const column = field === null ? -1 : (preflight?.fields.indexOf(field) ?? -1);
      return column >= 0 && line !== null ? cellAddress(column, line) : null;
    },
  });
  const jump = (rowIndex: number, path: string | undefined) => {
    const variable = path?.startsWith('values.') ? path.slice(7).split(/[.[]/)[0] : undefined;
    patch({
      previewRow: rowIndex,
      focusVariable: variable ?? null,
      preflight,
    });
    onJump('mapping');
  };

  return (
    <div className="stack gap-4">
      {preflighting && !preflight ? (
        <div className="card">
          <div className="card-body row" role="status">
            <span className="spinner" aria-hidden />
            {t('wizard.review.checking')}
          </div>
        </div>
      ) : null}
      {preflightError ? (
        <ErrorBanner error={preflightError} onRetry={() => void check()} place={{ label }} />
      ) : null}

      {preflight ? (
        <>
          <div className="stat-grid" data-testid="preflight-summary">
            <Stat
              label={t('wizard.review.rows')}
              value={formatNumber(language, preflight.total)}
              {...(wizard.rows ? { detail: t('wizard.review.someRows') } : {})}
            />
            <Stat
              label={t('wizard.review.valid')}
              value={formatNumber(
                language,
                preflight.valid ?? preflight.total - preflight.problems.length,
              )}
              tone="success"
            />
            <Stat
              label={t('wizard.review.invalid')}
              value={formatNumber(language, preflight.invalid ?? preflight.problems.length)}
              tone={(preflight.invalid ?? preflight.problems.length) > 0 ? 'danger' : undefined}
            />
            {perRow > 1 ? (
              <Stat
                label={t('wizard.review.images')}
                value={formatNumber(language, readyImages ?? preflight.images ?? 0)}
                detail={t('wizard.review.imagesDetail', {
                  rows: readyRows ?? preflight.total,
                  sizes: perRow,
                })}
              />
            ) : null}
            <Stat
              label={t('wizard.review.cost')}
              value={t('common.credits', { count: charge ?? preflight.cost })}
            />
            <Stat
              label={t('wizard.review.balance')}
              value={t('common.credits', { count: balance })}
            />
          </div>

          {readyRows === 0 ? (
            <div className="banner danger" role="alert" data-testid="no-rows-ready">
              <Icon name="alert" />
              <div className="grow">{t('wizard.review.noneReady')}</div>
              <Button size="sm" onClick={() => onJump('mapping')}>
                {t('wizard.review.editMapping')}
              </Button>
            </div>
          ) : sufficient ? (
            <div className="banner success" data-testid="money">
              <Icon name="checkCircle" />
              {money}
            </div>
          ) : (
            <div className="banner danger" role="alert" data-testid="money">
              <Icon name="alert" />
              <div className="grow">
                {t('wizard.review.insufficient', {
                  held: t('common.credits', { count: preflight.cost }),
                  charge: t('common.credits', { count: charge ?? preflight.cost }),
                  balance: t('common.credits', { count: balance }),
                })}
              </div>
              <Button size="sm" onClick={() => navigate({ name: 'credits' })}>
                {t('wizard.review.addCredits')}
              </Button>
            </div>
          )}

          {preflight.codesVerified !== undefined ? (
            <p className="small muted row" data-testid="codes-verified">
              <Icon name="checkCircle" />
              {t('wizard.review.codesVerified', { count: preflight.codesVerified })}
            </p>
          ) : null}

          {preflight.warnings.length > 0 ? (
            <div className="card" data-testid="preflight-warnings">
              <div className="card-header">
                <h2 className="row">
                  <Icon name="info" />
                  {t('wizard.review.warnings')}
                </h2>
              </div>
              <div className="card-body stack gap-3">
                <p className="small muted">{t('wizard.review.warningsNote')}</p>
                <ul className="problem-list warnings">
                  {preflight.warnings.map((warning, i) => (
                    <li key={i} className="problem" title={warning.path}>
                      <span className="problem-row">
                        {t('wizard.review.warningRows', { count: warning.rows })}
                      </span>
                      <span className="problem-errors">
                        {problemText(t, warning, { label, locale })}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          ) : null}

          <div className="card">
            <div className="card-header">
              <h2>{t('wizard.review.problems')}</h2>
              <span className="small muted grow" role="status" data-testid="fix-status">
                {fixed > 0 && !preflighting ? t('wizard.fix.checked') : null}
              </span>
              <Button size="sm" icon="refresh" busy={preflighting} onClick={() => void check()}>
                {t('wizard.review.check')}
              </Button>
            </div>
            {preflight.problems.length === 0 ? (
              <div className="card-body row muted">
                <Icon name="checkCircle" />
                {t('wizard.review.noProblems')}
              </div>
            ) : (
              <div className="card-body stack gap-3">
                <p className="small muted">{t('wizard.review.problemsNote')}</p>
                <ul className="problem-list" data-testid="preflight-problems">
                  {preflight.problems.map((problem) => (
                    <li key={problem.rowIndex}>
                      <button
                        type="button"
                        className="problem"
                        onClick={() => jump(problem.rowIndex, problem.errors[0]?.path)}
                      >
                        {/* The name says where the button goes and still holds what it shows. */}
                        <span className="visually-hidden">
                          {t('wizard.review.jump', { row: problem.rowIndex + 1 })}:{' '}
                        </span>
                        <span className="problem-row">
                          {t('wizard.review.row', { row: problem.rowIndex + 1 })}
                          {problem.line !== null ? (
                            <span className="subtle small">
                              {' '}
                              · {t('wizard.review.line', { line: problem.line })}
                            </span>
                          ) : null}
                        </span>
                        <span className="problem-errors">
                          {problem.errors.map((e, i) => (
                            <span key={i} title={e.path}>
                              {problemText(t, e, placeFor(problem.line))}
                            </span>
                          ))}
                        </span>
                        <Icon name="arrowRight" />
                      </button>
                    </li>
                  ))}
                </ul>
                <FixCells
                  preflight={preflight}
                  upload={wizard.upload}
                  sheet={wizard.sheet}
                  place={placeFor}
                  onEdited={(upload) => {
                    patch({ upload });
                    void check(true).then(() => {
                      setFixed((n) => n + 1);
                      // The cell edited may be gone (fixed): focus goes to the next refused
                      // cell, or to Start, never to <body>.
                      requestAnimationFrame(() => {
                        const active = document.activeElement;
                        if (active && active !== document.body) return;
                        document
                          .querySelector<HTMLElement>(
                            '[data-testid="fix-cells"] input:not(:disabled), [data-testid="start-batch"]',
                          )
                          ?.focus();
                      });
                    });
                  }}
                />
                {preflight.problemsTruncated ? (
                  <p className="small muted">
                    {t('wizard.review.truncated', { count: preflight.problems.length })}
                  </p>
                ) : null}
              </div>
            )}
          </div>
        </>
      ) : null}

      {startError ? <ErrorBanner error={startError} place={{ label }} /> : null}

      <div className="row start-row">
        <Button
          variant="primary"
          size="lg"
          icon="play"
          busy={starting}
          disabled={
            starting || preflighting || missing.length > 0 || readyRows === 0 || !sufficient
          }
          data-testid="start-batch"
          onClick={() => void start()}
        >
          {starting ? t('wizard.starting') : t('wizard.start')}
        </Button>
        {preflight ? (
          <span className="muted" data-testid="start-cost">
            {t('common.credits', { count: charge ?? preflight.cost })}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function Stat({
  label,
  value,
  tone,
  detail,
}: {
  label: string;
  value: string;
  tone?: 'success' | 'danger' | undefined;
  detail?: string;
}): ReactElement {
  return (
    <div className={`stat${tone ? ` ${tone}` : ''}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {detail ? <div className="small muted">{detail}</div> : null}
    </div>
  );
}

export function reasonText(reason: string, t: ReturnType<typeof useT>): string {
  return reason === 'insufficient-credits' ? t('error.reason.insufficient-credits') : reason;
}
