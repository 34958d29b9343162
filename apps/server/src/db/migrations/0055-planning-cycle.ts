import { sql, type Kysely } from 'kysely';

/**
 * The scheduled planning cycle: its one schedule, its runs and each run's step log. At most one
 * run is running at a time (a unique index on the running row), on any number of processes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table cycle_schedule (
    id boolean primary key default true check (id),
    is_enabled boolean not null,
    frequency text not null check (frequency in ('daily', 'weekly')),
    weekday smallint not null check (weekday between 0 and 6),
    run_time text not null check (run_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    time_zone text not null,
    updated_by text not null,
    updated_by_id text not null,
    updated_at timestamptz not null default now()
  )`.execute(db);

  await sql`create table cycle_runs (
    id serial primary key,
    trigger text not null check (trigger in ('schedule', 'manual')),
    requested_by text not null,
    requested_by_id text,
    status text not null check (status in ('running', 'succeeded', 'failed')),
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    error text
  )`.execute(db);
  await sql`create unique index cycle_runs_one_running on cycle_runs ((true)) where status = 'running'`.execute(
    db,
  );

  // One row per attempt at a step: a rerun appends, so the log keeps the failure it answered.
  await sql`create table cycle_steps (
    id bigserial primary key,
    run_id integer not null references cycle_runs (id) on delete cascade,
    step text not null,
    status text not null check (status in ('running', 'succeeded', 'failed', 'skipped')),
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    progress smallint check (progress between 0 and 100),
    message text,
    counts jsonb not null default '{}'::jsonb
  )`.execute(db);
  await sql`create index cycle_steps_run on cycle_steps (run_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table cycle_steps`.execute(db);
  await sql`drop table cycle_runs`.execute(db);
  await sql`drop table cycle_schedule`.execute(db);
}
