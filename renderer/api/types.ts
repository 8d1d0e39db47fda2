export type {
  Account,
  ApiKeyRecord as ApiKey,
  CatalogDetail,
  CatalogListItem,
  CatalogQuery,
  CreatedApiKey as NewApiKey,
  LedgerEntry as LedgerEntryT,
  LedgerKind,
  LedgerPage as LedgerPageT,
  OutputFormat,
  RenderRequest,
  Taxonomy,
  VariableDescription,
} from '../../shared/api-schemas';
export type {
  Batch,
  BatchAccepted,
  BatchProgressEvent,
  BatchStatus,
  Binding,
  Bindings,
  BundleLink as BundleLinkT,
  CreateBatchRequest,
  ManifestPage,
  ManifestRow,
  PreflightResult,
  RowStatus,
  SheetPart,
  SheetPlacement,
  TemplateFieldsResult as TemplateFields,
} from '../../shared/batch-schemas';
export type { BrandProfile } from '../../shared/brand-profile';
export type { BrandRole, Ratio } from '../../shared/template-format';
export type { Problem } from '../../shared/errors';
export type {
  Layer,
  Layout,
  Paint,
  StackLayer,
  Template,
  Variable,
  VariableType,
} from '../../shared/template-format';
export type {
  AssetCreated,
  TemplatePatch,
  WorkspaceTemplateDetail,
  WorkspaceTemplateItem,
} from '../../shared/workspace-schemas';
export type { CustomFont, FontFamilyInfo, FontList, FontScript } from '../../shared/font-schemas';
export type { Brand, CreateBrandRequest, UpdateBrandRequest } from '../../shared/brand-schemas';
export type { Upload, UploadRows } from '../../shared/upload-schemas';
export type { Preferences, SystemInfo } from '../../shared/system-schemas';
export type { ImageUrlSettings } from '../../shared/image-url-schemas';
export type { CreatedWebhook, Webhook, WebhookDelivery } from '../../shared/webhook-schemas';
export type {
  TeamServiceCheck,
  TeamServiceLink,
  TeamServiceStatus,
  TeamServiceUpdate,
} from '../../shared/team-service-schemas';

export interface RenderedImage {
  blob: Blob;
  renderId: string | null;
  creditsRemaining: number | null;
  /** Where the image is stored when the render was made with an Idempotency-Key. */
  outputKey: string | null;
}
