import { saveFileName } from './save-name';
import { startingOutput } from '../../stores/wizard-slice';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { OUTPUT_FORMATS } from '../../../shared/output-formats';
import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import type {
  CatalogDetail,
  OutputFormat,
  RenderRequest,
  VariableDescription,
} from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner, Loading, Segmented } from '../../components/ui';
import { formatNumber, useLanguage, useT } from '../../i18n/i18n';
import { problemText, problemVariable, type ProblemPlace } from '../../i18n/problem-text';
import { taxonomyLabel } from '../../i18n/taxonomy';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import { BrandSelect } from '../brand/BrandSelect';
import { useBrandChoice } from '../brand/use-brands';
import { targetLabel } from '../catalog/target-label';
import { CustomiseButton } from '../workspace/CustomiseButton';
import { notANumber } from './not-a-number';
import { PAID_PREVIEW_DELAY_MS, usePreview } from './use-preview';
import { notANumberText, VariableField, variableLabel } from './VariableField';
import { setBalance, useAccount } from '../../api/use-account';

const EXTENSIONS: Record<OutputFormat, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  avif: 'avif',
  pdf: 'pdf',
};

export function initialValue(
  variable: VariableDescription,
  sample: Record<string, unknown>,
): unknown {
  if (sample[variable.name] !== undefined) return sample[variable.name];
  if (variable.default !== undefined) return variable.default;
  if (variable.type === 'list') return [];
  if (variable.type === 'number' || variable.type === 'image' || variable.type === 'date')
    return null;
  if (variable.type === 'enum') return variable.options?.[0]?.value ?? '';
  return '';
}

export function TemplateScreen({ id }: { id: string }): ReactElement {
  const t = useT();
  const [template, setTemplate] = useState<CatalogDetail | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const load = useCallback(() => {
    setLoadError(null);
    api.catalog.detail(id).then(setTemplate, setLoadError);
  }, [id]);
  useEffect(load, [load]);
  const navigate = useAppStore((s) => s.navigate);

  return (
    <div className="page wide">
      <div>
        <button type="button" className="crumb" onClick={() => navigate({ name: 'catalog' })}>
          <Icon name="arrowLeft" size={14} />
          {t('detail.back')}
        </button>
      </div>
      {loadError ? <ErrorBanner error={loadError} onRetry={load} /> : null}
      {!template && !loadError ? <Loading /> : null}
      {template ? <TemplateEditor template={template} /> : null}
    </div>
  );
}

function TemplateEditor({ template }: { template: CatalogDetail }): ReactElement {
  const t = useT();
  const language = useLanguage();
  const navigate = useAppStore((s) => s.navigate);
  const defaultProfile = useAppStore((s) => s.brand);
  // The brand this render is made with (the default unless the user picks another).
  const { brands, brandId, setBrandId, chosen } = useBrandChoice();
  const brand = chosen?.profile ?? defaultProfile;
  const loadBrand = useAppStore((s) => s.loadBrand);
  const account = useAccount().data ?? null;
  const toast = useAppStore((s) => s.toast);
  const wizardPatch = useAppStore((s) => s.wizardPatch);

  useEffect(() => {
    void loadBrand().catch(() => {});
  }, [loadBrand]);

  const sampleValues = useMemo(() => {
    const values: Record<string, unknown> = {};
    for (const v of template.variables) values[v.name] = initialValue(v, template.sampleValues);
    return values;
  }, [template]);
  const [values, setValues] = useState<Record<string, unknown>>(sampleValues);
  const [overrides, setOverrides] = useState<Set<string>>(new Set());
  const [ratio, setRatio] = useState<string>(
    template.primaryTarget ?? template.targets[0] ?? 'square',
  );
  // A print template opens on its print layout as a PDF (the catalog says so in `format`).
  const [format, setFormat] = useState<OutputFormat>(template.format);
  const [cropMarks, setCropMarks] = useState(false);
  // Crop marks are offered for print layouts, whose trim and bleed they mark.
  const printable = Boolean(template.layouts[ratio]?.page);
  const [edited, setEdited] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const free = useAppStore((s) => s.previewFree);
  const [live, setLive] = useState(true);

  const request: RenderRequest = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const v of template.variables) {
      // A brand-bound value is the server's to fill, by the API's one rule (brand, else the
      // template's default, else empty): the preview shows what a batch row would.
      if (v.bindsTo && !overrides.has(v.name)) continue;
      const value = values[v.name];
      if (value === null || value === undefined) continue;
      if (typeof value === 'number' && !Number.isFinite(value)) continue;
      out[v.name] = value;
    }
    // Previews are small JPEGs; "Save image…" renders the chosen format.
    return {
      templateId: template.id,
      values: out,
      target: ratio,
      ...(brandId ? { brand: brandId } : {}),
      format: 'jpeg',
      quality: 80,
    };
  }, [template, values, overrides, ratio, brand, brandId]);

  // Nothing is rendered (or charged) until the first edit, unless previews are free: the
  // thumbnail already shows the sample values.
  // Text in a number field ("abc") is said by the field and over the preview; the API would
  // refuse the render, so none is asked for.
  const notNumbers = useMemo(
    () => notANumber(template.variables, request.values),
    [template, request],
  );
  const preview = usePreview((free || edited) && notNumbers.length === 0 ? request : null, {
    live,
  });
  const stale = Boolean(preview.error) || notNumbers.length > 0;
  // Said over the preview in the field's own words, example included.
  const notNumberVariable = notNumbers[0]
    ? template.variables.find((v) => v.name === problemVariable(notNumbers[0]!.path))
    : undefined;
  const error = saveError ?? preview.error;
  const place: ProblemPlace = {
    label: (name) => {
      const variable = template.variables.find((v) => v.name === name);
      return variable ? variableLabel(variable) : null;
    },
    locale: (name) => template.variables.find((v) => v.name === name)?.locale ?? null,
  };
  const fieldError = (name: string) => {
    const problem = isApiError(error)
      ? error.problems.find((p) => problemVariable(p.path) === name)
      : undefined;
    return problem ? problemText(t, problem, place) : undefined;
  };

  const update = (name: string, value: unknown) => {
    setEdited(true);
    setValues((prev) => ({ ...prev, [name]: value }));
  };

  const save = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      const result = await api.render(
        {
          ...request,
          format,
          quality: format === 'png' ? undefined : 92,
          ...(cropMarks && printable ? { cropMarks: true } : {}),
        },
        { idempotencyKey: crypto.randomUUID() },
      );
      if (result.creditsRemaining !== null) setBalance(result.creditsRemaining);
      // A multi-page layout's images come as one zip of numbered pages.
      const zip = result.blob.type === 'application/zip';
      const extension = zip ? 'zip' : EXTENSIONS[format];
      const name = saveFileName(template, ratio, extension);
      if (native.available && result.outputKey) {
        const saved = await native.saveUrl(await api.outputLink(result.outputKey), name, [
          { name: zip ? 'ZIP' : format.toUpperCase(), extensions: [extension] },
        ]);
        if (!saved) return;
      } else {
        native.saveBlob(result.blob, name);
      }
      toast('success', t('detail.saved', { credits: result.creditsRemaining ?? 0 }));
    } catch (e) {
      setSaveError(e);
    } finally {
      setSaving(false);
    }
  };

  // Ctrl+S / Cmd+S saves the image, as Save image… does (never the browser's Save page).
  const saveRef = useRef(save);
  saveRef.current = save;
  const canSave = !saving && account?.subscription.status !== 'lapsed';
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      if (event.altKey || event.shiftKey) return;
      event.preventDefault();
      if (canSave) void saveRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canSave]);

  // A refused save is said where the user is: the first field at fault takes the focus (in
  // view), and the action bar says what stopped it, instead of a summary off-screen at the top.
  const refused = isApiError(saveError) && saveError.problems.length > 0 ? saveError : null;
  useEffect(() => {
    if (!refused) return;
    const field = document.querySelector<HTMLElement>('#template-values [aria-invalid="true"]');
    field?.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  }, [refused]);

  const layout = template.layouts[ratio];
  const aspect = layout ? `${layout.width} / ${layout.height}` : '1 / 1';
  const ratioValue = layout ? layout.width / layout.height : 1;
  const thumbnail = template.thumbnails[ratio] ?? template.thumbnail;
  const imageUrl = preview.url ?? thumbnail;
  const lapsed = account?.subscription.status === 'lapsed';
  const showValidation = isApiError(error) && error.problems.length > 0;

  return (
    <div className="editor">
      <section className="editor-preview" aria-label={t('detail.preview')}>
        <div className="preview-stage">
          <div
            className={`preview-frame${stale ? ' stale' : ''}`}
            style={{ aspectRatio: aspect, ['--ratio' as string]: String(ratioValue) }}
          >
            <img
              src={imageUrl}
              alt={t('detail.preview.alt', { name: template.name })}
              data-testid="preview-image"
              data-preview-count={preview.count}
            />
            {/* An image of older values must not pass for these: say so over it. */}
            {stale && !preview.busy ? (
              <div className="preview-stale" role="status" data-testid="preview-stale">
                <Icon name="alert" size={16} />
                {notNumberVariable
                  ? `${variableLabel(notNumberVariable)}: ${notANumberText(t, notNumberVariable, String(request.values[notNumberVariable.name]))}`
                  : t('detail.preview.stale')}
              </div>
            ) : null}
            {preview.busy ? (
              <div className="preview-busy" role="status">
                <span className="spinner" aria-hidden />
                {t('detail.preview.rendering')}
              </div>
            ) : null}
          </div>
        </div>
        <div className="preview-bar">
          <Segmented
            label={t('detail.ratio')}
            value={ratio}
            onChange={(r) => setRatio(r)}
            options={template.targets.map((r) => ({
              value: r,
              label: targetLabel(t, template, r),
            }))}
          />
        </div>
        <div className="preview-note small">
          <label className="check">
            <input
              type="checkbox"
              className="switch"
              checked={live}
              onChange={(e) => setLive(e.target.checked)}
            />
            {t('detail.preview.live')}
          </label>
          <span className="muted grow">
            {free
              ? t('detail.preview.free')
              : t('detail.preview.cost', { delay: `${PAID_PREVIEW_DELAY_MS / 1000}s` })}
          </span>
          {!live ? (
            <Button size="sm" icon="refresh" onClick={preview.refresh} busy={preview.busy}>
              {t('detail.preview.refresh')}
            </Button>
          ) : null}
        </div>
      </section>

      <section className="editor-side" aria-labelledby="template-title">
        <header className="stack gap-2">
          <div className="row small muted wrap">
            <span>{taxonomyLabel(language, template.category)}</span>
            <span aria-hidden>·</span>
            <span>{taxonomyLabel(language, template.subCategory)}</span>
            {template.market === 'vietnam' ? (
              <span className="chip">{t('market.vietnam')}</span>
            ) : null}
            {/* Its colours follow the brand kit: changing the brand changes this template. */}
            {template.variables.some(
              (v) => v.bindsTo?.startsWith('brand.') && v.bindsTo.endsWith('Color'),
            ) ? (
              <button
                type="button"
                className="chip chip-link"
                data-testid="uses-brand-colours"
                title={t('detail.usesBrandColours.hint')}
                onClick={() => navigate({ name: 'brand' })}
              >
                <Icon name="palette" size={12} />
                {t('detail.usesBrandColours')}
              </button>
            ) : null}
          </div>
          <h1 id="template-title">{template.name}</h1>
          {template.description ? <p className="muted">{template.description}</p> : null}
          <CustomiseButton templateId={template.id} />
          {/* Past the values form in one keystroke: saving is what most visits are for. */}
          <a
            className="skip-inline"
            href="#template-save"
            onClick={(e) => {
              e.preventDefault();
              document.querySelector<HTMLElement>('#template-save button')?.focus();
            }}
          >
            {t('detail.skipToSave')}
          </a>
        </header>

        {lapsed ? (
          <div className="banner warning">
            <Icon name="alert" />
            {t('detail.lapsed')}
          </div>
        ) : null}
        {error ? (
          <ErrorBanner
            error={error}
            title={showValidation ? t('error.validation') : undefined}
            place={place}
          />
        ) : null}

        <div className="card">
          <div className="card-header">
            <h2>{t('detail.values')}</h2>
            <Button
              size="sm"
              variant="ghost"
              icon="refresh"
              onClick={() => {
                setValues(sampleValues);
                setOverrides(new Set());
              }}
            >
              {t('detail.resetValues')}
            </Button>
          </div>
          <form
            className="card-body stack gap-4"
            onSubmit={(e) => e.preventDefault()}
            id="template-values"
            data-testid="values-form"
          >
            <BrandSelect
              brands={brands}
              value={brandId}
              onChange={(id) => {
                setEdited(true);
                setBrandId(id);
              }}
            />
            {template.variables.map((variable) => (
              <VariableField
                key={variable.name}
                variable={variable}
                value={values[variable.name]}
                onChange={(v) => update(variable.name, v)}
                error={fieldError(variable.name)}
                brand={brand}
                overridden={overrides.has(variable.name)}
                onOverride={(on) => {
                  setEdited(true);
                  setOverrides((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(variable.name);
                    else next.delete(variable.name);
                    return next;
                  });
                }}
                onEditBrand={() => navigate({ name: 'brand' })}
              />
            ))}
          </form>
        </div>

        {/* Saving stays in reach however long the form is: the bar sticks to the window's foot. */}
        <div
          className="card action-bar"
          role="region"
          aria-label={t('detail.actions')}
          data-testid="template-actions"
        >
          <div className="card-body stack gap-2">
            <div className="row between wrap">
              <Segmented
                label={t('detail.format')}
                value={format}
                onChange={setFormat}
                options={OUTPUT_FORMATS.map((f) => ({
                  value: f,
                  label: t(`format.${f}`),
                }))}
              />
              {printable ? (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={cropMarks}
                    onChange={(e) => setCropMarks(e.target.checked)}
                  />
                  {t('detail.cropMarks')}
                </label>
              ) : null}
              <span className="small muted num">
                {account
                  ? t('detail.balance', { balance: formatNumber(language, account.balance) })
                  : null}
              </span>
            </div>
            <div className="row wrap" id="template-save">
              <Button
                variant="primary"
                icon="download"
                onClick={() => void save()}
                busy={saving}
                disabled={saving || lapsed}
                title={t('detail.save.keys')}
                aria-keyshortcuts="Control+S Meta+S"
              >
                {saving ? t('detail.saving') : t('detail.save')}
              </Button>
              <span className="small subtle">{t('detail.saveCost')}</span>
            </div>
            {refused ? (
              <p className="field-error" role="alert" data-testid="save-refused">
                <Icon name="alert" size={14} />
                {t('detail.saveRefused', { count: refused.problems.length })}{' '}
                {problemText(t, refused.problems[0]!, place)}
              </p>
            ) : null}
          </div>
        </div>
        <div className="card">
          <div className="card-body">
            <div className="row wrap">
              <Button
                icon="sparkles"
                onClick={() => {
                  wizardPatch({
                    templateId: template.id,
                    ...startingOutput(template, ratio),
                    mapping: {},
                  });
                  navigate({ name: 'wizard', templateId: template.id });
                }}
              >
                {t('detail.batch')}
              </Button>
              <Button
                variant="ghost"
                icon="file"
                onClick={() =>
                  void api.batches
                    .templateFieldsCsvLink(template.id)
                    .then((link) =>
                      native.saveUrl(link, `${template.id}.csv`, [
                        { name: 'CSV', extensions: ['csv'] },
                      ]),
                    )
                }
              >
                {t('detail.csv')}
              </Button>
            </div>
          </div>
        </div>
      </section>
    </div>
  );
}
