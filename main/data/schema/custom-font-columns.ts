/**
 * The columns of an uploaded font that SQLite and PostgreSQL declare alike, in table order: its
 * face (family, weight, style), its file and the file's digest and size. Coverage and scripts
 * follow, as JSON checked per dialect.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in SQLite's
 * migration (SQLite keeps a CREATE statement's text as written).
 */
export const CUSTOM_FONT_COLUMNS = `family TEXT NOT NULL,
        weight INTEGER NOT NULL CHECK (weight BETWEEN 100 AND 900),
        style TEXT NOT NULL CHECK (style IN ('normal', 'italic')),
        format TEXT NOT NULL CHECK (format IN ('ttf', 'otf', 'woff', 'woff2')),
        file_name TEXT NOT NULL,
        original_name TEXT,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL`;
