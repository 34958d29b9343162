import { sql, type Kysely } from 'kysely';

/**
 * Control tower:
 * - forecast_snapshots: what the plan said about the future when a forecast run or a publish
 *   happened, one row per product and snapshot with the statistical, prelim and final units of the
 *   following weeks as arrays (element i = the week i weeks after the snapshot week, i.e. lag i).
 *   One row per product instead of one per product and week keeps the fastest-growing table about
 *   a tenth of the size (one tuple header and one index entry per 26 weeks).
 * - marketing_plans: the marketing organisation's revenue and cost plan per business unit, family,
 *   region and quarter, one set per plan cycle (the worksheet's Marketing Forecast rows).
 * - the records' roll-up trigger learns to stand aside for one transaction
 *   (`set local planning.skip_rollup = 'on'`): a publish moves whole columns, and applies the same
 *   move to demand_week_totals itself instead of letting the trigger re-aggregate millions of rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One snapshot per product and week: a later run or publish in the same week replaces it, since
  // lags are counted in weeks.
  await sql`create table forecast_snapshots (
    pid text not null references products (pid) on delete cascade,
    snapshot_week date not null,
    source text not null check (source in ('forecast', 'publish', 'history')),
    taken_at timestamptz not null default now(),
    reason_code text,
    naive_units real,
    stat_units real[] not null,
    prelim_units real[] not null,
    final_units real[] not null,
    primary key (pid, snapshot_week)
  )`.execute(db);
  await sql`create index forecast_snapshots_week on forecast_snapshots (snapshot_week)`.execute(db);

  await sql`create table marketing_plans (
    cycle text not null,
    client_id text not null,
    bu text not null,
    pf text not null,
    region text not null,
    quarter text not null,
    revenue numeric(16, 2) not null,
    cost numeric(16, 2) not null,
    primary key (client_id, bu, pf, region, quarter, cycle)
  )`.execute(db);

  const { rows } = await sql<{ source: string }>`
    select prosrc as source from pg_proc where proname = 'demand_week_totals_on_records'`.execute(db);
  const source = rows[0]?.source;
  if (!source || !/\bbegin\b/i.test(source)) throw new Error('roll-up trigger function not found');
  const guarded = source.replace(
    /\bbegin\b/i,
    `begin
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;`,
  );
  await sql
    .raw(
      `create or replace function demand_week_totals_on_records() returns trigger language plpgsql as $fn$${guarded}$fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ source: string }>`
    select prosrc as source from pg_proc where proname = 'demand_week_totals_on_records'`.execute(db);
  const source = rows[0]?.source ?? '';
  const unguarded = source.replace(
    /\n\s*if coalesce\(current_setting\('planning\.skip_rollup', true\), ''\) = 'on' then\s*return null;\s*end if;/,
    '',
  );
  await sql
    .raw(
      `create or replace function demand_week_totals_on_records() returns trigger language plpgsql as $fn$${unguarded}$fn$`,
    )
    .execute(db);
  await sql`drop table marketing_plans`.execute(db);
  await sql`drop table forecast_snapshots`.execute(db);
}
