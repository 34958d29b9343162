import { sql, type Kysely } from 'kysely';

/**
 * Spreadsheet imports as background jobs. The request that uploads a file
 * answers at once with the import's row; applying it goes on in the background, and the row says
 * how far it got (processed of total rows), how it ended (counts, per-row outcome, or the error)
 * and how long each step took. Imports written before this migration had finished: 'succeeded'.
 * An import whose process stopped is marked 'failed' by the next one to look (its transaction was
 * rolled back with the process, so nothing of it is in the data).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table imports
    add column status text not null default 'succeeded'
      check (status in ('running', 'succeeded', 'failed')),
    add column imported_by_id text,
    add column processed_rows integer not null default 0,
    add column unchanged_count integer not null default 0,
    add column error text,
    add column finished_at timestamptz,
    add column outcome jsonb,
    add column steps jsonb`.execute(db);
  // New rows state their status; the default above only describes the rows already there.
  await sql`alter table imports alter column status drop default`.execute(db);
  // Startup recovery and the dialog's poll look for running imports.
  await sql`create index imports_running on imports (id) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index imports_running`.execute(db);
  await sql`alter table imports drop column status, drop column imported_by_id, drop column processed_rows,
    drop column unchanged_count, drop column error, drop column finished_at, drop column outcome,
    drop column steps`.execute(db);
}
