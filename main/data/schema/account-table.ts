/** The account table's column types, as each dialect's migration names them. */
export type AccountColumnTypes =
  | { id: 'INTEGER'; credits: 'INTEGER' } // SQLite (INTEGER is 64-bit)
  | { id: 'smallint'; credits: 'bigint' }; // PostgreSQL

/**
 * The account's running totals: one row (id 1) of credits granted, debited and held, never
 * negative, and never more debited and held than granted. The same in SQLite and PostgreSQL but
 * for the column types; what follows the closing parenthesis (SQLite's STRICT) is the
 * migration's too.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in those
 * migrations (SQLite keeps a CREATE statement's text as written).
 */
export function accountTable(types: AccountColumnTypes): string {
  return `CREATE TABLE account (
        id ${types.id} PRIMARY KEY CHECK (id = 1),
        granted ${types.credits} NOT NULL DEFAULT 0 CHECK (granted >= 0),
        debited ${types.credits} NOT NULL DEFAULT 0 CHECK (debited >= 0),
        held ${types.credits} NOT NULL DEFAULT 0 CHECK (held >= 0),
        CHECK (granted - debited - held >= 0)
      )`;
}
