import type { z } from 'zod';
import type {
  ApiKeyRecord,
  CreatedApiKey,
  LedgerEntry,
  LedgerPage,
} from '../../shared/api-schemas';
import type { Batch, BundleLink, TemplateFieldsResult } from '../../shared/batch-schemas';

export type {
  Account,
  CatalogDetail,
  CatalogListItem,
  CatalogQuery,
  OutputFormat,
  RenderRequest,
  Taxonomy,
  VariableDescription,
} from '../../shared/api-schemas';
export type {
  Batch,
  BatchStatus,
  Binding,
  Bindings,
  CreateBatchRequest,
  ManifestRow,
  RowStatus,
} from '../../shared/batch-schemas';
export type { BrandProfile } from '../../shared/brand-profile';
export type { BrandRole, Ratio } from '../../shared/template-format';
export type { Problem } from '../../shared/errors';
export type {
  Layer,
  Layout,
  Paint,
  Template,
  Variable,
  VariableType,
} from '../../shared/template-format';
export type {
  TemplatePatch,
  WorkspaceTemplateDetail,
  WorkspaceTemplateItem,
} from '../../shared/workspace-schemas';
export type { CustomFont, FontFamilyInfo, FontList, FontScript } from '../../shared/font-schemas';
export type { Brand, CreateBrandRequest, UpdateBrandRequest } from '../../shared/brand-schemas';

export type ApiKey = z.infer<typeof ApiKeyRecord>;
export type NewApiKey = z.infer<typeof CreatedApiKey>;
export type LedgerEntryT = z.infer<typeof LedgerEntry>;
export type LedgerPageT = z.infer<typeof LedgerPage>;
export type LedgerKind = LedgerEntryT['kind'];
export type BundleLinkT = z.infer<typeof BundleLink>;
export type TemplateFields = z.infer<typeof TemplateFieldsResult>;

/** POST /v1/uploads (main/batch/upload-service.ts UploadResponse). */
export interface Upload {
  id: string;
  sourceRef: string;
  kind: 'csv' | 'xlsx' | 'image' | 'zip';
  filename: string;
  bytes: number;
  expiresAt: string | null;
  rows?: number;
  fields?: string[];
  sheets?: { name: string; index: number; hidden: boolean }[];
  sheet?: string;
  encoding?: string;
  delimiter?: string;
  preview?: Record<string, unknown>[];
  width?: number;
  height?: number;
}

/** POST /v1/render-batches/preflight. */
export type { PreflightResult } from '../../shared/batch-schemas';

export interface Preferences {
  workers: number | null;
  port: number | null;
  theme: 'system' | 'light' | 'dark';
  language: 'system' | 'en' | 'vi';
}

export interface SystemInfo {
  version: string;
  url: string;
  port: number;
  dataDir: string;
  workers: number;
  preferences: Preferences;
}

/** One `progress` event of GET /v1/render-batches/{id}/events. */
export interface BatchProgressEvent {
  batch: Batch;
  rowsPerSecond: number;
  secondsLeft: number | null;
}

export interface RenderedImage {
  blob: Blob;
  renderId: string | null;
  creditsRemaining: number | null;
  /** Where the image is stored when the render was made with an Idempotency-Key. */
  outputKey: string | null;
  elapsedMs: number;
}
