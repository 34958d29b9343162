import { sql, type Kysely } from 'kysely';

/**
 * A forecast run trains the learned global member once, on all its products, before its chunks
 * are queued: the run keeps the horizon every chunk forecasts (the member has one model per step)
 * and how many of its step models are trained (its progress meanwhile). The trained models, a few
 * megabytes of JSON, sit in a table of their own, read once per chunk, so that polling a run's
 * progress never reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_runs add column horizon integer`.execute(db);
  await sql`alter table forecast_runs add column training_steps integer not null default 0`.execute(db);
  await sql`alter table forecast_runs add column trained_steps integer not null default 0`.execute(db);
  await sql`create table forecast_run_global_models (
    run_id integer primary key references forecast_runs(id) on delete cascade,
    models jsonb not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table forecast_run_global_models`.execute(db);
  await sql`alter table forecast_runs drop column trained_steps`.execute(db);
  await sql`alter table forecast_runs drop column training_steps`.execute(db);
  await sql`alter table forecast_runs drop column horizon`.execute(db);
}
