import { parseLocaleNumber } from '../../../shared/cell-values';
import type { VisibilityCondition, VisibleWhen } from '../../../shared/template-format';
import { VISIBILITY_MAX_CONDITIONS } from '../../../shared/template-limits';

/**
 * The rule builder's form of a layer's `visibleWhen`: always, or all / any of a flat list of
 * conditions, one operator each. A rule the builder cannot show (nested groups, two operators
 * on one condition) is `written`: kept as it is until the user starts a new one.
 */
export const OPERATORS = [
  'notEmpty',
  'empty',
  'equals',
  'notEquals',
  'in',
  'gt',
  'lt',
  'between',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface ConditionDraft {
  var: string;
  op: Operator;
  /** The value typed: text, a number, or a comma-separated list for `in`. */
  value: string;
  /** `between`'s upper bound. */
  value2: string;
}

export type RuleDraft =
  { mode: 'always' } | { mode: 'written' } | { mode: 'all' | 'any'; conditions: ConditionDraft[] };

export const MAX_DRAFT_CONDITIONS = VISIBILITY_MAX_CONDITIONS;

export const NUMERIC_OPERATORS: readonly Operator[] = ['gt', 'lt', 'between'];

export function newCondition(variable: string): ConditionDraft {
  return { var: variable, op: 'notEmpty', value: '', value2: '' };
}

function conditionDraft(condition: VisibilityCondition): ConditionDraft | null {
  const { var: name, ...operators } = condition;
  const set = Object.entries(operators).filter(([, value]) => value !== undefined);
  if (set.length !== 1) return null;
  const [key, value] = set[0]!;
  const draft = { var: name, value: '', value2: '' };
  switch (key) {
    case 'notEmpty':
      return { ...draft, op: value ? 'notEmpty' : 'empty' };
    case 'equals':
    case 'notEquals':
    case 'gt':
    case 'lt':
      return { ...draft, op: key, value: String(value) };
    case 'in':
      return { ...draft, op: 'in', value: (value as unknown[]).map(String).join(', ') };
    case 'between': {
      const [low, high] = value as [number, number];
      return { ...draft, op: 'between', value: String(low), value2: String(high) };
    }
    default:
      return null;
  }
}

/** The builder's form of a rule; `written` when it is more than the builder shows. */
export function toDraft(rule: VisibleWhen | undefined): RuleDraft {
  if (!rule) return { mode: 'always' };
  const { mode, rules } =
    'var' in rule
      ? { mode: 'all' as const, rules: [rule] }
      : 'all' in rule
        ? { mode: 'all' as const, rules: rule.all }
        : { mode: 'any' as const, rules: rule.any };
  const conditions: ConditionDraft[] = [];
  for (const child of rules) {
    const condition = 'var' in child ? conditionDraft(child) : null;
    if (!condition) return { mode: 'written' };
    conditions.push(condition);
  }
  return { mode, conditions };
}

export type DraftProblem = 'number' | 'range' | 'list';

/**
 * The rule to save, or each condition's problem (a number that is no number, read in the
 * template's locale as the engine reads it; a range upside down; an empty list). One condition
 * is saved bare (`{ var, notEmpty }`), as templates wrote it before groups.
 */
export function fromDraft(
  draft: RuleDraft,
  locale: string,
): { rule: VisibleWhen | undefined; problems: (DraftProblem | null)[] } {
  if (draft.mode === 'always' || draft.mode === 'written') return { rule: undefined, problems: [] };
  const problems: (DraftProblem | null)[] = [];
  const conditions: VisibilityCondition[] = [];
  for (const condition of draft.conditions) {
    const built = conditionRule(condition, locale);
    problems.push(typeof built === 'string' ? built : null);
    if (typeof built !== 'string') conditions.push(built);
  }
  if (problems.some((problem) => problem !== null) || conditions.length === 0)
    return { rule: undefined, problems };
  const rule: VisibleWhen =
    conditions.length === 1
      ? conditions[0]!
      : draft.mode === 'all'
        ? { all: conditions }
        : { any: conditions };
  return { rule, problems };
}

function conditionRule(
  condition: ConditionDraft,
  locale: string,
): VisibilityCondition | DraftProblem {
  const base = { var: condition.var };
  const number = (text: string) => parseLocaleNumber(text, locale);
  switch (condition.op) {
    case 'notEmpty':
      return { ...base, notEmpty: true };
    case 'empty':
      return { ...base, notEmpty: false };
    case 'equals':
      return { ...base, equals: condition.value };
    case 'notEquals':
      return { ...base, notEquals: condition.value };
    case 'in': {
      const items = condition.value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      return items.length > 0 ? { ...base, in: items } : 'list';
    }
    case 'gt':
    case 'lt': {
      const value = number(condition.value);
      return value === null ? 'number' : { ...base, [condition.op]: value };
    }
    case 'between': {
      const [low, high] = [number(condition.value), number(condition.value2)];
      if (low === null || high === null) return 'number';
      return low <= high ? { ...base, between: [low, high] } : 'range';
    }
  }
}
