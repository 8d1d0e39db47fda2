import type { Batch } from '../../api/types';
import { formatDate } from '../../i18n/i18n';
import type { Language } from '../../stores/ui-slice';

/**
 * A batch as a person tells it from the others: the template, the spreadsheet and the day
 * ("Flash sale 11.11 · sale-1111.xlsx · 24 Nov 2026"), not its id. `fallbackTemplate` is the
 * catalog's name for batches from before the API gave the template's name.
 */
export function batchName(
  batch: Pick<Batch, 'templateId' | 'templateName' | 'sourceName' | 'createdAt'>,
  language: Language,
  fallbackTemplate?: string,
): string {
  return [
    batch.templateName ?? fallbackTemplate ?? batch.templateId,
    batch.sourceName,
    formatDate(language, batch.createdAt),
  ]
    .filter(Boolean)
    .join(' · ');
}
