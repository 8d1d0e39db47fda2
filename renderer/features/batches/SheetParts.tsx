import { useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { SheetPart } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner } from '../../components/ui';
import { formatNumber, useLanguage, useT, type Translate } from '../../i18n/i18n';
import { native } from '../../native/native';
import { rowRanges } from './row-ranges';
import { useSheetRows, type PrintedSheet } from './use-sheet-rows';

/** "20 A4 pages, 10 fronts + 10 backs", or "3 A4 sheets" without backs. */
function pagesText(t: Translate, parts: readonly SheetPart[], language: 'en' | 'vi'): string {
  const sum = (pick: (part: SheetPart) => number) => parts.reduce((n, p) => n + pick(p), 0);
  const first = parts[0]!.sheetSize;
  const size =
    first.label ??
    t('sheets.made.customSize', {
      width: formatNumber(language, first.width, 1),
      height: formatNumber(language, first.height, 1),
    });
  const backs = sum((p) => p.backs);
  // A duplex sheet is two pages of the PDF: say both, as the printer dialog counts pages.
  if (backs === 0) return t('sheets.made.sheets', { count: sum((p) => p.sheets), size });
  return `${t('sheets.made.pages', { count: sum((p) => p.pages), size })}, ${t(
    'sheets.made.fronts',
    { count: sum((p) => p.fronts) },
  )} + ${t('sheets.made.backs', { count: backs })}`;
}

/**
 * What a sheet batch made: one line saying it, each PDF with its download, and the sheets of
 * each with the rows printed on them (front page and, with duplex, the back page after it).
 */
export function SheetParts({
  batchId,
  parts,
}: {
  batchId: string;
  parts: readonly SheetPart[];
}): ReactElement | null {
  const t = useT();
  const language = useLanguage();
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { sheets, complete } = useSheetRows(batchId, parts.length > 0);
  if (parts.length === 0) return null;

  const download = async (part: SheetPart) => {
    setBusy(part.part);
    setError(null);
    try {
      await native.saveUrl(await api.outputLink(part.outputKey), part.file, [
        { name: 'PDF', extensions: ['pdf'] },
      ]);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const summary = [
    t('sheets.made.pdfs', { count: parts.length }),
    pagesText(t, parts, language),
    t('sheets.made.perSheet', { count: parts[0]!.perSheet }),
  ].join(' · ');

  return (
    <section className="card" aria-labelledby="sheet-made-title">
      <div className="card-body stack gap-4">
        <div className="stack gap-2">
          <h2 id="sheet-made-title">{t('sheets.made.title')}</h2>
          <p className="sheet-made-summary" data-testid="sheet-summary">
            {summary}
          </p>
        </div>
        {error ? <ErrorBanner error={error} /> : null}
        <ul className="sheet-parts">
          {parts.map((part) => {
            const fileId = `sheet-part-${part.part}`;
            const onPart = sheets?.filter((sheet) => sheet.part === part.part) ?? null;
            return (
              <li key={part.part} className="sheet-part stack gap-3">
                <div className="row between wrap gap-3">
                  <div className="row gap-2">
                    <Icon name="file" />
                    <span className="mono" id={fileId}>
                      {part.file}
                    </span>
                    <span className="small muted">{pagesText(t, [part], language)}</span>
                  </div>
                  <Button
                    icon="download"
                    aria-describedby={fileId}
                    busy={busy === part.part}
                    onClick={() => void download(part)}
                  >
                    {t('sheets.made.download')}
                  </Button>
                </div>
                {onPart === null ? (
                  <p className="small muted">{t('sheets.made.loading')}</p>
                ) : onPart.length > 0 ? (
                  <SheetList file={part.file} sheets={onPart} />
                ) : null}
              </li>
            );
          })}
        </ul>
        {sheets && !complete ? (
          <p className="small muted">{t('sheets.made.more', { count: sheets.length })}</p>
        ) : null}
      </div>
    </section>
  );
}

function SheetList({
  file,
  sheets,
}: {
  file: string;
  sheets: readonly PrintedSheet[];
}): ReactElement {
  const t = useT();
  return (
    <ol
      className="sheet-list"
      aria-label={t('sheets.made.sheetsOf', { file })}
      data-testid="sheet-list"
    >
      {sheets.map((sheet) => (
        <li key={sheet.sheet} className="sheet-tile">
          <span className="sheet-tile-name">{t('sheets.made.sheet', { sheet: sheet.sheet })}</span>
          <span className="small muted">
            {sheet.backPage !== null
              ? t('sheets.made.frontBack', { front: sheet.page, back: sheet.backPage })
              : t('sheets.made.page', { page: sheet.page })}
          </span>
          <span className="small">
            {t('sheets.made.rows', { count: sheet.rows.length, rows: rowRanges(sheet.rows) })}
          </span>
        </li>
      ))}
    </ol>
  );
}
