import type { CustomFontRecord } from './custom-font-record.js';

/** A workspace template's row as every node copies it (the template itself is in its versions). */
export interface WorkspaceTemplateChange {
  id: string;
  forkedFrom: string | null;
  currentVersion: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** Set once a deleted template's versions and files are gone: copies drop it too. */
  purgedAt: string | null;
}

export interface WorkspaceVersionChange {
  templateId: string;
  version: number;
  /** The template as JSON text, exactly as it was saved. */
  data: string;
  createdAt: string;
}

export interface WorkspaceFontChange extends CustomFontRecord {
  deletedAt: string | null;
}

/**
 * Everything a cluster's shared workspace wrote after a change number, read in one snapshot;
 * each node applies it to its own copy.
 */
export interface WorkspaceChanges {
  /** The highest change number included (the caller's own number when nothing changed). */
  head: number;
  templates: WorkspaceTemplateChange[];
  versions: WorkspaceVersionChange[];
  assets: Array<{ templateId: string; name: string }>;
  fonts: WorkspaceFontChange[];
}
