import type { WizardState } from '../../stores/wizard-slice';

/**
 * What the wizard started each batch with (template, spreadsheet, mapping, output), kept on this
 * machine: a finished batch can reopen the wizard at its mapping ("Edit mapping and rerun"),
 * which the API's replay cannot change.
 */
export type BatchSetup = Pick<
  WizardState,
  | 'templateId'
  | 'upload'
  | 'sheet'
  | 'mapping'
  | 'target'
  | 'format'
  | 'brand'
  | 'fileNamePattern'
  | 'sheets'
  | 'imagesMode'
  | 'imagesDir'
  | 'imagesZip'
> & {
  /** Several sizes; absent in setups kept before the wizard offered them. */
  moreTargets?: string[];
  /** Absent in setups kept before the wizard offered crop marks. */
  cropMarks?: boolean;
  /** The page drawn as images of a layout of several pages; absent in older setups. */
  page?: number;
  /** Absent in setups kept before the wizard offered reading codes back. */
  verifyCodes?: boolean;
  /** The spreadsheet rows the batch drew (a rerun of failed rows); absent: every row. */
  rows?: number[] | null;
};

const KEY = 'render-desk.batch-setups';
/** The newest ones only: the spreadsheet uploads behind older batches have expired anyway. */
const KEEP = 50;

function readAll(): Record<string, BatchSetup> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, BatchSetup>) : {};
  } catch {
    return {};
  }
}

export function rememberSetup(batchId: string, wizard: WizardState): void {
  const setup: BatchSetup = {
    templateId: wizard.templateId,
    upload: wizard.upload,
    sheet: wizard.sheet,
    rows: wizard.rows,
    mapping: wizard.mapping,
    target: wizard.target,
    moreTargets: wizard.moreTargets,
    format: wizard.format,
    brand: wizard.brand,
    fileNamePattern: wizard.fileNamePattern,
    sheets: wizard.sheets,
    cropMarks: wizard.cropMarks,
    verifyCodes: wizard.verifyCodes,
    page: wizard.page,
    imagesMode: wizard.imagesMode,
    imagesDir: wizard.imagesDir,
    imagesZip: wizard.imagesZip,
  };
  const entries = Object.entries(readAll()).filter(([id]) => id !== batchId);
  entries.push([batchId, setup]);
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries.slice(-KEEP))));
  } catch {
    // A full storage only loses the rerun shortcut.
  }
}

export function setupFor(batchId: string): BatchSetup | null {
  return readAll()[batchId] ?? null;
}
