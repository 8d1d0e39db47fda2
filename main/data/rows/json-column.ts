/**
 * How a store hands back a JSON column: SQLite keeps JSON as TEXT, while PostgreSQL's driver
 * parses json and jsonb itself. The row mappers take one of these, so both stores map their rows
 * with the same code.
 */
export type JsonColumn = (value: unknown) => unknown;

/** A column of JSON text (SQLite; PostgreSQL text columns holding JSON). */
export const jsonText: JsonColumn = (value) => JSON.parse(value as string) as unknown;

/** A json or jsonb column PostgreSQL has already parsed. */
export const jsonParsed: JsonColumn = (value) => value;

/** A nullable JSON column: SQL NULL stays null. */
export function jsonOrNull(json: JsonColumn, value: unknown): unknown {
  return value === null || value === undefined ? null : json(value);
}
