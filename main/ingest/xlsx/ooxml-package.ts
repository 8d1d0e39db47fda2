import path from 'node:path/posix';
import { SpreadsheetError } from '../spreadsheet-error.js';
import type { SafeZip } from '../zip/safe-zip.js';
import { attribute, parseXmlPart } from './xml-part.js';

/**
 * The package-level structure of an OOXML workbook: the workbook part is found through
 * `_rels/.rels` (it need not be `xl/workbook.xml`), sheets are listed in tab order with their
 * visibility and their parts resolved through the workbook's relationships, and the 1904 flag is
 * read from `workbookPr`. Relationship types are matched by suffix so Strict OOXML
 * (purl.oclc.org namespaces) reads the same as Transitional. Part names are case-insensitive.
 */

export type SheetState = 'visible' | 'hidden' | 'veryHidden';

export interface SheetEntry {
  name: string;
  /** 0-based position in tab order. */
  index: number;
  hidden: boolean;
  state: SheetState;
  /** Zip part holding the sheet's XML, when the relationships name one. */
  part: string | undefined;
}

export interface WorkbookStructure {
  workbookPart: string;
  sheets: SheetEntry[];
  date1904: boolean;
  sharedStringsPart: string | undefined;
  stylesPart: string | undefined;
}

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

const SPREADSHEET_MAIN_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
  'application/vnd.ms-excel.template.macroEnabled.main+xml',
];
const XLSB_MAIN_TYPE = 'application/vnd.ms-excel.sheet.binary.macroEnabled.main';

/** The parts read to tell what a zip is (lower case): read on the server's own thread, so kept small. */
export const PACKAGE_PARTS = new Set(['[content_types].xml', '_rels/.rels']);
const PACKAGE_PART_BYTES = 1024 * 1024;
const WORKBOOK_PART_BYTES = 16 * 1024 * 1024;

export async function readRelationships(
  zip: SafeZip,
  part: string,
  maxBytes: number,
): Promise<Relationship[]> {
  const found: Relationship[] = [];
  await parseXmlPart(
    zip,
    part,
    {
      open(name, attributes) {
        if (name !== 'Relationship') return;
        found.push({
          id: attributes.Id ?? '',
          type: attributes.Type ?? '',
          target: attributes.Target ?? '',
          external: attributes.TargetMode === 'External',
        });
      },
    },
    maxBytes,
  );
  return found;
}

/** Resolves a relationship target against the part that owns the relationships. */
export function resolvePart(sourcePart: string, target: string): string {
  const cleaned = target.replace(/\\/g, '/');
  if (cleaned.startsWith('/')) return path.normalize(cleaned).slice(1);
  return path.normalize(path.join(path.dirname(sourcePart), cleaned)).replace(/^\/+/, '');
}

export function relationshipsPartOf(part: string): string {
  return path.join(path.dirname(part), '_rels', `${path.basename(part)}.rels`);
}

export type PackageKind = 'xlsx' | 'xlsb' | 'other';

/** What kind of OOXML package a zip is, and where its workbook part lives. */
export async function identifyPackage(
  zip: SafeZip,
): Promise<{ kind: PackageKind; workbookPart?: string }> {
  const contentTypesPart = zip.findIgnoringCase('[Content_Types].xml');
  if (!contentTypesPart) return { kind: 'other' };
  const overrides = new Map<string, string>();
  const defaults = new Map<string, string>();
  await parseXmlPart(
    zip,
    contentTypesPart,
    {
      open(name, attributes) {
        const type = attributes.ContentType ?? '';
        if (name === 'Override') {
          overrides.set((attributes.PartName ?? '').replace(/^\/+/, '').toLowerCase(), type);
        } else if (name === 'Default') {
          defaults.set((attributes.Extension ?? '').toLowerCase(), type);
        }
      },
    },
    PACKAGE_PART_BYTES,
  );
  let candidates: string[] = [];
  const rootRels = zip.findIgnoringCase('_rels/.rels');
  if (rootRels) {
    const rels = await readRelationships(zip, rootRels, PACKAGE_PART_BYTES);
    candidates = rels
      .filter((rel) => !rel.external && rel.type.endsWith('/officeDocument'))
      .map((rel) => resolvePart('', rel.target));
  }
  if (candidates.length === 0) candidates = ['xl/workbook.xml'];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const type = overrides.get(lower) ?? defaults.get(path.extname(lower).slice(1));
    const part = zip.findIgnoringCase(candidate);
    if (type && SPREADSHEET_MAIN_TYPES.includes(type) && part) {
      return { kind: 'xlsx', workbookPart: part };
    }
    if (type === XLSB_MAIN_TYPE || lower.endsWith('.bin')) return { kind: 'xlsb' };
  }
  return { kind: 'other' };
}

function parseSheetState(value: string | undefined): SheetState {
  return value === 'hidden' || value === 'veryHidden' ? value : 'visible';
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

export async function readWorkbookStructure(
  zip: SafeZip,
  workbookPart: string,
): Promise<WorkbookStructure> {
  const listed: { name: string | undefined; state: SheetState; relId: string | undefined }[] = [];
  let date1904 = false;
  // Only the workbook's own children count: extensions repeat names (`<x15:workbookPr>`).
  let depth = 0;
  let inSheets = false;
  await parseXmlPart(
    zip,
    workbookPart,
    {
      open(name, attributes) {
        depth += 1;
        if (depth === 2 && name === 'sheets') inSheets = true;
        else if (depth === 3 && inSheets && name === 'sheet') {
          listed.push({
            name: attributes.name,
            state: parseSheetState(attributes.state),
            relId: attribute(attributes, 'id'),
          });
        } else if (depth === 2 && name === 'workbookPr') {
          date1904 = isTrue(attributes.date1904);
        }
      },
      close(name) {
        if (depth === 2 && name === 'sheets') inSheets = false;
        depth -= 1;
      },
    },
    WORKBOOK_PART_BYTES,
  );
  const relsPart = zip.findIgnoringCase(relationshipsPartOf(workbookPart));
  const rels = relsPart ? await readRelationships(zip, relsPart, WORKBOOK_PART_BYTES) : [];
  const byId = new Map(rels.map((rel) => [rel.id, rel]));
  const partOf = (rel: Relationship | undefined): string | undefined => {
    if (!rel || rel.external) return undefined;
    const part = resolvePart(workbookPart, rel.target);
    return zip.findIgnoringCase(part) ?? part;
  };
  const partOfType = (suffix: string): string | undefined =>
    partOf(rels.find((candidate) => !candidate.external && candidate.type.endsWith(suffix)));
  const sheets = listed.map(({ name, state, relId }, index): SheetEntry => ({
    name: (name ?? `Sheet${index + 1}`).normalize('NFC'),
    index,
    hidden: state !== 'visible',
    state,
    part: partOf(byId.get(relId ?? '')),
  }));
  return {
    workbookPart,
    sheets,
    date1904,
    sharedStringsPart: partOfType('/sharedStrings'),
    stylesPart: partOfType('/styles'),
  };
}

/** Picks a sheet by name or tab index; by default the first visible one. */
export function chooseSheet(sheets: SheetEntry[], wanted: string | number | undefined): SheetEntry {
  const names = sheets.map((sheet) => `"${sheet.name}"`).join(', ');
  if (wanted === undefined) {
    const visible = sheets.find((sheet) => !sheet.hidden);
    if (!visible) {
      throw new SpreadsheetError(
        'no-rows-found',
        sheets.length === 0
          ? 'The workbook has no worksheets.'
          : `Every sheet in the workbook is hidden (${names}); choose one by name.`,
      );
    }
    return visible;
  }
  const found =
    typeof wanted === 'number'
      ? sheets[wanted]
      : (sheets.find((sheet) => sheet.name === wanted.normalize('NFC')) ??
        sheets.find((sheet) => sheet.name.toLowerCase() === wanted.normalize('NFC').toLowerCase()));
  if (!found) {
    throw new SpreadsheetError(
      'sheet-not-found',
      `The workbook has no sheet ${typeof wanted === 'number' ? `at index ${wanted}` : `named "${wanted}"`}; its sheets are ${names}.`,
    );
  }
  return found;
}
