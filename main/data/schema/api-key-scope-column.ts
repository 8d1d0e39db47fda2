/**
 * An API key's scope (shared/key-scopes.ts), the same in SQLite and PostgreSQL: the column both
 * dialects add in place of the admin flag, `render` for a key that was not admin.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in SQLite's
 * migration (SQLite keeps an added column's text as written, in the table's CREATE statement).
 */
export const API_KEY_SCOPE_COLUMN = `scope TEXT NOT NULL DEFAULT 'render'
        CHECK (scope IN ('read', 'render', 'templates', 'admin'))`;
