import type { Migration } from '../migrate.js';
import { CUSTOM_FONT_COLUMNS } from '../../data/schema/custom-font-columns.js';

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
        ${CUSTOM_FONT_COLUMNS},
        coverage TEXT NOT NULL CHECK (json_valid(coverage)),
        scripts TEXT NOT NULL CHECK (json_valid(scripts)),
        licence TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX custom_fonts_face ON custom_fonts (family COLLATE NOCASE, weight, style);
    `);
  },
};
