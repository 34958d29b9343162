import { sql, type Kysely } from 'kysely';

/**
 * Spreadsheet import. A product gets the planner and notes a sheet carries (their own
 * table: nothing else writes them, and products keeps the catalogue's columns); every import
 * is a row in `imports`, and each audit row it writes points at it, so "what did that file change"
 * is one query. Product attributes (region, site, planner, notes) are not per week, so their
 * changes go to `product_audit_log` rather than a week's audit_log row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table product_details (
    pid text primary key references products(pid) on delete cascade,
    planner_name text,
    notes text
  )`.execute(db);
  await sql`create table imports (
    id bigserial primary key,
    file_name text not null,
    imported_by text not null,
    imported_at timestamptz not null default now(),
    row_count integer not null,
    created_count integer not null,
    updated_count integer not null,
    failed_count integer not null
  )`.execute(db);
  await sql`alter table audit_log add column import_id bigint references imports(id)`.execute(db);
  await sql`create table product_audit_log (
    id bigserial primary key,
    client_id text not null,
    pid text not null,
    field text not null,
    old_value text,
    new_value text,
    changed_by text not null,
    changed_at timestamptz not null default now(),
    source text not null,
    import_id bigint references imports(id)
  )`.execute(db);
  await sql`create index product_audit_log_pid on product_audit_log (pid, changed_at)`.execute(db);
  // Partial: only imported rows carry an import id, and only "what did import N change" reads it.
  await sql`create index audit_log_import on audit_log (import_id) where import_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table product_audit_log`.execute(db);
  await sql`alter table audit_log drop column import_id`.execute(db);
  await sql`drop table imports`.execute(db);
  await sql`drop table product_details`.execute(db);
}
