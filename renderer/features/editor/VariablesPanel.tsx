import { useEffect, useId, useMemo, useState, type ReactElement } from 'react';
import type { Variable, VariableType } from '../../api/types';
import { Button } from '../../components/ui';
import { ColourInput } from '../../components/inputs';
import { useT } from '../../i18n/i18n';
import { useEditorStore } from './editor-store';
import { CheckField, NumberField, SelectField, TextField } from './inspector-fields';
import { problemAt, renameVariable, uniqueVariableName, variableUses } from './layer-ops';

const TYPES: VariableType[] = [
  'text',
  'longText',
  'colour',
  'image',
  'number',
  'date',
  'enum',
  'list',
];
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A variable of another type, keeping what all types share. */
function retype(variable: Variable, type: VariableType): Variable {
  const common = {
    name: variable.name,
    required: variable.required,
    ...(variable.label !== undefined ? { label: variable.label } : {}),
    ...(variable.description !== undefined ? { description: variable.description } : {}),
  };
  if (type === 'enum') return { ...common, type, options: [{ value: 'a', label: 'A' }] };
  return { ...common, type } as Variable;
}

export function VariablesPanel(): ReactElement {
  const t = useT();
  const variables = useEditorStore((s) => s.draft?.variables) ?? [];
  const [open, setOpen] = useState<string | null>(null);
  const add = () => {
    const store = useEditorStore.getState();
    const name = uniqueVariableName('field', store.draft?.variables ?? []);
    store.edit((tpl) => ({
      ...tpl,
      variables: [...tpl.variables, { name, type: 'text', label: name, required: false }],
      sampleValues: { ...tpl.sampleValues, [name]: name },
    }));
    setOpen(name);
  };
  return (
    <section className="ed-variables" aria-labelledby="ed-vars-title">
      <div className="ed-panel-head">
        <h2 className="ed-panel-title" id="ed-vars-title">
          {t('editor.variables')}
        </h2>
        <Button size="sm" icon="plus" onClick={add}>
          {t('editor.variable.add')}
        </Button>
      </div>
      <ul className="ed-var-list">
        {variables.map((v, index) => (
          <li key={`${index}`} className="ed-var">
            <button
              type="button"
              className="ed-var-head"
              aria-expanded={open === v.name}
              onClick={() => setOpen(open === v.name ? null : v.name)}
            >
              {/* The label on a line of its own (it wraps), the name and chips under it: a
                  narrow window's panel still shows every label whole. */}
              {v.label ? <span className="ed-var-label">{v.label}</span> : null}
              <code className="ed-var-name">{v.name}</code>
              <span className="chip">{t(`editor.type.${v.type}`)}</span>
              {v.required ? <span className="chip">{t('common.required')}</span> : null}
            </button>
            {open === v.name ? (
              <VariableForm index={index} variable={v} onRenamed={setOpen} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function VariableForm({
  index,
  variable,
  onRenamed,
}: {
  index: number;
  variable: Variable;
  onRenamed: (name: string | null) => void;
}): ReactElement {
  const t = useT();
  const id = useId();
  const problems = useEditorStore((s) => s.problems);
  const sample = useEditorStore((s) => s.draft?.sampleValues[variable.name]);
  // Derived outside the selector: a selector that returns a new array each time makes React
  // re-render forever (the editor went blank when a variable was opened).
  const draft = useEditorStore((s) => s.draft);
  const uses = useMemo(
    () => (draft ? variableUses(draft, variable.name) : []),
    [draft, variable.name],
  );
  const [name, setName] = useState(variable.name);
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  useEffect(() => setName(variable.name), [variable.name]);
  const path = `variables[${index}]`;
  const err = (p: string) => problemAt(problems, `${path}.${p}`);

  const change = (next: Variable, key = `var-${variable.name}`) =>
    useEditorStore
      .getState()
      .setVariables((vars) => vars.map((v, i) => (i === index ? next : v)), key);
  const setSample = (value: unknown) =>
    useEditorStore
      .getState()
      .edit(
        (tpl) => ({ ...tpl, sampleValues: { ...tpl.sampleValues, [variable.name]: value } }),
        `sample-${variable.name}`,
      );

  const rename = () => {
    const next = name.trim();
    if (next === variable.name) return setNameProblem(null);
    const store = useEditorStore.getState();
    if (!NAME.test(next)) return setNameProblem(t('editor.variable.nameInvalid'));
    if (store.draft?.variables.some((v) => v.name === next))
      return setNameProblem(t('editor.variable.nameTaken'));
    setNameProblem(null);
    store.edit((tpl) => renameVariable(tpl, variable.name, next));
    onRenamed(next);
  };

  const remove = () => {
    useEditorStore.getState().edit((tpl) => {
      const sampleValues = { ...tpl.sampleValues };
      delete sampleValues[variable.name];
      return { ...tpl, variables: tpl.variables.filter((_, i) => i !== index), sampleValues };
    });
    onRenamed(null);
  };

  return (
    <div className="ed-var-form ed-grid">
      <div className="ed-field">
        <label htmlFor={`${id}-name`}>{t('editor.variable.name')}</label>
        <input
          id={`${id}-name`}
          className="input mono"
          value={name}
          spellCheck={false}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={`${id}-name-h`}
          onChange={(e) => setName(e.target.value)}
          onBlur={rename}
          onKeyDown={(e) => e.key === 'Enter' && rename()}
        />
        <div className={nameProblem ? 'field-error' : 'field-hint'} id={`${id}-name-h`}>
          {nameProblem ?? t('editor.variable.renameHint')}
        </div>
      </div>
      <SelectField
        label={t('editor.variable.type')}
        value={variable.type}
        error={err('type')}
        options={TYPES.map((type) => ({ value: type, label: t(`editor.type.${type}`) }))}
        onChange={(type) => change(retype(variable, type), 'type')}
      />
      <TextField
        label={t('editor.variable.label')}
        value={variable.label ?? ''}
        error={err('label')}
        onChange={(label) => change({ ...variable, label })}
      />
      <CheckField
        label={t('editor.variable.required')}
        checked={variable.required}
        onChange={(required) => change({ ...variable, required })}
      />
      {variable.type === 'text' || variable.type === 'longText' ? (
        <NumberField
          label={t('editor.variable.maxLength')}
          value={variable.maxLength}
          min={1}
          optional
          onChange={(maxLength) => {
            const { maxLength: _old, ...rest } = variable;
            change(maxLength === undefined ? rest : { ...rest, maxLength });
          }}
        />
      ) : null}
      {variable.type === 'enum' ? (
        <OptionsEditor
          options={variable.options}
          onChange={(options) => change({ ...variable, options })}
        />
      ) : null}
      <ValueInput
        label={t('editor.variable.default')}
        variable={variable}
        value={variable.default}
        error={err('default')}
        onChange={(value) => {
          const { default: _old, ...rest } = variable;
          change((value === undefined ? rest : { ...rest, default: value }) as Variable);
        }}
      />
      <ValueInput
        label={t('editor.variable.sample')}
        variable={variable}
        value={sample}
        error={problemAt(problems, `sampleValues.${variable.name}`)}
        onChange={setSample}
      />
      <div className="wide row wrap">
        <Button
          size="sm"
          variant="danger"
          icon="trash"
          disabled={uses.length > 0}
          aria-describedby={uses.length > 0 ? `${id}-uses` : undefined}
          onClick={remove}
        >
          {t('editor.variable.remove')}
        </Button>
        {uses.length > 0 ? (
          <span className="small muted" id={`${id}-uses`}>
            {t('editor.variable.inUse', { layers: uses.join(', ') })}
          </span>
        ) : null}
      </div>
    </div>
  );
}

/** A default or sample value, edited as its type needs. */
function ValueInput({
  label,
  variable,
  value,
  onChange,
  error,
}: {
  label: string;
  variable: Variable;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string | undefined;
}): ReactElement {
  const id = useId();
  switch (variable.type) {
    case 'number':
      return (
        <NumberField
          label={label}
          value={typeof value === 'number' ? value : undefined}
          optional
          error={error}
          onChange={onChange}
        />
      );
    case 'colour':
      return (
        <div className="ed-field">
          <label htmlFor={id}>{label}</label>
          <ColourInput
            id={id}
            label={label}
            value={typeof value === 'string' ? value : ''}
            onChange={onChange}
          />
          {error ? <div className="field-error">{error}</div> : null}
        </div>
      );
    case 'enum':
      return (
        <SelectField
          label={label}
          value={typeof value === 'string' ? value : ''}
          error={error}
          options={[
            { value: '', label: '—' },
            ...variable.options.map((o) => ({ value: o.value, label: o.label || o.value })),
          ]}
          onChange={(v) => onChange(v === '' ? undefined : v)}
        />
      );
    case 'list':
      return (
        <TextField
          label={label}
          multiline
          value={Array.isArray(value) ? value.join('\n') : ''}
          error={error}
          onChange={(text) => onChange(text.split('\n'))}
        />
      );
    default:
      return (
        <TextField
          label={label}
          value={typeof value === 'string' ? value : ''}
          multiline={variable.type === 'longText'}
          error={error}
          onChange={(text) => onChange(text === '' ? undefined : text)}
        />
      );
  }
}

function OptionsEditor({
  options,
  onChange,
}: {
  options: { value: string; label: string }[];
  onChange: (options: { value: string; label: string }[]) => void;
}): ReactElement {
  const t = useT();
  const set = (i: number, patch: Partial<{ value: string; label: string }>) =>
    onChange(options.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  return (
    <fieldset className="wide ed-options">
      <legend>{t('editor.variable.options')}</legend>
      {options.map((o, i) => (
        <div className="row" key={i}>
          <input
            className="input mono"
            value={o.value}
            aria-label={t('editor.variable.optionValue', { n: i + 1 })}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <input
            className="input"
            value={o.label}
            aria-label={t('editor.variable.optionLabel', { n: i + 1 })}
            onChange={(e) => set(i, { label: e.target.value })}
          />
          <Button
            size="sm"
            variant="ghost"
            icon="x"
            disabled={options.length <= 1}
            aria-label={t('editor.variable.optionRemove', { n: i + 1 })}
            onClick={() => onChange(options.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        size="sm"
        icon="plus"
        onClick={() => onChange([...options, { value: `option${options.length + 1}`, label: '' }])}
      >
        {t('editor.variable.optionAdd')}
      </Button>
    </fieldset>
  );
}
