import type { NumberFormat } from '../../../shared/template-format';
import { formatDate, formatNumber } from '../../../shared/value-text';
import type { VariableDescription } from '../../api/types';
import { cellText } from './DataTable';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A row's value as the template will print it: 1250000 as "1.250.000 ₫", 2026-02-13 as
 * "13/02/2026", an option by its label. The same formatting the renders use, so what the
 * mapping shows is what the images will say.
 */
export function printedValue(variable: VariableDescription, value: unknown): string {
  const locale = variable.locale ?? 'en-US';
  if (variable.type === 'number' && typeof value === 'number' && Number.isFinite(value)) {
    // A number variable's format came checked with its template (the API serves stored,
    // validated templates); only its absence is looked at here.
    const format =
      typeof variable.format === 'object' && variable.format !== null
        ? (variable.format as NumberFormat)
        : undefined;
    return formatNumber(value, format, locale);
  }
  if (variable.type === 'date' && typeof value === 'string' && ISO_DATE.test(value)) {
    return formatDate(
      value,
      typeof variable.format === 'string' ? variable.format : undefined,
      locale,
    );
  }
  if (variable.type === 'enum' && typeof value === 'string') {
    return variable.options?.find((o) => o.value === value)?.label || value;
  }
  if (variable.type === 'list' && Array.isArray(value)) return value.map(cellText).join(', ');
  return cellText(value);
}
