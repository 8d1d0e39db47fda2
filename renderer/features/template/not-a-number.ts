import type { Problem } from '../../../shared/errors';
import type { VariableDescription } from '../../api/types';

/**
 * The values of number variables that hold text no number reads as ("abc"): the API refuses a
 * render of them (422), so a preview is not asked for. Each comes back as the problem the API
 * would name, so it is said in the same words (field label, UI language, what to do).
 */
export function notANumber(
  variables: readonly Pick<VariableDescription, 'name' | 'type'>[],
  values: Readonly<Record<string, unknown>>,
): Problem[] {
  const problems: Problem[] = [];
  for (const variable of variables) {
    const value = values[variable.name];
    if (variable.type !== 'number' || typeof value !== 'string') continue;
    problems.push({ path: `values.${variable.name}`, message: `"${value}" is not a number` });
  }
  return problems;
}
