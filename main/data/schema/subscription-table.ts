/** The subscription table's column types, as each dialect's migration names them. */
export type SubscriptionColumnTypes =
  | { id: 'INTEGER'; time: 'TEXT' } // SQLite (times as ISO 8601 text)
  | { id: 'smallint'; time: 'timestamptz' }; // PostgreSQL

/**
 * The subscription: one row (id 1), active or lapsed, with an optional end. The same in SQLite
 * and PostgreSQL but for the column types; what follows the closing parenthesis (SQLite's
 * STRICT) is the migration's too.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in those
 * migrations (SQLite keeps a CREATE statement's text as written).
 */
export function subscriptionTable(types: SubscriptionColumnTypes): string {
  return `CREATE TABLE subscription (
        id ${types.id} PRIMARY KEY CHECK (id = 1),
        status TEXT NOT NULL CHECK (status IN ('active', 'lapsed')),
        expires_at ${types.time},
        updated_at ${types.time} NOT NULL
      )`;
}
