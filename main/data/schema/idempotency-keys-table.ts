/**
 * The idempotency keys' table, the same in SQLite and PostgreSQL but for the type of its times,
 * which each dialect's migration names: `TEXT` (ISO 8601) in SQLite, `timestamptz` in PostgreSQL.
 * What follows the closing parenthesis (SQLite's STRICT) is the migration's too.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in those
 * migrations (SQLite keeps a CREATE statement's text as written).
 */
export function idempotencyKeysTable(time: 'TEXT' | 'timestamptz'): string {
  return `CREATE TABLE idempotency_keys (
        api_key_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
        render_id TEXT,
        content_type TEXT,
        output_path TEXT,
        created_at ${time} NOT NULL,
        expires_at ${time} NOT NULL,
        PRIMARY KEY (api_key_id, key)
      )`;
}
