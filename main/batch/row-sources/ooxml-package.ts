import path from 'node:path/posix';
import { SpreadsheetError } from './spreadsheet-error.js';
import type { ZipArchive } from './zip-reader.js';

/**
 * The package-level structure of an OOXML workbook, read by us rather than by the streaming
 * reader: the workbook part is found through `_rels/.rels` (it need not be `xl/workbook.xml`),
 * sheets are listed in tab order with their visibility, and the 1904 flag is read from
 * `workbookPr`. Relationship types are matched by suffix so Strict OOXML (purl.oclc.org
 * namespaces) reads the same as Transitional.
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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (match, body: string) => {
    if (body.startsWith('#x')) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    return ENTITIES[body] ?? match;
  });
}

/** Start tags named `local` (any namespace prefix) with their attributes, prefixes kept. */
export function findElements(xml: string, local: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const tag = new RegExp(`<(?:[\\w.-]+:)?${local}(?=[\\s/>])([^>]*)>`, 'g');
  for (const match of xml.matchAll(tag)) {
    const attributes: Record<string, string> = {};
    for (const attr of (match[1] ?? '').matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attributes[attr[1] ?? ''] = decodeXmlEntities(attr[2] ?? attr[3] ?? '');
    }
    found.push(attributes);
  }
  return found;
}

/** An attribute by local name, whatever prefix the document bound its namespace to. */
function attribute(attributes: Record<string, string>, local: string): string | undefined {
  if (attributes[local] !== undefined) return attributes[local];
  const key = Object.keys(attributes).find((name) => name.endsWith(`:${local}`));
  return key === undefined ? undefined : attributes[key];
}

export function parseRelationships(xml: string): Relationship[] {
  return findElements(xml, 'Relationship').map((attrs) => ({
    id: attrs.Id ?? '',
    type: attrs.Type ?? '',
    target: attrs.Target ?? '',
    external: attrs.TargetMode === 'External',
  }));
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
  zip: ZipArchive,
): Promise<{ kind: PackageKind; workbookPart?: string }> {
  if (!zip.has('[Content_Types].xml')) return { kind: 'other' };
  const contentTypes = await zip.readText('[Content_Types].xml', 1024 * 1024);
  const overrides = new Map<string, string>();
  for (const attrs of findElements(contentTypes, 'Override')) {
    const part = (attrs.PartName ?? '').replace(/^\/+/, '').toLowerCase();
    overrides.set(part, attrs.ContentType ?? '');
  }
  let candidates: string[] = [];
  if (zip.has('_rels/.rels')) {
    const rels = parseRelationships(await zip.readText('_rels/.rels', 1024 * 1024));
    candidates = rels
      .filter((rel) => !rel.external && rel.type.endsWith('/officeDocument'))
      .map((rel) => resolvePart('', rel.target));
  }
  if (candidates.length === 0) candidates = ['xl/workbook.xml'];
  for (const part of candidates) {
    const type = overrides.get(part.toLowerCase());
    if (type && SPREADSHEET_MAIN_TYPES.includes(type) && zip.has(part)) {
      return { kind: 'xlsx', workbookPart: part };
    }
    if (type === XLSB_MAIN_TYPE || part.toLowerCase().endsWith('.bin')) return { kind: 'xlsb' };
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
  zip: ZipArchive,
  workbookPart: string,
): Promise<WorkbookStructure> {
  const workbookXml = await zip.readText(workbookPart);
  const relsPart = relationshipsPartOf(workbookPart);
  const rels = zip.has(relsPart) ? parseRelationships(await zip.readText(relsPart)) : [];
  const byId = new Map(rels.map((rel) => [rel.id, rel]));
  const partOfType = (suffix: string): string | undefined => {
    const rel = rels.find((candidate) => !candidate.external && candidate.type.endsWith(suffix));
    return rel ? resolvePart(workbookPart, rel.target) : undefined;
  };
  const workbookPr = findElements(workbookXml, 'workbookPr')[0] ?? {};
  const sheets = findElements(workbookXml, 'sheet').map((attrs, index): SheetEntry => {
    const rel = byId.get(attribute(attrs, 'id') ?? '');
    const state = parseSheetState(attrs.state);
    return {
      name: (attrs.name ?? `Sheet${index + 1}`).normalize('NFC'),
      index,
      hidden: state !== 'visible',
      state,
      part: rel && !rel.external ? resolvePart(workbookPart, rel.target) : undefined,
    };
  });
  return {
    workbookPart,
    sheets,
    date1904: isTrue(workbookPr.date1904),
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
