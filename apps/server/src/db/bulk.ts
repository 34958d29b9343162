import { finished } from 'node:stream/promises';
import type { SqlArrayType } from '@ps/domain';
import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

export type ColumnSpec<Row> = { name: keyof Row & string; type: SqlArrayType };

/** One column of many rows as one array parameter, cast to the column's type. */
function columnArray<Row extends Record<string, unknown>>(
  rows: readonly Row[],
  column: ColumnSpec<Row>,
): RawBuilder<unknown> {
  return sql`${arrayLiteral(rows.map((row) => row[column.name]))}::${sql.raw(column.type)}[]`;
}

/**
 * The PostgreSQL array literal of `values` (numbers, booleans, text, dates, JSON; null or
 * undefined as NULL), as node-postgres would build it from the array, without its two regular
 * expressions per element: a 5,000-record spread binds some 100,000 values.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const elements = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return String(value);
    // Objects other than dates travel as JSON, as node-postgres sends them.
    const text =
      typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
    return text.includes('\\') || text.includes('"') ? `"${text.replace(/[\\"]/g, '\\$&')}"` : `"${text}"`;
  });
  return `{${elements.join(',')}}`;
}

const names = (columns: ReadonlyArray<{ name: string }>) => sql.join(columns.map((c) => sql.ref(c.name)));

/**
 * Inserts many rows with one statement per call: each column travels as one array parameter and
 * `unnest` turns them back into rows. That keeps the bind-parameter count at the column count
 * (PostgreSQL allows 65,535) and works the same on PGlite and on a PostgreSQL server.
 */
export async function insertByUnnest<Row extends Record<string, unknown>>(
  db: Db,
  table: keyof Database,
  columns: ReadonlyArray<ColumnSpec<Row>>,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const arrays = sql.join(columns.map((column) => columnArray(rows, column)));
  await sql`insert into ${sql.table(table)} (${names(columns)}) select * from unnest(${arrays})`.execute(db);
}

/** What an unnest update matches on, what it writes from each row, and what it sets on every row. */
type UnnestUpdate<Row> = {
  keys: ReadonlyArray<ColumnSpec<Row>>;
  columns: ReadonlyArray<ColumnSpec<Row>>;
  also?: Readonly<Record<string, RawBuilder<unknown>>>;
};

/**
 * Updates many rows with one statement, as insertByUnnest does: the rows matched on `keys` get
 * `columns` from their row, and every matched row gets the `also` assignments (SQL expressions
 * that may read the row's current values as `t.<column>`). One statement also means one run of
 * the table's statement triggers. Returns the number of rows updated.
 */
export async function updateByUnnest<Row extends Record<string, unknown>>(
  db: Db,
  table: keyof Database,
  spec: UnnestUpdate<Row>,
  rows: readonly Row[],
): Promise<number> {
  return (await updateByUnnestReturningKeys(db, table, spec, rows)).length;
}

/** updateByUnnest that answers the key values of the rows it updated, in no particular order. */
export async function updateByUnnestReturningKeys<Row extends Record<string, unknown>>(
  db: Db,
  table: keyof Database,
  spec: UnnestUpdate<Row>,
  rows: readonly Row[],
): Promise<Array<Record<string, unknown>>> {
  return updateByUnnestReturning(
    db,
    table,
    spec,
    rows,
    sql.join(spec.keys.map((k) => sql`u.${sql.ref(k.name)}`)),
  );
}

/**
 * updateByUnnest that answers `returning` (SQL over the updated row `t` and its input `u`) for
 * each row it updated, in no particular order: a writer that needs the rows as stored gets them
 * from the write itself instead of reading them again.
 */
export async function updateByUnnestReturning<Row extends Record<string, unknown>, Result>(
  db: Db,
  table: keyof Database,
  spec: UnnestUpdate<Row>,
  rows: readonly Row[],
  returning: RawBuilder<unknown>,
): Promise<Result[]> {
  if (rows.length === 0) return [];
  const result = await sql<Result>`${unnestUpdate(table, spec, rows, returning)}`.execute(db);
  return result.rows;
}

/**
 * The update statement of updateByUnnest, returning `returning` (which may name the updated row
 * as `t`), for callers that use it as a data-modifying CTE (an audited write, say).
 */
export function unnestUpdate<Row extends Record<string, unknown>>(
  table: keyof Database,
  spec: UnnestUpdate<Row>,
  rows: readonly Row[],
  returning: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const all = [...spec.keys, ...spec.columns];
  const arrays = sql.join(all.map((column) => columnArray(rows, column)));
  const assignments = [
    ...spec.columns.map((c) => sql`${sql.ref(c.name)} = u.${sql.ref(c.name)}`),
    ...Object.entries(spec.also ?? {}).map(([name, value]) => sql`${sql.ref(name)} = ${value}`),
  ];
  const matches = spec.keys.map((k) => sql`t.${sql.ref(k.name)} = u.${sql.ref(k.name)}`);
  return sql`
    update ${sql.table(table)} as t set ${sql.join(assignments)}
    from unnest(${arrays}) as u(${names(all)})
    where ${sql.join(matches, sql` and `)}
    returning ${returning}`;
}

/** COPY's text format: a backslash, tab, newline or carriage return inside a value is escaped. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : // A json column's value.
          JSON.stringify(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text;
}

/** Rows as COPY text lines, in the columns' order. */
function copyLines<Row extends Record<string, unknown>>(
  columns: ReadonlyArray<{ name: keyof Row & string }>,
  rows: readonly Row[],
): string {
  let text = '';
  for (const row of rows) text += columns.map((c) => copyValue(row[c.name])).join('\t') + '\n';
  return text;
}

/**
 * Writes many rows into one table the fastest way the engine offers, on the caller's connection
 * (so inside its transaction, when it has one).
 */
export type BulkLoader = {
  /** `COPY … FROM STDIN` on PostgreSQL; insertByUnnest on PGlite, which has no COPY protocol. */
  readonly usesCopy: boolean;
  load<Row extends Record<string, unknown>>(
    table: keyof Database,
    columns: ReadonlyArray<ColumnSpec<Row>>,
    rows: readonly Row[],
  ): Promise<void>;
};

/**
 * A BulkLoader for `db`. COPY parses text rows instead of one array per column and skips the
 * planner: about twice the rows per second of an unnest insert on a wide table. Kysely exposes no
 * driver client, so the COPY stream goes through the connection's query call as pg's documented
 * "submittable" (pg hands any object with `submit` the connection); Kysely's Postgres connection
 * passes the compiled query's `sql` to `client.query` unchanged (every API test on PostgreSQL seeds through this).
 */
export async function openBulkLoader(db: Db): Promise<BulkLoader> {
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  return bulkLoaderOf(db, !rows[0]?.version.includes('PGlite'));
}

/**
 * openBulkLoader for a caller that knows its engine already (PostgreSQL: COPY), so a writer that
 * opens one per transaction runs no query to find out.
 */
export function bulkLoaderOf(db: Db, usesCopy: boolean): BulkLoader {
  if (!usesCopy) {
    return {
      usesCopy: false,
      load: (table, columns, rows) => insertByUnnest(db, table, columns, rows),
    };
  }
  return {
    usesCopy: true,
    load: async (table, columns, rows) => {
      if (rows.length === 0) return;
      await copyText(
        db,
        table,
        columns.map((c) => c.name),
        copyLines(columns, rows),
      );
    },
  };
}

/**
 * `COPY table (columns) FROM STDIN` of text already in COPY's format (tab-separated, `\N` for
 * null, one row a line) on the caller's connection: PostgreSQL only. A bulk load's worker writes
 * this text itself, so the request thread only passes it on.
 */
export async function copyText(
  db: Db,
  table: string,
  columns: readonly string[],
  text: string,
): Promise<void> {
  if (text === '') return;
  const names = columns.map((c) => pg.escapeIdentifier(c)).join(', ');
  const stream = copyFrom(`copy ${pg.escapeIdentifier(table)} (${names}) from stdin`);
  const done = finished(stream);
  await db.getExecutor().provideConnection(async (connection) => {
    const submitted = connection.executeQuery(CompiledQuery.raw(stream as unknown as string));
    stream.end(text);
    await Promise.all([submitted, done]);
  });
}
