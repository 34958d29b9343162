import { sql, type Kysely } from 'kysely';

/**
 * An import commits in slices, so that other users' saves wait at most one slice; what a slice
 * changed is noted here in the same transaction, so a failure, a stop or a cancel later on undoes
 * every slice already committed and the import stays all or nothing. The notes of an import go
 * when it succeeds or has been undone.
 *
 * - import_undo_records: a record the import updated, as it was before (the whole row as JSON, so
 *   this table need not follow the records' columns).
 * - import_undo_products: a product whose place or details the import changed, with the values it
 *   had. The products it created are known by their 'created' rows in product_audit_log, which
 *   the undo finds by import (hence the index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table import_undo_records (
      import_id bigint not null references imports (id) on delete cascade,
      pid text not null,
      week_start date not null,
      previous jsonb not null,
      primary key (import_id, pid, week_start))`.execute(db);
  await sql`
    create table import_undo_products (
      import_id bigint not null references imports (id) on delete cascade,
      pid text not null,
      region text,
      site text,
      planner_name text,
      notes text,
      primary key (import_id, pid))`.execute(db);
  await sql`create index product_audit_log_import on product_audit_log (import_id) where import_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index product_audit_log_import`.execute(db);
  await sql`drop table import_undo_products`.execute(db);
  await sql`drop table import_undo_records`.execute(db);
}
