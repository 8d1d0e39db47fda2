import type { Migration } from '../migrate.js';

/**
 * Batches may render avif and pdf, and keep their output options (scale, transparent background,
 * crop marks) as JSON. SQLite cannot widen a CHECK in place, so the table is rebuilt from its own
 * definition (whatever columns earlier migrations added) with the new CHECK and column. Dropping
 * the old table would cascade to batch_rows, so the rows are set aside and put back.
 */
export const outputFormats: Migration = {
  version: 11,
  name: 'output-formats',
  up(db) {
    const table = db
      .prepare<[], { sql: string }>(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'batches'",
      )
      .get();
    if (!table) throw new Error('no batches table to migrate');
    const indexes = db
      .prepare<[], { sql: string }>(
        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'batches' AND sql IS NOT NULL",
      )
      .all();
    const oldCheck = "format IN ('png', 'jpeg', 'webp')";
    if (!table.sql.includes(oldCheck)) throw new Error('unexpected batches format check');
    const renamed = table.sql
      .replace(/^CREATE TABLE batches\b/, 'CREATE TABLE batches_next')
      .replace(oldCheck, "format IN ('png', 'jpeg', 'webp', 'avif', 'pdf')");
    // The new column goes before the column list's closing parenthesis (STRICT follows it).
    const close = renamed.lastIndexOf(')');
    const definition = `${renamed.slice(0, close)},
        output_options TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(output_options))
      ${renamed.slice(close)}`;
    const columns = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('batches')")
      .all()
      .map((column) => column.name)
      .join(', ');
    db.exec(`
      ${definition};
      INSERT INTO batches_next (${columns}) SELECT ${columns} FROM batches;
      CREATE TEMP TABLE batch_rows_kept AS SELECT * FROM batch_rows;
      DELETE FROM batch_rows;
      DROP TABLE batches;
      ALTER TABLE batches_next RENAME TO batches;
      INSERT INTO batch_rows SELECT * FROM temp.batch_rows_kept;
      DROP TABLE temp.batch_rows_kept;
      ${indexes.map((index) => `${index.sql};`).join('\n')}
    `);
  },
};
