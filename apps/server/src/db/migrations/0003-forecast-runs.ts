import { sql, type Kysely } from 'kysely';

/** Forecast runs (background jobs with progress) and each product's latest back-test accuracy. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('forecast_runs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('client_ids', sql`text[]`, (c) => c.notNull())
    .addColumn('total_products', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed_products', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // At most one run at a time, enforced by the database so that two requests (or two server
  // processes) racing to start a run cannot both win.
  await sql`create unique index forecast_runs_one_running on forecast_runs ((true)) where status = 'running'`.execute(
    db,
  );

  await db.schema
    .createTable('forecast_accuracy')
    .addColumn('pid', 'text', (c) => c.primaryKey().references('products.pid').onDelete('cascade'))
    .addColumn('run_id', 'integer', (c) => c.notNull().references('forecast_runs.id'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('demand_class', 'text', (c) => c.notNull())
    .addColumn('backtest_model', 'text', (c) => c.notNull())
    .addColumn('mape', 'double precision')
    .addColumn('bias', 'double precision')
    .addColumn('history_weeks', 'integer', (c) => c.notNull())
    .addColumn('computed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('forecast_accuracy').ifExists().execute();
  await db.schema.dropTable('forecast_runs').ifExists().execute();
}
