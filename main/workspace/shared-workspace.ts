import type { Template } from '../../shared/template-format.js';
import type { CustomFontRecord } from '../data/types/custom-font-record.js';

/**
 * Where workspace templates and uploaded fonts are kept when several nodes share them (cluster
 * mode): writes go to the shared truth first (rows in PostgreSQL, files in the object store),
 * then this node's local copy is brought up to date, so what a write returns is already readable
 * here. Embedded mode has none: the local store is the truth.
 */
export interface SharedWorkspace {
  /** A new template at version 1 with every file of `assetsDir` as its assets. */
  createTemplate(input: {
    template: Template;
    forkedFrom: string | null;
    assetsDir: string;
  }): Promise<void>;
  /** The next version; 409 version-conflict when `baseVersion` is not the current one. */
  saveTemplateVersion(id: string, template: Template, baseVersion?: number): Promise<void>;
  markTemplateDeleted(id: string): Promise<boolean>;
  /** A file already written to the template's local assets folder, shared under `name`. */
  addTemplateAsset(id: string, name: string, file: string): Promise<void>;
  /** A font whose file is already written locally at `file`. */
  insertFont(record: CustomFontRecord, file: string): Promise<void>;
  removeFont(id: string): Promise<boolean>;
  /** Brings the local copy up to date with every write committed so far. */
  pull(): Promise<void>;
}
