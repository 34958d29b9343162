import { sql, type Kysely } from 'kysely';

/**
 * Admin bulk data loads (docs/data-integration.md):
 * - data_loads: the load log, one row per file loaded or dry-run (who, when, file, entity, counts,
 *   refusals, duration, outcome). A load left 'running' by a stopped server is marked failed.
 * - product_prices: each product's unit cost and price with the day they take effect; history
 *   money uses the price in effect that week, products.unit_cost/unit_price hold today's.
 * - audit_log_last_override skips 'data-load' rows: a corrected actual is no planner's override.
 * - sales_history.revenue / cost: the money a company sent with its history (or derived from the
 *   prices in effect), kept beside the units for the weeks before the demand records.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table data_loads (
    id bigserial primary key,
    entity text not null,
    file_name text not null,
    dry_run boolean not null,
    status text not null check (status in ('running', 'succeeded', 'refused', 'failed')),
    loaded_by text not null,
    loaded_by_id text not null,
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    duration_ms integer,
    processed_rows integer not null default 0,
    total_bytes bigint not null default 0,
    counts jsonb,
    refusals jsonb not null default '[]'::jsonb,
    error text,
    steps jsonb not null default '{}'::jsonb)`.execute(db);
  await sql`create index data_loads_started on data_loads (started_at desc, id desc)`.execute(db);
  await sql`create index data_loads_running on data_loads (id) where status = 'running'`.execute(db);

  await sql`create table product_prices (
    pid text not null references products(pid) on delete cascade,
    effective_from date not null,
    unit_cost numeric(14,4) not null,
    unit_price numeric(14,4) not null,
    primary key (pid, effective_from))`.execute(db);

  await sql`alter table sales_history add column revenue numeric(16,2), add column cost numeric(16,2)`.execute(
    db,
  );

  // A corrected actual is audited, but it is the company's data, not a planner's override.
  await sql`create or replace function audit_log_last_override() returns trigger language plpgsql as $$
    begin
      insert into demand_record_last_override as o (pid, week_start, overridden_by, overridden_at, source)
      select distinct on (n.pid, n.week_start) n.pid, n.week_start, n.changed_by, n.changed_at, n.source
      from new_rows n
      where n.source <> all (array['forecast', 'publish', 'delete', 'data-load'])
        and exists (select 1 from demand_records r where r.pid = n.pid and r.week_start = n.week_start)
      order by n.pid, n.week_start, n.changed_at desc, n.id desc
      on conflict (pid, week_start) do update
        set overridden_by = excluded.overridden_by, overridden_at = excluded.overridden_at,
            source = excluded.source
        where o.overridden_at <= excluded.overridden_at;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function audit_log_last_override() returns trigger language plpgsql as $$
    begin
      insert into demand_record_last_override as o (pid, week_start, overridden_by, overridden_at, source)
      select distinct on (n.pid, n.week_start) n.pid, n.week_start, n.changed_by, n.changed_at, n.source
      from new_rows n
      where n.source <> all (array['forecast', 'publish', 'delete'])
        and exists (select 1 from demand_records r where r.pid = n.pid and r.week_start = n.week_start)
      order by n.pid, n.week_start, n.changed_at desc, n.id desc
      on conflict (pid, week_start) do update
        set overridden_by = excluded.overridden_by, overridden_at = excluded.overridden_at,
            source = excluded.source
        where o.overridden_at <= excluded.overridden_at;
      return null;
    end $$`.execute(db);
  await sql`alter table sales_history drop column revenue, drop column cost`.execute(db);
  await sql`drop table product_prices`.execute(db);
  await sql`drop table data_loads`.execute(db);
}
