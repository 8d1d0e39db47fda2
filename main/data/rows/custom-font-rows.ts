import type { FontFormat, FontScript } from '../../../shared/font-schemas.js';
import type { CustomFontRecord } from '../types/custom-font-record.js';

/** A custom_fonts row; both stores keep coverage and scripts as JSON text. */
export interface CustomFontRow {
  id: string;
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  format: FontFormat;
  file_name: string;
  original_name: string | null;
  sha256: string;
  size: number;
  coverage: string;
  scripts: string;
  licence: string | null;
  created_at: string;
}

export function toCustomFontRow(record: CustomFontRecord): CustomFontRow {
  const { id, family, weight, style, format, sha256, size, licence } = record;
  return {
    id,
    family,
    weight,
    style,
    format,
    sha256,
    size,
    licence,
    file_name: record.fileName,
    original_name: record.originalName,
    coverage: JSON.stringify(record.coverage),
    scripts: JSON.stringify(record.scripts),
    created_at: record.createdAt,
  };
}

export function toCustomFontRecord(row: CustomFontRow): CustomFontRecord {
  return {
    id: row.id,
    family: row.family,
    weight: row.weight,
    style: row.style,
    format: row.format,
    size: row.size,
    sha256: row.sha256,
    scripts: JSON.parse(row.scripts) as FontScript[],
    licence: row.licence,
    originalName: row.original_name,
    createdAt: row.created_at,
    fileName: row.file_name,
    coverage: JSON.parse(row.coverage) as CustomFontRecord['coverage'],
  };
}
