import { z } from 'zod';
import { CatalogDetail, CatalogListItem } from './api-schemas.js';
import { LayoutName, Template } from './template-format.js';
import { MAX_PAGES } from './template-limits.js';

/** Schemas of the workspace-template routes (`/v1/templates`, fork, preview of a draft). */

export const ForkRequest = z
  .object({
    name: z.string().trim().min(1).max(120).optional().describe('Defaults to "<name> (copy)".'),
  })
  .strict();
export type ForkRequest = z.infer<typeof ForkRequest>;

const WorkspaceFields = {
  forkedFrom: z.string().nullable().describe('The template it was forked from; null if imported.'),
  version: z.number().int().describe('Every save makes a new version.'),
  updatedAt: z.string(),
};

export const WorkspaceTemplateItem = CatalogListItem.extend(WorkspaceFields);
export type WorkspaceTemplateItem = z.infer<typeof WorkspaceTemplateItem>;

export const WorkspaceTemplateList = z.array(WorkspaceTemplateItem);

export const WorkspaceTemplateDetail = CatalogDetail.extend({
  ...WorkspaceFields,
  template: Template.describe('The whole template document, as the editor edits it.'),
});
export type WorkspaceTemplateDetail = z.infer<typeof WorkspaceTemplateDetail>;

export const TemplatePatch = Template.pick({
  // A workspace template moves to format 2 to use its layout and text features.
  schemaVersion: true,
  name: true,
  description: true,
  category: true,
  subCategory: true,
  market: true,
  locale: true,
  tags: true,
  variables: true,
  sampleValues: true,
  layouts: true,
  primaryLayout: true,
})
  .partial()
  .extend({
    baseVersion: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('The version the edit was made on; 409 version-conflict if it is not current.'),
  })
  .strict();
export type TemplatePatch = z.infer<typeof TemplatePatch>;

/** The editor's preview of an unsaved draft: the same engine, scaled down. */
export const DraftPreviewRequest = z
  .object({
    template: z.unknown().describe('The draft template document (validated like a save).'),
    values: z.record(z.string(), z.unknown()).default({}),
    target: LayoutName.optional(),
    width: z.number().int().min(64).max(1920).default(720),
    page: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAGES)
      .default(1)
      .describe('The page of a multi-page layout to show, from 1.'),
  })
  .strict();
export type DraftPreviewRequest = z.infer<typeof DraftPreviewRequest>;

export const AssetCreated = z.object({
  asset: z.string().describe('The name image layers use: `{ "asset": "<name>" }`.'),
});
export type AssetCreated = z.infer<typeof AssetCreated>;

/** `name` is an asset's name as layers and `asset:` sample values write it (URL-encoded). */
export const TemplateAssetParams = z
  .object({ id: z.string().max(200), name: z.string().min(1).max(300) })
  .strict();

export const TemplateAssetQuery = z
  .object({
    width: z.coerce
      .number()
      .int()
      .min(16)
      .max(1024)
      .optional()
      .describe('A scaled-down WebP at most this wide (the editor shows it to mark a subject).'),
  })
  .strict();
