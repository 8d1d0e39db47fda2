import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { VariableDescription } from '../../api/types';
import { useT } from '../../i18n/i18n';
import { problemText, rowErrorProblems } from '../../i18n/problem-text';
import { variableLabel } from '../template/VariableField';

/**
 * A failed row's stored error in the UI's language, each value named by its field's label: the
 * manifest keeps the server's English.
 */
export function useRowErrorText(templateId: string | null): (error: string) => string {
  const t = useT();
  const [variables, setVariables] = useState<VariableDescription[]>([]);
  useEffect(() => {
    if (!templateId) return;
    let live = true;
    api.catalog.detail(templateId).then(
      (detail) => live && setVariables(detail.variables),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [templateId]);
  return useCallback(
    (error: string) => {
      const label = (name: string) => {
        const variable = variables.find((v) => v.name === name);
        return variable ? variableLabel(variable) : null;
      };
      return rowErrorProblems(error)
        .map((problem) => problemText(t, problem, { label }))
        .join(' ');
    },
    [t, variables],
  );
}
