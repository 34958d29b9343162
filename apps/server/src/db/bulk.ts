import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema';

export type ColumnSpec<Row> = {
  name: keyof Row & string;
  type: 'text' | 'date' | 'float8' | 'numeric' | 'int4' | 'timestamptz';
};

/**
 * Inserts many rows with one statement per call: each column travels as one array parameter and
 * `unnest` turns them back into rows. That keeps the bind-parameter count at the column count
 * (PostgreSQL allows 65,535) and works the same on PGlite and on a PostgreSQL server.
 */
export async function insertByUnnest<Row extends Record<string, unknown>>(
  db: Kysely<Database>,
  table: keyof Database,
  columns: ReadonlyArray<ColumnSpec<Row>>,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const arrays: RawBuilder<unknown>[] = columns.map((column) => {
    const values = rows.map((row) => {
      const value = row[column.name];
      if (value instanceof Date) return value.toISOString();
      return value ?? null;
    });
    return sql`${values}::${sql.raw(column.type)}[]`;
  });
  const names = sql.join(columns.map((c) => sql.ref(c.name)));
  await sql`insert into ${sql.table(table)} (${names}) select * from unnest(${sql.join(arrays)})`.execute(db);
}
