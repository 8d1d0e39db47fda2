/**
 * Columns of a batch that SQLite and PostgreSQL declare alike, in table order. The rest of the
 * table (JSON documents, counters, flags, times) is typed per dialect.
 *
 * Part of released migrations: never edit them. The text is laid out as it stands in those
 * migrations (SQLite keeps a CREATE statement's text as written; its output-formats migration
 * rewrites the format check by its text).
 */

/** What a batch draws with: the template's assets, the layout, the image format and quality. */
export const BATCH_RENDER_COLUMNS = `assets_dir TEXT NOT NULL,
        target TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('png', 'jpeg', 'webp')),
        quality INTEGER`;

/** Where a batch's rows come from: the kind of source, which one, and a spreadsheet's sheet. */
export const BATCH_SOURCE_COLUMNS = `source_type TEXT NOT NULL CHECK (source_type IN ('json-array', 'csv', 'xlsx')),
        source_ref TEXT,
        sheet TEXT`;
