import type { StateCreator } from 'zustand';
import { api } from '../api/client';
import type { CatalogDetail, OutputFormat, PreflightResult, Upload } from '../api/types';
import { suggestSheetPreset, type SheetPresetName } from '../../shared/sheet-options';
import type { DuplexMode, SheetMarks } from '../../shared/sheet-plan';
import type { AppState } from './app-store';
import type { GENERATED_SOURCES } from '../../shared/batch-schemas';
import type { SerialChoice } from '../features/batch-wizard/serial-choice';

/** How one template variable gets its value in a batch (mirrors the API's bindings). */
export type MappingChoice =
  | { kind: 'auto' }
  | { kind: 'field'; field: string }
  | { kind: 'constant'; value: string }
  | { kind: 'profile' }
  | { kind: 'generated'; source: (typeof GENERATED_SOURCES)[number] }
  | SerialChoice
  | { kind: 'default' };

export type WizardStep = 'source' | 'mapping' | 'output' | 'review';
export const WIZARD_STEPS: WizardStep[] = ['source', 'mapping', 'output', 'review'];

export interface WizardState {
  step: WizardStep;
  templateId: string | null;
  template: CatalogDetail | null;
  file: File | null;
  upload: Upload | null;
  uploading: boolean;
  uploadError: unknown;
  sheet: string | null;
  /**
   * Only these rows of the spreadsheet (0-based, sorted): a rerun of an earlier batch's failed
   * rows. Null for every row; a new spreadsheet or sheet clears it.
   */
  rows: number[] | null;
  mapping: Record<string, MappingChoice>;
  /** A ratio, or a print or custom-size layout's name. */
  target: string | null;
  /** Several sizes from one run: the ratios drawn besides `target` (empty: one size). */
  moreTargets: string[];
  format: OutputFormat;
  /** The brand the batch pins (null: the default brand). */
  brand: string | null;
  fileNamePattern: string;
  /**
   * A print layout's rows N per printed sheet (a PDF of sheets), or null for one file a row.
   * `preset` null: as many as fit on an A4 sheet.
   */
  sheets: {
    preset: SheetPresetName | null;
    duplex: DuplexMode;
    marks: SheetMarks;
    /** Rows laid down each part's stack, so the cut piles come out in row order. */
    cutAndStack?: boolean;
  } | null;
  /** One file a row of a print layout: crop marks outside its trim and bleed. */
  cropMarks: boolean;
  /** Every output's QR codes and barcodes read back from its pixels (`verifyCodes`). */
  verifyCodes: boolean;
  /**
   * The page (from 1) drawn when a layout of several pages is rendered as images: an image is
   * one page, so a batch of them names it (a PDF has every page and ignores this).
   */
  page: number;
  imagesMode: 'none' | 'folder' | 'zip';
  imagesDir: string;
  imagesZip: Upload | null;
  preflight: PreflightResult | null;
  preflightError: unknown;
  preflighting: boolean;
  /** Row shown in the mapping step's preview (0-based). */
  previewRow: number;
  /** A variable to focus when the mapping step opens (jump from a pre-flight problem). */
  focusVariable: string | null;
}

export interface WizardSlice {
  wizard: WizardState;
  wizardReset: (templateId?: string | null) => void;
  wizardPatch: (patch: Partial<WizardState>) => void;
  wizardSetTemplate: (templateId: string) => Promise<void>;
  /** Uploads a spreadsheet (picked or dropped anywhere on the window). */
  wizardUseFile: (file: File, sheet?: string) => Promise<void>;
  /** Reads another sheet of the uploaded workbook (the server keeps the file). */
  wizardSelectSheet: (sheet: { name: string; index: number }) => Promise<void>;
  wizardSetMapping: (variable: string, choice: MappingChoice) => void;
}

function emptyWizard(templateId: string | null = null): WizardState {
  return {
    step: 'source',
    templateId,
    template: null,
    file: null,
    upload: null,
    uploading: false,
    uploadError: null,
    sheet: null,
    rows: null,
    mapping: {},
    target: null,
    moreTargets: [],
    format: 'png',
    brand: null,
    fileNamePattern: '',
    sheets: null,
    cropMarks: false,
    verifyCodes: false,
    page: 1,
    imagesMode: 'none',
    imagesDir: '',
    imagesZip: null,
    preflight: null,
    preflightError: null,
    preflighting: false,
    previewRow: 0,
    focusVariable: null,
  };
}

export const createWizardSlice: StateCreator<AppState, [], [], WizardSlice> = (set, get) => {
  const patch = (p: Partial<WizardState>) => set({ wizard: { ...get().wizard, ...p } });
  const applyUpload = (upload: Upload, sheet: string | null) =>
    patch({
      upload,
      uploading: false,
      sheet,
      rows: null,
      previewRow: 0,
      // Columns changed: explicit field choices that no longer exist go back to automatic.
      mapping: Object.fromEntries(
        Object.entries(get().wizard.mapping).filter(
          ([, choice]) => choice.kind !== 'field' || (upload.fields ?? []).includes(choice.field),
        ),
      ),
    });
  return {
    wizard: emptyWizard(),
    wizardReset: (templateId = null) => set({ wizard: emptyWizard(templateId) }),
    // Any change to the batch makes an earlier pre-flight stale.
    wizardPatch: (p) => patch({ ...p, ...('preflight' in p ? {} : { preflight: null }) }),
    wizardSetTemplate: async (templateId) => {
      if (get().wizard.template?.id === templateId) return;
      patch({
        templateId,
        template: null,
        mapping: {},
        target: null,
        moreTargets: [],
        preflight: null,
      });
      const template = await api.catalog.detail(templateId);
      if (get().wizard.templateId === templateId) patch(startingOutput(template));
    },
    wizardUseFile: async (file, sheet) => {
      patch({ file, uploading: true, uploadError: null, preflight: null });
      try {
        const upload = await api.uploads.create(file, file.name, sheet);
        if (upload.kind !== 'csv' && upload.kind !== 'xlsx') {
          patch({ uploading: false, upload: null, uploadError: new Error('not-a-spreadsheet') });
          return;
        }
        applyUpload(upload, upload.sheet ?? sheet ?? upload.sheets?.[0]?.name ?? null);
      } catch (error) {
        patch({ uploading: false, uploadError: error });
      }
    },
    wizardSelectSheet: async (sheet) => {
      const current = get().wizard.upload;
      if (!current) return;
      patch({ uploading: true, uploadError: null, preflight: null, sheet: sheet.name });
      try {
        // By index: a sheet named "2024" must not be read as the 2025th sheet.
        const upload = await api.uploads.describe(current.id, sheet.index);
        if (get().wizard.upload?.id !== current.id) return;
        applyUpload(upload, upload.sheet ?? sheet.name);
      } catch (error) {
        patch({ uploading: false, uploadError: error });
      }
    },
    wizardSetMapping: (variable, choice) =>
      patch({ mapping: { ...get().wizard.mapping, [variable]: choice }, preflight: null }),
  };
};

/**
 * Where a batch of `template` starts: its primary layout (or the one `chosen` on the template
 * page), and for a print layout (a badge) a PDF
 * of sheets on the preset that holds it, as an organiser prints them; the first ratio, as images,
 * otherwise.
 */
export function startingOutput(
  template: CatalogDetail,
  chosen?: string,
): Pick<WizardState, 'template' | 'target'> & Partial<Pick<WizardState, 'format' | 'sheets'>> {
  const target = chosen ?? template.primaryTarget ?? template.ratios[0] ?? null;
  const layout = target ? template.layouts[target] : undefined;
  if (!target || !layout?.page) return { template, target, format: 'png', sheets: null };
  const mm = layout.page.unit === 'mm' ? 1 : 25.4;
  const preset = suggestSheetPreset({
    width: layout.page.width * mm,
    height: layout.page.height * mm,
  });
  return {
    template,
    target,
    format: 'pdf',
    sheets: preset ? { preset, duplex: 'none', marks: 'crop' } : null,
  };
}
