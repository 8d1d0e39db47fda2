import { BrandProfile } from '../../../shared/brand-profile.js';
import { brandProblems } from '../rules/brand-profile-rules.js';
import type { BrandProfileRecord } from '../types/brand-profiles.js';
import type { JsonColumn } from './json-column.js';
import { validStored } from './stored-document.js';

/** A brand_profiles row: SQLite stores the flag as 0/1 and the profile as JSON text. */
export interface BrandProfileRow {
  id: string;
  name: string;
  is_default: number | boolean;
  data: unknown;
  created_at: string;
  updated_at: string;
}

export function toBrandRecord(row: BrandProfileRow, json: JsonColumn): BrandProfileRecord {
  const what = `brand profile "${row.name}" (${row.id})`;
  return {
    id: row.id,
    name: row.name,
    isDefault: row.is_default === 1 || row.is_default === true,
    profile: validStored(BrandProfile, json(row.data), what, brandProblems),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
