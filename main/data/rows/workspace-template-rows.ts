/** A workspace_templates row, as both stores hold it (PostgreSQL adds its change numbers). */
export interface WorkspaceTemplateRow {
  id: string;
  forked_from: string | null;
  current_version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
