import { useEffect, useId, useState, type ReactElement } from 'react';
import type { Layer, Variable } from '../../api/types';
import { Button } from '../../components/ui';
import { useT, type MessageKey } from '../../i18n/i18n';
import { useEditorStore } from './editor-store';
import { Section, SelectField, TextField } from './inspector-fields';
import { useLayerEdit } from './use-layer-edit';
import {
  MAX_DRAFT_CONDITIONS,
  OPERATORS,
  fromDraft,
  newCondition,
  toDraft,
  type ConditionDraft,
  type DraftProblem,
  type RuleDraft,
} from './visibility-draft';

const PROBLEM_TEXT: Record<DraftProblem, MessageKey> = {
  number: 'editor.visible.problem.number',
  range: 'editor.visible.problem.range',
  list: 'editor.visible.problem.list',
};

type Mode = RuleDraft['mode'];

/**
 * When a layer is drawn: always, or when all (or any) of a list of conditions hold, each a
 * variable, a test and a value. A half-typed number stays in the form and is saved once it
 * reads as one; a rule written by hand that the builder cannot show is kept until replaced.
 */
export function VisibilityRuleBuilder({ layer }: { layer: Layer }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  const variables = useEditorStore((s) => s.draft?.variables) ?? [];
  const locale = useEditorStore((s) => s.draft?.locale) ?? 'en-US';
  const rule = layer.visibleWhen;
  const [draft, setDraft] = useState<RuleDraft>(() => toDraft(rule));

  // Undo, redo or another layer: the form follows the template unless it already says the same.
  useEffect(() => {
    setDraft((current) =>
      JSON.stringify(fromDraft(current, locale).rule) === JSON.stringify(rule)
        ? current
        : toDraft(rule),
    );
  }, [rule, locale, layer.id]);

  const problems = fromDraft(draft, locale).problems;
  const commit = (next: RuleDraft) => {
    setDraft(next);
    if (next.mode === 'written') return;
    if (next.mode === 'always') return remove('visibleWhen');
    const built = fromDraft(next, locale);
    if (built.rule) update({ visibleWhen: built.rule }, `visible-${layer.id}`);
  };
  const first = variables[0]?.name;
  const setMode = (mode: Mode) => {
    if (mode === 'always' || mode === 'written' || !first) return commit({ mode: 'always' });
    const conditions =
      draft.mode === 'all' || draft.mode === 'any' ? draft.conditions : [newCondition(first)];
    commit({ mode, conditions });
  };
  const conditions = draft.mode === 'all' || draft.mode === 'any' ? draft.conditions : [];
  const setCondition = (index: number, next: ConditionDraft | null) => {
    if (draft.mode !== 'all' && draft.mode !== 'any') return;
    const list = draft.conditions.flatMap((c, i) => (i !== index ? [c] : next ? [next] : []));
    commit(list.length === 0 ? { mode: 'always' } : { mode: draft.mode, conditions: list });
  };

  const modes: Mode[] =
    draft.mode === 'written' ? ['always', 'written', 'all', 'any'] : ['always', 'all', 'any'];
  return (
    <Section title={t('editor.section.visibility')}>
      <SelectField
        label={t('editor.visible.rule')}
        value={draft.mode}
        wide
        error={error('visibleWhen')}
        options={modes.map((mode) => ({ value: mode, label: t(`editor.visible.mode.${mode}`) }))}
        onChange={setMode}
      />
      {draft.mode === 'written' ? (
        <p className="field-hint wide" data-testid="visible-written">
          {t('editor.visible.writtenNote')}
        </p>
      ) : null}
      {conditions.map((condition, index) => (
        <ConditionForm
          key={index}
          n={index + 1}
          condition={condition}
          variables={variables}
          problem={problems[index] ?? null}
          onChange={(next) => setCondition(index, next)}
        />
      ))}
      {conditions.length > 0 && conditions.length < MAX_DRAFT_CONDITIONS && first ? (
        <div className="wide">
          <Button
            icon="plus"
            size="sm"
            variant="ghost"
            onClick={() =>
              draft.mode === 'all' || draft.mode === 'any'
                ? commit({ mode: draft.mode, conditions: [...conditions, newCondition(first)] })
                : undefined
            }
          >
            {t('editor.visible.add')}
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

function ConditionForm({
  n,
  condition,
  variables,
  problem,
  onChange,
}: {
  n: number;
  condition: ConditionDraft;
  variables: Variable[];
  problem: DraftProblem | null;
  onChange: (next: ConditionDraft | null) => void;
}): ReactElement {
  const t = useT();
  const variable = variables.find((v) => v.name === condition.var);
  const problemText = problem ? t(PROBLEM_TEXT[problem]) : undefined;
  const compares = condition.op !== 'notEmpty' && condition.op !== 'empty';
  return (
    <fieldset className="ed-rule wide" data-testid={`visible-condition-${n}`}>
      <legend>{t('editor.visible.condition', { n })}</legend>
      <div className="ed-grid">
        <SelectField
          label={t('editor.visible.variable')}
          value={condition.var}
          options={variables.map((v) => ({ value: v.name, label: v.label ?? v.name }))}
          onChange={(name) => onChange({ ...condition, var: name })}
        />
        <SelectField
          label={t('editor.visible.operator')}
          value={condition.op}
          options={OPERATORS.map((op) => ({ value: op, label: t(`editor.visible.op.${op}`) }))}
          onChange={(op) => onChange({ ...condition, op })}
        />
        {!compares ? null : condition.op === 'between' ? (
          <RangeFields condition={condition} problem={problemText} onChange={onChange} />
        ) : (condition.op === 'equals' || condition.op === 'notEquals') &&
          variable?.type === 'enum' ? (
          <SelectField
            label={t('editor.visible.value')}
            value={condition.value}
            wide
            options={[
              { value: '', label: '—' },
              ...variable.options.map((o) => ({ value: o.value, label: o.label || o.value })),
            ]}
            onChange={(value) => onChange({ ...condition, value })}
          />
        ) : (
          <TextField
            label={t(condition.op === 'in' ? 'editor.visible.values' : 'editor.visible.value')}
            value={condition.value}
            error={problemText}
            hint={
              condition.op === 'in' && variable?.type === 'enum'
                ? variable.options.map((o) => o.value).join(', ')
                : undefined
            }
            onChange={(value) => onChange({ ...condition, value })}
          />
        )}
        <div className="wide ed-rule-actions">
          <Button icon="trash" size="sm" variant="ghost" onClick={() => onChange(null)}>
            {t('editor.visible.remove', { n })}
          </Button>
        </div>
      </div>
    </fieldset>
  );
}

/** `between`'s two bounds side by side, sharing one problem. */
function RangeFields({
  condition,
  problem,
  onChange,
}: {
  condition: ConditionDraft;
  problem: string | undefined;
  onChange: (next: ConditionDraft) => void;
}): ReactElement {
  const t = useT();
  const id = useId();
  const field = (key: 'value' | 'value2', label: MessageKey) => (
    <div className="ed-field">
      <label htmlFor={`${id}-${key}`}>{t(label)}</label>
      <input
        id={`${id}-${key}`}
        className="input"
        inputMode="decimal"
        value={condition[key]}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-e` : undefined}
        onChange={(e) => onChange({ ...condition, [key]: e.target.value })}
      />
    </div>
  );
  return (
    <>
      {field('value', 'editor.visible.from')}
      {field('value2', 'editor.visible.to')}
      {problem ? (
        <div className="field-error wide" id={`${id}-e`} role="alert">
          {problem}
        </div>
      ) : null}
    </>
  );
}
