import type { ReactElement } from 'react';
import { brandRoleValue } from './brand-values';
import type { BrandProfile, BrandRole, VariableDescription } from '../../api/types';
import { Icon } from '../../components/Icon';
import { DateInput } from '../../components/DateInput';
import { ColourInput, ImageInput, ListEditor } from '../../components/inputs';
import { NumberInput } from '../../components/NumberInput';
import { Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { numberExample } from '../../i18n/problem-text';
import { printedValue } from '../batch-wizard/printed-value';

export function variableLabel(variable: VariableDescription): string {
  return variable.label ?? variable.name;
}

/** Text typed into a number field that no number reads as, with an example in its market's way. */
export function notANumberText(
  t: ReturnType<typeof useT>,
  variable: VariableDescription,
  text: string,
): string {
  return t('field.number.invalid', { text, example: numberExample(variable.locale ?? 'en-US') });
}

/** The right control for a variable's type. */
export function VariableControl({
  variable,
  value,
  onChange,
  id,
  describedBy,
  invalid,
  placeholderUrl,
}: {
  variable: VariableDescription;
  value: unknown;
  onChange: (value: unknown) => void;
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
  placeholderUrl?: string | null;
}): ReactElement {
  const label = variableLabel(variable);
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined };
  switch (variable.type) {
    case 'text':
      return (
        <input
          {...common}
          className="input"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'longText':
      return (
        <textarea
          {...common}
          className="textarea"
          rows={3}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'colour':
      return (
        <ColourInput
          id={id}
          label={label}
          value={typeof value === 'string' ? value : ''}
          onChange={onChange}
          describedBy={describedBy}
          invalid={invalid}
        />
      );
    case 'image':
      return (
        <ImageInput
          id={id}
          label={label}
          value={typeof value === 'string' ? value : null}
          onChange={onChange}
          describedBy={describedBy}
          invalid={invalid}
          placeholderUrl={placeholderUrl ?? null}
        />
      );
    case 'number':
      return (
        <NumberInput
          id={id}
          value={value}
          onChange={onChange}
          locale={variable.locale ?? 'en-US'}
          describedBy={describedBy}
          invalid={invalid}
        />
      );
    case 'date':
      return (
        <DateInput
          id={id}
          value={value}
          onChange={onChange}
          locale={variable.locale ?? 'en-US'}
          describedBy={describedBy}
          invalid={invalid}
        />
      );
    case 'enum':
      return (
        <select
          {...common}
          className="select"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        >
          {!variable.required ? <option value="">—</option> : null}
          {(variable.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'list':
      return (
        <ListEditor
          id={id}
          label={label}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
          maxItems={variable.maxItems}
          describedBy={describedBy}
        />
      );
  }
}

/** One variable of the form: its label, control, limits, server error, and brand binding. */
export function VariableField({
  variable,
  value,
  onChange,
  error,
  brand,
  overridden,
  onOverride,
  onEditBrand,
}: {
  variable: VariableDescription;
  value: unknown;
  onChange: (value: unknown) => void;
  error: string | undefined;
  brand: BrandProfile | null;
  overridden: boolean;
  onOverride: (on: boolean) => void;
  onEditBrand: () => void;
}): ReactElement {
  const t = useT();
  const label = variableLabel(variable);
  const role = variable.bindsTo as BrandRole | null;
  const fromBrand = role !== null && !overridden;
  const brandCurrent = role && brand ? brandRoleValue(brand, role) : null;
  const hints: string[] = [];
  if (variable.description) hints.push(variable.description);
  if (variable.type === 'number' && variable.min !== undefined && variable.max !== undefined) {
    hints.push(t('field.number.range', { min: variable.min, max: variable.max }));
  }
  // How a typed number will print, and text that is no number, are said before any render, in
  // the template's own format (1.250.000 ₫): one way of writing numbers per field, whatever the
  // UI language, the same the field reads and the mapping step shows.
  if (
    variable.type === 'number' &&
    typeof value === 'number' &&
    !fromBrand &&
    (Math.abs(value) >= 1000 || !Number.isInteger(value))
  ) {
    hints.push(t('field.number.prints', { value: printedValue(variable, value) }));
  }
  // A pasted headline is kept whole (no cut mid-word): the field says it is over the limit.
  const over =
    (variable.type === 'text' || variable.type === 'longText') &&
    variable.maxLength !== undefined &&
    typeof value === 'string' &&
    !fromBrand
      ? [...value].length - variable.maxLength
      : 0;
  if (over > 0 && variable.maxLength !== undefined) {
    hints.unshift(t('field.text.over', { over, max: variable.maxLength }));
  }
  const localError =
    variable.type === 'number' && typeof value === 'string' && !fromBrand
      ? notANumberText(t, variable, value)
      : undefined;
  const counter =
    (variable.type === 'text' || variable.type === 'longText') &&
    variable.maxLength &&
    typeof value === 'string' &&
    !fromBrand ? (
      <span
        className={`small num ${value.length > variable.maxLength ? 'danger-text' : value.length === variable.maxLength ? 'warning-text' : 'subtle'}`}
      >
        {t('detail.maxLength', { count: value.length, max: variable.maxLength })}
      </span>
    ) : null;

  return (
    <Field
      label={label}
      optional={!variable.required && role === null}
      hint={hints.length > 0 ? hints.join(' · ') : undefined}
      error={localError ?? error}
      aside={
        role !== null ? (
          <label className="check small">
            <input
              type="checkbox"
              className="switch"
              checked={overridden}
              onChange={(e) => onOverride(e.target.checked)}
            />
            {t('detail.override')}
          </label>
        ) : (
          counter
        )
      }
    >
      {({ id, describedBy, invalid }) =>
        fromBrand ? (
          <div className="brand-bound" id={id} aria-describedby={describedBy}>
            <Icon name="palette" />
            <div className="grow">
              <div className="small muted">{t('detail.fromBrand')}</div>
              <BrandValuePreview variable={variable} value={brandCurrent} />
            </div>
            <button type="button" className="btn ghost sm" onClick={onEditBrand}>
              {t('detail.editBrand')}
            </button>
          </div>
        ) : (
          <VariableControl
            variable={variable}
            value={value}
            onChange={onChange}
            id={id}
            describedBy={describedBy}
            invalid={invalid}
          />
        )
      }
    </Field>
  );
}

function BrandValuePreview({
  variable,
  value,
}: {
  variable: VariableDescription;
  value: string | null;
}): ReactElement {
  const t = useT();
  if (!value) return <div className="small subtle">{t('detail.brandEmpty')}</div>;
  if (variable.type === 'colour') {
    return (
      <div className="row">
        <span className="swatch" style={{ background: value }} />
        <span className="mono">{value}</span>
      </div>
    );
  }
  if (variable.type === 'image') {
    return value.startsWith('data:image/') ? (
      <img className="brand-logo-mini" src={value} alt="" />
    ) : (
      <span className="mono small">{value.slice(0, 40)}</span>
    );
  }
  return <div className="brand-text">{value}</div>;
}
