import type { Migration } from '../migrate.js';

/**
 * Fonts the user uploaded. The file lives in `<dataDir>/fonts/`, named by its content hash; the
 * row keeps what the engine and the UI need without reopening it (family, style, coverage).
 */
export const customFonts: Migration = {
  version: 8,
  name: 'custom-fonts',
  up(db) {
    db.exec(`
      CREATE TABLE custom_fonts (
        id TEXT PRIMARY KEY CHECK (id LIKE 'font\\_%' ESCAPE '\\'),
        family TEXT NOT NULL,
        weight INTEGER NOT NULL CHECK (weight BETWEEN 100 AND 900),
        style TEXT NOT NULL CHECK (style IN ('normal', 'italic')),
        format TEXT NOT NULL CHECK (format IN ('ttf', 'otf', 'woff', 'woff2')),
        file_name TEXT NOT NULL,
        original_name TEXT,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        coverage TEXT NOT NULL CHECK (json_valid(coverage)),
        scripts TEXT NOT NULL CHECK (json_valid(scripts)),
        licence TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX custom_fonts_face ON custom_fonts (family COLLATE NOCASE, weight, style);
    `);
  },
};
