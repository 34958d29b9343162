import { sql, type Kysely } from 'kysely';

/** Lags the accuracy screen offers (MIN_LAG…MAX_LAG in the domain package), frozen here. */
const MAX_LAG = 13;
/** Recent compared weeks the exception queue's bias and interval signals look at (frozen copy). */
const RECENT_WEEKS = 4;

/**
 * Accuracy per lag and product. `accuracy_sums` keeps one row per product, lag
 * and snapshot reason code (≈ 4.5 per product at a lag): the accuracy screen's BU, family and
 * product roll-up summed and sorted ~90,000 of them per lag on 20,000 products. Now the same
 * sums over all reason codes are kept per lag and product as well, written by the same
 * `refresh_accuracy` call from the rows it has just inserted (so the two tables never disagree,
 * and stay exact inside the writing transaction as before). The screen's roll-ups read one row
 * per product. The by-reason figures (forecast value add by reason code) come from
 * `accuracy_reason_sums`, per lag, client and reason code: refresh_accuracy takes a product's
 * old per-reason rows out of them and adds its new ones, in NUMERIC, so they equal a fresh sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table accuracy_product_sums (
    lag smallint not null,
    pid text not null references products (pid) on delete cascade,
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
    primary key (lag, pid)
  )`.execute(db);
  await sql`create index accuracy_product_sums_pid on accuracy_product_sums (pid)`.execute(db);
  // The client each per-reason row was summed for, so its share can be taken back out of the
  // client's reason totals exactly as it was added.
  await sql`alter table accuracy_sums add column client_id text`.execute(db);
  await sql`update accuracy_sums a set client_id = p.client_id from products p where p.pid = a.pid`.execute(
    db,
  );
  await sql`alter table accuracy_sums alter column client_id set not null`.execute(db);
  // NUMERIC, so that adding a product's sums and later taking the same values away leaves the
  // totals exactly as a fresh sum would.
  await sql`create table accuracy_reason_sums (
    lag smallint not null,
    client_id text not null,
    reason_code text not null,
    n integer not null,
    actual numeric not null,
    naive_abs numeric not null,
    stat_abs numeric not null,
    prelim_abs numeric not null,
    final_abs numeric not null,
    primary key (lag, client_id, reason_code)
  )`.execute(db);
  await sql.raw(refreshFunction(true)).execute(db);
  // Sums kept already (a database with snapshots) are added up once, as the function now does.
  await sql`insert into accuracy_product_sums (lag, pid, n, actual, naive_abs, stat_abs, prelim_abs, final_abs,
      final_err, final_ape, ape_n, from_week, to_week)
    select lag, pid, sum(n), sum(actual), sum(naive_abs), sum(stat_abs), sum(prelim_abs), sum(final_abs),
      sum(final_err), sum(final_ape), sum(ape_n), min(from_week), max(to_week)
    from accuracy_sums group by lag, pid`.execute(db);
  await sql.raw(addToReasons('accuracy_sums', 1)).execute(db);
  await sql.raw(truncateFunction(['accuracy_product_sums', 'accuracy_reason_sums'])).execute(db);
}

/** Emptying the records empties every sum made from them (migration 0018's function, widened). */
const truncateFunction = (more: readonly string[]): string =>
  `create or replace function accuracy_on_truncate() returns trigger language plpgsql as $fn$
    begin truncate ${['accuracy_sums', 'exception_sums', ...more].join(', ')}; return null; end $fn$`;

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(refreshFunction(false)).execute(db);
  await sql.raw(truncateFunction([])).execute(db);
  await sql`drop table accuracy_reason_sums`.execute(db);
  await sql`alter table accuracy_sums drop column client_id`.execute(db);
  await sql`drop table accuracy_product_sums`.execute(db);
}

/**
 * Adds (`sign` 1) or takes away (-1) the per-reason rows of `source` (columns of accuracy_sums)
 * to or from each client's totals per lag and reason code, locking the totals in key order so
 * that two writers cannot deadlock.
 */
function addToReasons(source: string, sign: 1 | -1): string {
  const summed = ['actual', 'naive_abs', 'stat_abs', 'prelim_abs', 'final_abs'];
  return `insert into accuracy_reason_sums as t (lag, client_id, reason_code, n, ${summed.join(', ')})
      select s.lag, s.client_id, s.reason_code, ${sign} * sum(s.n),
        ${summed.map((c) => `${sign} * sum(s.${c}::numeric)`).join(', ')}
      from ${source} s
      group by s.lag, s.client_id, s.reason_code
      order by s.lag, s.client_id, s.reason_code
      on conflict (lag, client_id, reason_code) do update set n = t.n + excluded.n,
        ${summed.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')}`;
}

/**
 * Migration 0018's `refresh_accuracy`, with (`byProduct`) or without the per-product sums. The
 * per-reason rows come back from their insert (RETURNING) and are summed per product in the same
 * statement.
 */
function refreshFunction(byProduct: boolean): string {
  const chainInsert = `insert into accuracy_sums (lag, pid, ${byProduct ? 'client_id, ' : ''}reason_code, n, actual,
          naive_abs, stat_abs, prelim_abs, final_abs, final_err, final_ape, ape_n, from_week, to_week)
        select lag, pid, ${byProduct ? 'client_id, ' : ''}coalesce(reason_code, ''), count(*), sum(abs(a)), sum(abs(nv - a)),
          sum(abs(st - a)), sum(abs(pr - a)), sum(abs(fi - a)), sum(fi - a),
          coalesce(sum(abs(fi - a) / abs(a)) filter (where a <> 0), 0), count(*) filter (where a <> 0),
          min(week_start), max(week_start)
        from pairs
        where nv is not null and pr is not null
        group by lag, pid, ${byProduct ? 'client_id, ' : ''}coalesce(reason_code, '')`;
  const products = byProduct
    ? `, chain as (${chainInsert}
        returning *
      ), product as (
        insert into accuracy_product_sums (lag, pid, n, actual, naive_abs, stat_abs, prelim_abs, final_abs,
          final_err, final_ape, ape_n, from_week, to_week)
        select lag, pid, sum(n), sum(actual), sum(naive_abs), sum(stat_abs), sum(prelim_abs), sum(final_abs),
          sum(final_err), sum(final_ape), sum(ape_n), min(from_week), max(to_week)
        from chain group by lag, pid
      ), reasons as (
        ${addToReasons('chain', 1)}
      )`
    : `, chain as (${chainInsert})`;
  // The reason totals a refresh takes out and the ones it adds back can differ (a product gains
  // pairs at a lag it had none at), so two writers locking them statement by statement could
  // each hold what the other wants next. Every totals row of the products' clients is locked
  // first, in key order: refreshes of one client's products queue instead.
  const lockReasons = `select 1 from accuracy_reason_sums t
      where t.client_id in (select p.client_id from unnest(pids) d(pid) join products p on p.pid = d.pid)
      order by t.lag, t.client_id, t.reason_code for update of t;`;
  return `create or replace function refresh_accuracy(pids text[]) returns void language sql as $fn$
      ${byProduct ? lockReasons : ''}
      ${byProduct ? `${addToReasons('(select a.* from unnest(pids) d(pid) join accuracy_sums a on a.pid = d.pid)', -1)};` : ''}
      delete from accuracy_sums a using unnest(pids) d(pid) where a.pid = d.pid;
      ${byProduct ? 'delete from accuracy_product_sums a using unnest(pids) d(pid) where a.pid = d.pid;' : ''}
      delete from exception_sums e using unnest(pids) d(pid) where e.pid = d.pid;
      with pairs as materialized (
        select l.lag, s.pid, ${byProduct ? 'p.client_id, ' : ''}s.reason_code, r.week_start, r.act_bkg_units::float8 as a,
          s.naive_units::float8 as nv, s.stat_units[l.lag + 1]::float8 as st,
          s.prelim_units[l.lag + 1]::float8 as pr, s.final_units[l.lag + 1]::float8 as fi
        from unnest(pids) d(pid)
        join forecast_snapshots s on s.pid = d.pid${byProduct ? '\n        join products p on p.pid = d.pid' : ''}
        cross join generate_series(1, ${MAX_LAG}) l(lag)
        join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 7 * l.lag
        where r.act_bkg_units is not null and s.stat_units[l.lag + 1] is not null
          and s.final_units[l.lag + 1] is not null
      )${products}
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
      $fn$`;
}
