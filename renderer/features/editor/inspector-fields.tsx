import { useEffect, useId, useState, type ReactElement, type ReactNode } from 'react';
import type { Variable } from '../../api/types';
import { Icon } from '../../components/Icon';
import { ColourInput } from '../../components/inputs';
import { useT } from '../../i18n/i18n';
import { uniqueVariableName } from './layer-ops';
import { useEditorStore } from './editor-store';

/** Small labelled controls of the inspector; each shows the server's problem for its path. */

function Problem({
  id,
  message,
}: {
  id: string;
  message: string | undefined;
}): ReactElement | null {
  if (!message) return null;
  return (
    <div className="field-error" id={id} role="alert">
      <Icon name="alert" size={14} />
      <span>{message}</span>
    </div>
  );
}

export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  optional,
  error,
  suffix,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  min?: number;
  max?: number;
  step?: number;
  optional?: boolean;
  error?: string | undefined;
  suffix?: string;
}): ReactElement {
  const id = useId();
  // The text is kept while typing ("1." or "-") and committed when it is a number.
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => {
    setText((current) => (Number(current) === value && current !== '' ? current : fmt(value)));
  }, [value]);
  return (
    <div className="ed-field">
      <label htmlFor={id}>{label}</label>
      <div className="ed-number">
        <input
          id={id}
          className="input num"
          type="number"
          inputMode="decimal"
          value={text}
          min={min}
          max={max}
          step={step ?? 1}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-e` : undefined}
          placeholder={optional ? '—' : undefined}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            if (next === '' && optional) onChange(undefined);
            else if (next !== '' && Number.isFinite(Number(next))) onChange(Number(next));
          }}
        />
        {suffix ? <span className="ed-suffix">{suffix}</span> : null}
      </div>
      <Problem id={`${id}-e`} message={error} />
    </div>
  );
}

function fmt(value: number | undefined): string {
  if (value === undefined) return '';
  return String(Math.round(value * 1000) / 1000);
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  error,
  wide,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
  error?: string | undefined;
  /** The whole row: for options whose labels are long ("Fit inside the box"). */
  wide?: boolean;
}): ReactElement {
  const id = useId();
  return (
    <div className={wide ? 'ed-field wide' : 'ed-field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Problem id={`${id}-e`} message={error} />
    </div>
  );
}

export function TextField({
  label,
  value,
  onChange,
  multiline,
  error,
  hint,
  mono,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  mono?: boolean;
}): ReactElement {
  const id = useId();
  const describedBy = [error ? `${id}-e` : '', hint ? `${id}-h` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    spellCheck: false,
  };
  return (
    <div className="ed-field wide">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          {...common}
          className={`textarea${mono ? ' mono' : ''}`}
          rows={3}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...common}
          className={`input${mono ? ' mono' : ''}`}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <Problem id={`${id}-e`} message={error} />
      {hint ? (
        <div className="field-hint" id={`${id}-h`}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

export function CheckField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}): ReactElement {
  return (
    <label className="check ed-field">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

export type ColourValueT = string | { var: string; fallback?: string; alpha?: number };

const NEW_VARIABLE = '__new__';
const LITERAL = '';

/**
 * A colour that is either written here or bound to a colour variable; "New variable…" creates
 * a colour variable with the current colour as its default and binds it.
 */
export function ColourField({
  label,
  value,
  onChange,
  suggestedName,
  error,
}: {
  label: string;
  value: ColourValueT;
  onChange: (value: ColourValueT) => void;
  suggestedName: string;
  error?: string | undefined;
}): ReactElement {
  const t = useT();
  const id = useId();
  const variables = useEditorStore((s) => s.draft?.variables);
  const colours = (variables ?? []).filter((v) => v.type === 'colour');
  const bound = typeof value === 'object' ? value.var : LITERAL;
  const literal =
    typeof value === 'string'
      ? value
      : (value.fallback ??
        (colours.find((v) => v.name === value.var)?.default as string | undefined) ??
        '#000000');

  // A bound colour's opacity (`alpha`, 0–1; shown in per cent); a literal carries its own.
  const alpha = typeof value === 'object' ? value.alpha : undefined;
  const boundTo = (name: string): ColourValueT =>
    alpha === undefined ? { var: name } : { var: name, alpha };

  const bind = (choice: string) => {
    if (choice === LITERAL) onChange(literal);
    else if (choice === NEW_VARIABLE) {
      const store = useEditorStore.getState();
      const name = uniqueVariableName(suggestedName, store.draft?.variables ?? []);
      const variable: Variable = {
        name,
        type: 'colour',
        label: name,
        required: false,
        default: literal,
      };
      store.edit((tpl) => ({
        ...tpl,
        variables: [...tpl.variables, variable],
        sampleValues: { ...tpl.sampleValues, [name]: literal },
      }));
      onChange(boundTo(name));
    } else onChange(boundTo(choice));
  };

  return (
    <div className="ed-field wide">
      <label htmlFor={id}>{label}</label>
      <div className="ed-colour">
        {bound === LITERAL ? (
          <ColourInput id={id} label={label} value={literal} onChange={(c) => onChange(c)} />
        ) : (
          <span className="ed-bound" id={id}>
            <Icon name="link" size={14} />
            {bound}
          </span>
        )}
        <select
          className="select"
          aria-label={t('editor.bind.label', { label })}
          value={bound}
          onChange={(e) => bind(e.target.value)}
        >
          <option value={LITERAL}>{t('editor.bind.fixed')}</option>
          {colours.map((v) => (
            <option key={v.name} value={v.name}>
              {t('editor.bind.variable', { name: v.label ?? v.name })}
            </option>
          ))}
          <option value={NEW_VARIABLE}>{t('editor.bind.new')}</option>
        </select>
      </div>
      {typeof value === 'object' ? (
        <NumberField
          label={t('editor.bind.opacity', { label })}
          value={Math.round((alpha ?? 1) * 100)}
          min={0}
          max={100}
          step={5}
          suffix="%"
          onChange={(percent) => {
            const { alpha: _previous, ...rest } = value;
            // 100 % (or a cleared field) is the colour as it is: no alpha is written.
            onChange(
              percent === undefined || percent >= 100
                ? rest
                : { ...rest, alpha: Math.max(0, percent) / 100 },
            );
          }}
        />
      ) : null}
      <Problem id={`${id}-e`} message={error} />
    </div>
  );
}

export function Section({
  title,
  children,
  aside,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactNode;
}): ReactElement {
  return (
    <section className="ed-section">
      <div className="ed-section-head">
        <h3>{title}</h3>
        {aside}
      </div>
      <div className="ed-grid">{children}</div>
    </section>
  );
}
