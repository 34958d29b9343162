import { sql, type Kysely } from 'kysely';

/** Lags the accuracy screen offers (MIN_LAG…MAX_LAG in the domain package), frozen here. */
const MAX_LAG = 13;
/** Recent compared weeks the exception queue's bias and interval signals look at (frozen copy). */
const RECENT_WEEKS = 4;

/**
 * Control tower speed and new-exception notifications:
 * - accuracy_sums: per product, lag and reason code, the sums the accuracy screen and forecast
 *   value add are made of (pairs where the naive, statistical, prelim and final forecasts and the
 *   actual all exist); exception_sums: per product and lag, what the exception queue needs
 *   (pairs where the statistical and final forecasts and the actual exist, and the signals of the
 *   latest compared weeks). Both are derived from forecast_snapshots × demand_records and kept
 *   exact inside the writing transaction: a product whose actuals change is recomputed by the
 *   records' triggers below (row triggers note the product, one statement trigger per statement
 *   recomputes them), and a snapshot write recomputes the products it can change (control-tower
 *   repository). The screen then reads ~20,000 rows per lag instead of joining 300,000 snapshots
 *   with 3 M records.
 * - snapshot_weeks: the weeks each client has snapshots of (the accuracy header's count).
 * - exception_queue_seen: the products each client's last check found in the exception queue,
 *   so a forecast run or publish can tell which exceptions are new (docs/metrics.md).
 * - demand_records keeps half of each page free (fillfactor 50), so a publish's Final → P1 → P2
 *   shift (and a forecast run's rewrite) writes each new row version on its own page without
 *   touching the indexes: HOT updates, about five times faster (docs/adr/0006).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table demand_records set (fillfactor = 50)`.execute(db);
  // Rows already stored keep full pages until rewritten: rewrite them once, in key order.
  await sql`cluster demand_records using demand_records_pk`.execute(db);

  await sql`create table accuracy_sums (
    lag smallint not null,
    pid text not null references products (pid) on delete cascade,
    reason_code text not null,
    n integer not null,
    actual float8 not null,
    naive_abs float8 not null,
    stat_abs float8 not null,
    prelim_abs float8 not null,
    final_abs float8 not null,
    final_err float8 not null,
    final_ape float8 not null,
    ape_n integer not null,
    from_week date not null,
    to_week date not null,
    primary key (lag, pid, reason_code)
  )`.execute(db);
  await sql`create index accuracy_sums_pid on accuracy_sums (pid)`.execute(db);
  await sql`create table exception_sums (
    lag smallint not null,
    pid text not null references products (pid) on delete cascade,
    n integer not null,
    actual float8 not null,
    stat_abs float8 not null,
    final_abs float8 not null,
    recent_n integer not null,
    recent_err float8 not null,
    recent_actual float8 not null,
    recent_over integer not null,
    recent_under integer not null,
    weeks_outside integer not null,
    primary key (lag, pid)
  )`.execute(db);
  await sql`create index exception_sums_pid on exception_sums (pid)`.execute(db);
  await sql`create table snapshot_weeks (
    client_id text not null,
    snapshot_week date not null,
    primary key (client_id, snapshot_week)
  )`.execute(db);
  await sql`create table exception_queue_seen (
    client_id text not null,
    pid text not null,
    primary key (client_id, pid)
  )`.execute(db);
  // Products whose actuals changed in the running statement, by transaction (so concurrent
  // writers never meet); emptied by the statement trigger that recomputes them.
  await sql`create table accuracy_dirty (tx bigint not null, pid text not null)`.execute(db);
  await sql`create index accuracy_dirty_tx on accuracy_dirty (tx)`.execute(db);

  // The products join as a set (unnest): `= any(array)` against a parameter compares each row
  // with every element, quadratic for a full refresh. One pass over the pairs feeds both tables.
  // The pairs of the products in `pids`: every snapshot's forecast of lag 1…13 against the
  // actual of the week it forecast. A pair counts once the week has an actual (actuals are
  // booked for past weeks only).
  await sql
    .raw(
      `create function refresh_accuracy(pids text[]) returns void language sql as $fn$
      delete from accuracy_sums a using unnest(pids) d(pid) where a.pid = d.pid;
      delete from exception_sums e using unnest(pids) d(pid) where e.pid = d.pid;
      with pairs as materialized (
        select l.lag, s.pid, s.reason_code, r.week_start, r.act_bkg_units::float8 as a,
          s.naive_units::float8 as nv, s.stat_units[l.lag + 1]::float8 as st,
          s.prelim_units[l.lag + 1]::float8 as pr, s.final_units[l.lag + 1]::float8 as fi
        from unnest(pids) d(pid)
        join forecast_snapshots s on s.pid = d.pid
        cross join generate_series(1, ${MAX_LAG}) l(lag)
        join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 7 * l.lag
        where r.act_bkg_units is not null and s.stat_units[l.lag + 1] is not null
          and s.final_units[l.lag + 1] is not null
      ), chain as (
        insert into accuracy_sums (lag, pid, reason_code, n, actual, naive_abs, stat_abs, prelim_abs,
          final_abs, final_err, final_ape, ape_n, from_week, to_week)
        select lag, pid, coalesce(reason_code, ''), count(*), sum(abs(a)), sum(abs(nv - a)),
          sum(abs(st - a)), sum(abs(pr - a)), sum(abs(fi - a)), sum(fi - a),
          coalesce(sum(abs(fi - a) / abs(a)) filter (where a <> 0), 0), count(*) filter (where a <> 0),
          min(week_start), max(week_start)
        from pairs
        where nv is not null and pr is not null
        group by lag, pid, coalesce(reason_code, '')
      )
      insert into exception_sums (lag, pid, n, actual, stat_abs, final_abs, recent_n, recent_err,
        recent_actual, recent_over, recent_under, weeks_outside)
      select lag, pid, count(*), sum(abs(a)), sum(abs(st - a)), sum(abs(fi - a)),
        count(*) filter (where recency <= ${RECENT_WEEKS}),
        coalesce(sum(fi - a) filter (where recency <= ${RECENT_WEEKS}), 0),
        coalesce(sum(abs(a)) filter (where recency <= ${RECENT_WEEKS}), 0),
        count(*) filter (where recency <= ${RECENT_WEEKS} and fi > a),
        count(*) filter (where recency <= ${RECENT_WEEKS} and fi < a),
        count(*) filter (where recency <= ${RECENT_WEEKS} and rmse > 0 and abs(a - st) > 1.96 * rmse)
      from (
        select pairs.*, sqrt(avg((st - a) ^ 2) over (partition by lag, pid)) as rmse,
          row_number() over (partition by lag, pid order by week_start desc) as recency
        from pairs
      ) scored
      group by lag, pid;
      $fn$`,
    )
    .execute(db);

  await sql
    .raw(
      `create function accuracy_note_record() returns trigger language plpgsql as $fn$
      begin
        insert into accuracy_dirty (tx, pid)
        values (txid_current(), case when tg_op = 'DELETE' then old.pid else new.pid end);
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function accuracy_refresh_noted() returns trigger language plpgsql as $fn$
      declare
        noted text[];
      begin
        with taken as (delete from accuracy_dirty where tx = txid_current() returning pid)
        select array_agg(distinct pid) into noted from taken;
        if noted is not null then
          perform refresh_accuracy(noted);
        end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  // Row triggers fire only where an actual changed (the WHEN clause costs no function call), so a
  // forecast run or publish rewriting 3 M rows notes nothing.
  for (const [event, when] of [
    ['insert', 'new.act_bkg_units is not null'],
    ['update', 'old.act_bkg_units is distinct from new.act_bkg_units'],
    ['delete', 'old.act_bkg_units is not null'],
  ] as const) {
    await sql
      .raw(
        `create trigger accuracy_note_${event} after ${event} on demand_records
         for each row when (${when}) execute function accuracy_note_record()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger accuracy_refresh_${event} after ${event} on demand_records
         for each statement execute function accuracy_refresh_noted()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function accuracy_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate accuracy_sums, exception_sums; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger accuracy_truncate after truncate on demand_records
    for each statement execute function accuracy_on_truncate()`.execute(db);

  // Databases with snapshots already (the demo data) get their sums once here.
  await sql`insert into snapshot_weeks (client_id, snapshot_week)
    select distinct p.client_id, s.snapshot_week from forecast_snapshots s join products p on p.pid = s.pid`.execute(
    db,
  );
  await sql`select refresh_accuracy(array(select distinct pid from forecast_snapshots))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table demand_records reset (fillfactor)`.execute(db);
  await sql`drop trigger accuracy_truncate on demand_records`.execute(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger accuracy_note_${event} on demand_records`).execute(db);
    await sql.raw(`drop trigger accuracy_refresh_${event} on demand_records`).execute(db);
  }
  await sql`drop function accuracy_on_truncate()`.execute(db);
  await sql`drop function accuracy_refresh_noted()`.execute(db);
  await sql`drop function accuracy_note_record()`.execute(db);
  await sql`drop function refresh_accuracy(text[])`.execute(db);
  await sql`drop table accuracy_dirty`.execute(db);
  await sql`drop table exception_queue_seen`.execute(db);
  await sql`drop table snapshot_weeks`.execute(db);
  await sql`drop table exception_sums`.execute(db);
  await sql`drop table accuracy_sums`.execute(db);
}
