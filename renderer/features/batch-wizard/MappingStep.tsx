import { useEffect, useMemo, type ReactElement } from 'react';
import { DateInput } from '../../components/DateInput';
import type { CatalogDetail, VariableDescription } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner } from '../../components/ui';
import { useT, type Translate } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import type { MappingChoice, WizardStep } from '../../stores/wizard-slice';
import { problemText } from '../../i18n/problem-text';
import { notANumber } from '../template/not-a-number';
import { usePreview } from '../template/use-preview';
import { variableLabel } from '../template/VariableField';
import { cellText } from './DataTable';
import { autoField, effectiveChoice, nearField, rowValues } from './mapping';
import { printedValue } from './printed-value';
import { useSourceRow } from './use-source-row';
import { NEW_SERIAL } from './serial-choice';
import { SerialNumberFields } from './SerialNumberFields';

const GENERATED = ['rowNumber', 'rowIndex', 'total', 'uuid', 'today'] as const;

/** The API numbers text and number variables only (main/batch/bindings.ts). */
const COUNTED_TYPES: readonly string[] = ['text', 'longText', 'number'];

function encode(choice: MappingChoice | undefined): string {
  if (!choice || choice.kind === 'auto') return 'auto';
  switch (choice.kind) {
    case 'field':
      return `field:${choice.field}`;
    case 'generated':
      return `gen:${choice.source}`;
    default:
      return choice.kind;
  }
}

function decode(value: string, previous: MappingChoice | undefined): MappingChoice {
  if (value.startsWith('field:')) return { kind: 'field', field: value.slice(6) };
  if (value.startsWith('gen:'))
    return { kind: 'generated', source: value.slice(4) as (typeof GENERATED)[number] };
  if (value === 'constant')
    return { kind: 'constant', value: previous?.kind === 'constant' ? previous.value : '' };
  if (value === 'serial') return previous?.kind === 'serial' ? previous : NEW_SERIAL;
  if (value === 'profile') return { kind: 'profile' };
  if (value === 'default') return { kind: 'default' };
  return { kind: 'auto' };
}

export function MappingStep({
  onJump: _onJump,
}: {
  onJump: (step: WizardStep) => void;
}): ReactElement | null {
  const t = useT();
  const template = useAppStore((s) => s.wizard.template);
  const upload = useAppStore((s) => s.wizard.upload);
  const mapping = useAppStore((s) => s.wizard.mapping);
  const previewRow = useAppStore((s) => s.wizard.previewRow);
  const target = useAppStore((s) => s.wizard.target);
  const brand = useAppStore((s) => s.wizard.brand);
  const focusVariable = useAppStore((s) => s.wizard.focusVariable);
  const setMapping = useAppStore((s) => s.wizardSetMapping);
  const patch = useAppStore((s) => s.wizardPatch);
  const free = useAppStore((s) => s.previewFree);
  const imagesDir = useAppStore((s) =>
    s.wizard.imagesMode === 'folder' ? s.wizard.imagesDir.trim() : '',
  );

  useEffect(() => {
    if (!focusVariable) return;
    document.getElementById(`map-${focusVariable}`)?.focus();
    patch({ focusVariable: null });
  }, [focusVariable, patch]);

  const fields = useMemo(() => upload?.fields ?? [], [upload]);
  const rows = useMemo(() => upload?.preview ?? [], [upload]);
  const sheet = useAppStore((s) => s.wizard.sheet);
  const source = useSourceRow(upload, sheet, previewRow);
  const row = useMemo(() => source.row ?? {}, [source.row]);
  const totalRows = upload?.rows ?? rows.length;

  // A row that cannot render (a required value with no source) is not sent: the table says why.
  const missingRequired = useMemo(
    () =>
      template?.variables.some((v) => {
        if (!v.required || v.default !== undefined) return false;
        return (
          rowValues(template, mapping, fields, row, previewRow, totalRows)[v.name] === undefined &&
          !v.bindsTo
        );
      }) ?? false,
    [template, mapping, fields, row, previewRow, totalRows],
  );
  const previewable = useMemo(
    () =>
      template
        ? previewableValues(
            template,
            rowValues(template, mapping, fields, row, previewRow, totalRows),
            imagesDir,
          )
        : null,
    [template, mapping, fields, row, previewRow, totalRows, imagesDir],
  );
  // A number cell holding text ("không rõ") is said here; the API would refuse its preview.
  const notNumbers = useMemo(
    () => (template && previewable ? notANumber(template.variables, previewable.values) : []),
    [template, previewable],
  );
  const request = useMemo(
    () =>
      template && previewable && !missingRequired && !source.loading && notNumbers.length === 0
        ? {
            templateId: template.id,
            values: previewable.values,
            ...(target ? { target } : {}),
            ...(brand ? { brand } : {}),
            format: 'jpeg' as const,
            quality: 80,
          }
        : null,
    [template, previewable, target, brand, missingRequired, source.loading, notNumbers],
  );
  const preview = usePreview(request, { live: free });

  if (!template || !upload) return null;
  const label = (name: string): string | null => {
    const variable = template.variables.find((v) => v.name === name);
    return variable ? variableLabel(variable) : null;
  };
  const locale = (name: string): string | null =>
    template.variables.find((v) => v.name === name)?.locale ?? null;

  return (
    <div className="mapping-layout">
      <div className="stack gap-4">
        <p className="muted">{t('wizard.mapping.intro')}</p>
        <div className="table-wrap">
          <table className="table mapping-table">
            <thead>
              <tr>
                <th scope="col">{t('wizard.mapping.variable')}</th>
                <th scope="col">{t('wizard.mapping.source')}</th>
                <th scope="col">{t('wizard.review.row', { row: previewRow + 1 })}</th>
              </tr>
            </thead>
            <tbody>
              {template.variables.map((variable) => (
                <MappingRow
                  key={variable.name}
                  variable={variable}
                  fields={fields}
                  choice={mapping[variable.name]}
                  sample={
                    rowValues(template, mapping, fields, row, previewRow, totalRows)[variable.name]
                  }
                  sampleHeading={t('wizard.review.row', { row: previewRow + 1 })}
                  lastRow={Math.max(0, totalRows - 1)}
                  onChange={(choice) => setMapping(variable.name, choice)}
                />
              ))}
            </tbody>
          </table>
        </div>
        <FilledRows template={template} fields={fields} rows={rows} totalRows={totalRows} t={t} />
      </div>

      <aside
        className="mapping-preview stack gap-3"
        aria-label={t('wizard.mapping.preview', { row: previewRow + 1 })}
      >
        <div className="row between">
          <h3>{t('wizard.mapping.preview', { row: previewRow + 1 })}</h3>
          <label className="row small">
            <span>{t('wizard.mapping.previewRow')}</span>
            {/* Every row of the sheet, not only the first ones the upload previewed. */}
            <input
              className="input num row-picker"
              type="number"
              min={1}
              max={Math.max(1, totalRows)}
              value={previewRow + 1}
              data-testid="row-picker"
              onChange={(e) => {
                const n = Math.round(Number(e.target.value));
                if (Number.isFinite(n) && n >= 1 && n <= Math.max(1, totalRows))
                  patch({ previewRow: n - 1, preflight: null });
              }}
            />
            <span className="subtle num">{t('wizard.mapping.ofRows', { count: totalRows })}</span>
          </label>
        </div>
        <div className="mapping-preview-frame">
          {preview.url && notNumbers.length === 0 ? (
            <img
              src={preview.url}
              alt={t('wizard.mapping.preview', { row: previewRow + 1 })}
              data-testid="mapping-preview"
            />
          ) : (
            <img
              src={template.thumbnails[target ?? ''] ?? template.thumbnail}
              alt=""
              className="dim"
            />
          )}
          {preview.busy ? (
            <div className="preview-busy" role="status">
              <span className="spinner" aria-hidden />
              {t('detail.preview.rendering')}
            </div>
          ) : null}
        </div>
        {notNumbers.length > 0 ? (
          <div className="banner warning" role="status" data-testid="mapping-not-number">
            <Icon name="alert" />
            <div className="grow stack gap-1">
              {notNumbers.map((problem) => (
                <div key={problem.path}>{problemText(t, problem, { label, locale })}</div>
              ))}
            </div>
          </div>
        ) : null}
        {preview.error ? <ErrorBanner error={preview.error} place={{ label }} /> : null}
        {previewable?.sampleImages ? (
          <div className="small muted">
            {/* The step by its name in the step bar, so the two never differ. */}
            {t('wizard.mapping.sampleImage', { step: t('wizard.step.output') })}
          </div>
        ) : null}
        <div className="small muted">
          {free ? t('detail.preview.free') : t('brand.preview.note')}
        </div>
        {!free ? (
          <div>
            <Button icon="refresh" onClick={preview.refresh} busy={preview.busy}>
              {t('brand.preview.button')}
            </Button>
          </div>
        ) : null}
      </aside>
    </div>
  );
}

function MappingRow({
  variable,
  fields,
  choice,
  sample,
  sampleHeading,
  lastRow,
  onChange,
}: {
  variable: VariableDescription;
  fields: string[];
  choice: MappingChoice | undefined;
  sample: unknown;
  /** The Row column's heading ("Row 1"), said before the value where it goes under the choice. */
  sampleHeading: string;
  lastRow: number;
  onChange: (choice: MappingChoice) => void;
}): ReactElement {
  const t = useT();
  const auto = autoField(variable, fields);
  const near = !choice || choice.kind === 'auto' ? nearField(variable, fields) : null;
  const effective = effectiveChoice(variable, choice, fields);
  const missing =
    variable.required && effective.kind === 'default' && variable.default === undefined;
  const label = variableLabel(variable);
  const selectId = `map-${variable.name}`;
  const printed = printedValue(variable, sample);
  return (
    <tr className={missing ? 'highlight' : undefined}>
      <td>
        <label htmlFor={selectId} className="stack gap-2" style={{ gap: 2 }}>
          {/* In a narrow window the badge goes under the label, not the label into one word a line. */}
          <span className="row wrap">
            <strong>{label}</strong>
            {variable.required ? (
              <span className="badge plain warning">{t('wizard.mapping.required')}</span>
            ) : null}
          </span>
          <span className="mono subtle">{variable.name}</span>
        </label>
      </td>
      <td className="mapping-source">
        <div className="stack gap-2">
          <select
            id={selectId}
            className="select"
            value={encode(choice)}
            onChange={(e) => onChange(decode(e.target.value, choice))}
            aria-invalid={missing || undefined}
            data-variable={variable.name}
          >
            <option value="auto">
              {auto
                ? t('wizard.mapping.auto', { field: auto })
                : variable.bindsTo
                  ? t('wizard.mapping.unmatchedBrand')
                  : t('wizard.mapping.unmatched')}
            </option>
            <optgroup label={t('wizard.mapping.columns')}>
              {fields.map((field) => (
                <option key={field} value={`field:${field}`}>
                  {t('wizard.mapping.column', { field })}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('wizard.mapping.other')}>
              <option value="constant">{t('wizard.mapping.constant')}</option>
              {variable.bindsTo ? (
                <option value="profile">{t('wizard.mapping.profile')}</option>
              ) : null}
              {COUNTED_TYPES.includes(variable.type) ? (
                <option value="serial">{t('wizard.mapping.serial')}</option>
              ) : null}
              {GENERATED.filter((g) => g !== 'total' || COUNTED_TYPES.includes(variable.type)).map(
                (g) => (
                  <option key={g} value={`gen:${g}`}>
                    {t(`wizard.mapping.gen.${g}`)}
                  </option>
                ),
              )}
              {variable.default !== undefined || !auto ? (
                <option value="default">{t('wizard.mapping.default')}</option>
              ) : null}
            </optgroup>
          </select>
          {choice?.kind === 'constant' ? (
            variable.type === 'longText' || variable.type === 'list' ? (
              <textarea
                className="textarea"
                rows={2}
                value={choice.value}
                aria-label={t('wizard.mapping.constantValue', { label })}
                onChange={(e) => onChange({ kind: 'constant', value: e.target.value })}
              />
            ) : variable.type === 'date' ? (
              <DateInput
                value={choice.value}
                locale={variable.locale ?? 'en-US'}
                label={t('wizard.mapping.constantValue', { label })}
                onChange={(value) => onChange({ kind: 'constant', value: value ?? '' })}
              />
            ) : (
              <input
                className="input"
                type={variable.type === 'number' ? 'number' : 'text'}
                value={choice.value}
                aria-label={t('wizard.mapping.constantValue', { label })}
                onChange={(e) => onChange({ kind: 'constant', value: e.target.value })}
              />
            )
          ) : null}
          {choice?.kind === 'serial' ? (
            <SerialNumberFields
              variableName={variable.name}
              label={label}
              choice={choice}
              lastRow={lastRow}
              onChange={onChange}
            />
          ) : null}
          {near ? (
            <span className="mapping-near small" data-testid={`near-${variable.name}`}>
              {t('wizard.mapping.near', { field: near })}
              <Button size="sm" onClick={() => onChange({ kind: 'field', field: near })}>
                {t('wizard.mapping.nearUse')}
              </Button>
            </span>
          ) : null}
          {missing ? (
            <span className="field-error">
              <Icon name="alert" size={14} />
              {t('wizard.mapping.missingRequired')}
            </span>
          ) : null}
          {/* Shown in a narrow window only, where the Row column is not. */}
          <span className="mapping-sample-below small" title={printed}>
            {sampleHeading}: {sample === undefined ? '—' : printed}
          </span>
        </div>
      </td>
      <td className="mapping-sample" title={printed}>
        {sample === undefined ? <span className="subtle">—</span> : printed}
      </td>
    </tr>
  );
}

function FilledRows({
  template,
  fields,
  rows,
  totalRows,
  t,
}: {
  template: CatalogDetail;
  fields: string[];
  rows: Record<string, unknown>[];
  totalRows: number;
  t: Translate;
}): ReactElement {
  const mapping = useAppStore((s) => s.wizard.mapping);
  const previewRow = useAppStore((s) => s.wizard.previewRow);
  const patch = useAppStore((s) => s.wizardPatch);
  const shown = rows.slice(0, 8);
  return (
    <div className="stack gap-2">
      <h3>{t('wizard.mapping.dataPreview')}</h3>
      <div
        className="table-wrap"
        tabIndex={0}
        role="region"
        aria-label={t('wizard.mapping.dataPreview')}
      >
        <table className="table data">
          <thead>
            <tr>
              <th className="num">#</th>
              {template.variables.map((v) => (
                <th key={v.name} scope="col">
                  {variableLabel(v)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, index) => {
              const values = rowValues(template, mapping, fields, row, index, totalRows);
              return (
                <tr
                  key={index}
                  className={`clickable${index === previewRow ? ' highlight' : ''}`}
                  onClick={() => patch({ previewRow: index })}
                  data-row={index}
                >
                  <td className="num subtle">{index + 1}</td>
                  {template.variables.map((v) => (
                    <td key={v.name} title={cellText(values[v.name])}>
                      {values[v.name] === undefined ? (
                        <span className="subtle">—</span>
                      ) : (
                        cellText(values[v.name])
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\|upl_|(?:data|https?|file|asset):)/i;

/**
 * A single render knows nothing of the batch's images folder or zip: relative image paths are
 * joined to the folder when there is one. Otherwise the template's sample image stands in (a
 * required photo cannot simply be left out), or the value is dropped and the template's own
 * image shows.
 */
function previewableValues(
  template: CatalogDetail,
  values: Record<string, unknown>,
  imagesDir: string,
): { values: Record<string, unknown>; sampleImages: boolean } {
  const out = { ...values };
  let sampleImages = false;
  for (const variable of template.variables) {
    const value = out[variable.name];
    if (variable.type !== 'image' || typeof value !== 'string' || ABSOLUTE.test(value)) continue;
    if (imagesDir) {
      const separator = imagesDir.includes('\\') && !imagesDir.includes('/') ? '\\' : '/';
      out[variable.name] =
        imagesDir.replace(/[\\/]+$/, '') + separator + value.replace(/^[.][\\/]/, '');
      continue;
    }
    const sample = template.sampleValues[variable.name];
    sampleImages = true;
    if (typeof sample === 'string' && sample !== '') out[variable.name] = sample;
    else delete out[variable.name];
  }
  return { values: out, sampleImages };
}
