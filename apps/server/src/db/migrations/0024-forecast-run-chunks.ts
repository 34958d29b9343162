import { sql, type Kysely } from 'kysely';

/**
 * A forecast run is split into chunks of a few hundred products, each a job in the
 * PostgreSQL queue (pg-boss, its own schema) that any server process or `npm run worker` takes.
 * A chunk row keeps its products, its progress and, once done, what it wrote: the run's progress
 * is the sum over its chunks, and a retried chunk (its worker died) is counted once. `queued`
 * marks runs handed to the queue: no process holds their advisory lock while workers do them, so
 * start-up recovery must not take them for orphans. `requested_by_id` lets whichever process
 * finishes the run notify the user who started it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_runs add column queued boolean not null default false`.execute(db);
  await sql`alter table forecast_runs add column requested_by_id text`.execute(db);
  await db.schema
    .createTable('forecast_run_chunks')
    .addColumn('run_id', 'integer', (c) => c.notNull().references('forecast_runs.id').onDelete('cascade'))
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('pids', sql`text[]`, (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('done_at', 'timestamptz')
    .addPrimaryKeyConstraint('forecast_run_chunks_pk', ['run_id', 'chunk'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('forecast_run_chunks').ifExists().execute();
  await sql`alter table forecast_runs drop column queued`.execute(db);
  await sql`alter table forecast_runs drop column requested_by_id`.execute(db);
}
