import type { Brand } from '../../../shared/brand-schemas.js';

/** A named brand with its profile: what GET /v1/brands lists. */
export type BrandProfileRecord = Brand;

export interface BrandProfilesRepository {
  /** The default profile; an empty one is created on first use so there always is one. */
  getDefault(): BrandProfileRecord;
  /** Replaces the default profile's data (validated), creating the default if needed. */
  putDefault(profile: unknown): BrandProfileRecord;
  /** Default first (created if needed, as for getDefault), then by name. */
  list(): BrandProfileRecord[];
  get(id: string): BrandProfileRecord | null;
  create(name: string, profile: unknown): BrandProfileRecord;
  /** Replaces the data, and the name when given. Throws not-found. */
  update(id: string, profile: unknown, name?: string): BrandProfileRecord;
  /** False when absent. The default cannot be removed: make another one default first. */
  remove(id: string): boolean;
  /** Makes this profile the default (and the previous default a named one). Throws not-found. */
  setDefault(id: string): BrandProfileRecord;
}
