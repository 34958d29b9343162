import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Kysely's own bookkeeping: not part of the application's schema. */
const BOOKKEEPING = ['kysely_migration', 'kysely_migration_lock'];

export type CatalogueColumn = {
  table: string;
  name: string;
  type: string;
  isNullable: boolean;
  hasDefault: boolean;
  isGenerated: boolean;
  defaultSql: string | null;
  generatedSql: string | null;
  isIdentity: boolean;
};

/** One object of the schema with the SQL that defines it, keyed for a stable sort. */
export type CatalogueEntry = { table: string; name: string; definition: string };

export type Catalogue = {
  tables: string[];
  columns: CatalogueColumn[];
  constraints: CatalogueEntry[];
  indexes: CatalogueEntry[];
  functions: CatalogueEntry[];
  triggers: CatalogueEntry[];
};

const byKey = (a: { table: string; name: string }, b: { table: string; name: string }): number =>
  a.table === b.table ? compare(a.name, b.name) : compare(a.table, b.table);
/** Code-point order, the same whatever the database's or the machine's collation. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads the current schema's tables, columns, constraints, indexes, functions and triggers from
 * the system catalogues. Names of the schema itself are stripped so a dump taken in a test
 * schema of PostgreSQL reads like one taken in PGlite's `public`.
 */
export async function readCatalogue(db: Kysely<Database>): Promise<Catalogue> {
  const { rows: schemaRows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = schemaRows[0]?.schema ?? 'public';
  const unqualify = (text: string): string => text.split(`${schema}.`).join('');

  const { rows: tableRows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
  const tables = tableRows
    .map((r) => r.name)
    .filter((name) => !BOOKKEEPING.includes(name))
    .sort(compare);
  const isOurs = (table: string): boolean => tables.includes(table);

  const { rows: columnRows } = await sql<{
    table: string;
    name: string;
    type: string;
    not_null: boolean;
    default_sql: string | null;
    generated: string;
    identity: string;
  }>`
    select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default_sql,
      a.attgenerated::text as generated, a.attidentity::text as identity
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = ${schema} and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`.execute(db);
  const columns = columnRows
    .filter((r) => isOurs(r.table))
    .map((r): CatalogueColumn => {
      const isGenerated = r.generated !== '';
      const expression = r.default_sql === null ? null : unqualify(r.default_sql);
      return {
        table: r.table,
        name: r.name,
        type: r.type,
        isNullable: !r.not_null,
        hasDefault: (expression !== null && !isGenerated) || r.identity !== '',
        isGenerated,
        defaultSql: isGenerated ? null : expression,
        generatedSql: isGenerated ? expression : null,
        isIdentity: r.identity !== '',
      };
    });

  // Not-null marks, which newer engines also list as constraints, are written with the columns.
  const { rows: constraintRows } = await sql<CatalogueEntry>`
    select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and k.contype <> 'n'`.execute(db);

  // Indexes that back a primary key or unique constraint are written with the constraint.
  const { rows: indexRows } = await sql<CatalogueEntry>`
    select c.relname as table, i.relname as name, pg_get_indexdef(i.oid) as definition
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema}
      and not exists (select 1 from pg_constraint k where k.conindid = i.oid and k.contype in ('p', 'u', 'x'))`.execute(
    db,
  );

  const { rows: functionRows } = await sql<CatalogueEntry>`
    select '' as table, p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name,
      pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = ${schema} and p.prokind in ('f', 'p')`.execute(db);

  const { rows: triggerRows } = await sql<CatalogueEntry>`
    select c.relname as table, t.tgname as name, pg_get_triggerdef(t.oid) as definition
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and not t.tgisinternal`.execute(db);

  const clean = (entries: CatalogueEntry[]): CatalogueEntry[] =>
    entries
      .filter((e) => e.table === '' || isOurs(e.table))
      .map((e) => ({ ...e, definition: unqualify(e.definition).trim() }))
      .sort(byKey);

  return {
    tables,
    columns,
    constraints: clean(constraintRows),
    indexes: clean(indexRows),
    functions: clean(functionRows),
    triggers: clean(triggerRows),
  };
}
