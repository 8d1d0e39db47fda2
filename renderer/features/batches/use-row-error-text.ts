import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client';
import type { ManifestRow, VariableDescription } from '../../api/types';
import { useT } from '../../i18n/i18n';
import { problemText, rowErrorProblems } from '../../i18n/problem-text';
import { setupFor } from '../batch-wizard/batch-setups';
import { cellAddress } from '../batch-wizard/cell-address';
import { effectiveChoice } from '../batch-wizard/mapping';
import { variableLabel } from '../template/VariableField';

/**
 * A failed row's stored error in the UI's language, each value named by its field's label and,
 * when a spreadsheet column fed it, by its cell ("Giá sale (ô C3)"): the column from the mapping
 * the wizard started the batch with, the line from the manifest. Inline records, constants,
 * brand values and generated ones have no cell. The manifest keeps the server's English.
 */
export function useRowErrorText(
  templateId: string | null,
  batchId: string,
): (row: Pick<ManifestRow, 'error' | 'line'>) => string {
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
  /** Each variable's column in the spreadsheet, by name (only those a column feeds). */
  const columns = useMemo(() => {
    const setup = setupFor(batchId);
    const fields = setup?.upload?.fields ?? [];
    const byName = new Map<string, number>();
    if (!setup || setup.templateId !== templateId) return byName;
    for (const variable of variables) {
      const choice = effectiveChoice(variable, setup.mapping[variable.name], fields);
      const column = choice.kind === 'field' ? fields.indexOf(choice.field) : -1;
      if (column >= 0) byName.set(variable.name, column);
    }
    return byName;
  }, [batchId, templateId, variables]);
  return useCallback(
    ({ error, line }: Pick<ManifestRow, 'error' | 'line'>) => {
      if (!error) return '';
      const label = (name: string) => {
        const variable = variables.find((v) => v.name === name);
        return variable ? variableLabel(variable) : null;
      };
      const cell = (name: string) => {
        const column = columns.get(name);
        return column !== undefined && line !== null ? cellAddress(column, line) : null;
      };
      return rowErrorProblems(error)
        .map((problem) => problemText(t, problem, { label, cell, line }))
        .join(' ');
    },
    [t, variables, columns],
  );
}
