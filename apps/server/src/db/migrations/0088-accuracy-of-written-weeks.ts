import { sql, type Kysely } from 'kysely';

/**
 * `refresh_accuracy_weeks(pids, weeks)`: the accuracy sums of the records written at these
 * product-weeks (parallel arrays), recounted for the lags those weeks reach and no others. A
 * written week pairs its actual with the snapshot taken `lag` weeks before it; only the (lag,
 * product) keys that have such a snapshot can change, and each is recounted from all its pairs
 * (the exception figures rank a key's pairs and take their spread, so a key is never patched by
 * differences). `refresh_accuracy(pids)` recounts every lag of each product: a weekly load that
 * touches one week recounted its products' every snapshot at every lag. The body is migration
 * 0028's keyed refresh with its keys narrowed to these pairs, written out so this one stands alone.
 */
const KEYED = `create or replace function refresh_accuracy_weeks(pids text[], weeks date[]) returns void language plpgsql as $fn$
      declare
        key_lags smallint[];
        key_pids text[];
      begin
        select coalesce(array_agg(k.lag), '{}'), coalesce(array_agg(k.pid), '{}') into key_lags, key_pids
        from (select distinct l.lag::smallint as lag, w.pid
          from unnest(pids, weeks) w(pid, week)
          cross join generate_series(1, 13) l(lag)
          join forecast_snapshots s on s.pid = w.pid and s.snapshot_week = w.week - 7 * l.lag) k;
        if cardinality(key_pids) = 0 then
          return;
        end if;
        pids := array(select distinct unnest(key_pids));
      perform 1 from accuracy_reason_sums t
      where t.client_id in (select p.client_id from unnest(pids) d(pid) join products p on p.pid = d.pid)
      order by t.lag, t.client_id, t.reason_code for update of t;
      insert into accuracy_reason_sums as t (lag, client_id, reason_code, n, actual, naive_abs, stat_abs, prelim_abs, final_abs)
      select s.lag, s.client_id, s.reason_code, -1 * sum(s.n),
        -1 * sum(s.actual::numeric), -1 * sum(s.naive_abs::numeric), -1 * sum(s.stat_abs::numeric), -1 * sum(s.prelim_abs::numeric), -1 * sum(s.final_abs::numeric)
      from (select a.* from (select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid)) k join accuracy_sums a on a.pid = k.pid and a.lag = k.lag) s
      group by s.lag, s.client_id, s.reason_code
      order by s.lag, s.client_id, s.reason_code
      on conflict (lag, client_id, reason_code) do update set n = t.n + excluded.n,
        actual = t.actual + excluded.actual, naive_abs = t.naive_abs + excluded.naive_abs, stat_abs = t.stat_abs + excluded.stat_abs, prelim_abs = t.prelim_abs + excluded.prelim_abs, final_abs = t.final_abs + excluded.final_abs;
      delete from accuracy_sums a using (select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid)) k where a.pid = k.pid and a.lag = k.lag;
      delete from accuracy_product_sums a using (select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid)) k where a.pid = k.pid and a.lag = k.lag;
      delete from exception_sums e using (select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid)) k where e.pid = k.pid and e.lag = k.lag;
      with pairs as materialized (
        select l.lag, s.pid, p.client_id, s.reason_code, r.week_start, r.act_bkg_units::float8 as a,
          s.naive_units::float8 as nv, s.stat_units[l.lag + 1]::float8 as st,
          s.prelim_units[l.lag + 1]::float8 as pr, s.final_units[l.lag + 1]::float8 as fi
        from (select distinct x.lag, x.pid from unnest(key_lags, key_pids) x(lag, pid)) l
        join forecast_snapshots s on s.pid = l.pid
        join products p on p.pid = l.pid
        join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 7 * l.lag
        where r.act_bkg_units is not null and s.stat_units[l.lag + 1] is not null
          and s.final_units[l.lag + 1] is not null
      ), chain as (insert into accuracy_sums (lag, pid, client_id, reason_code, n, actual,
          naive_abs, stat_abs, prelim_abs, final_abs, final_err, final_ape, ape_n, from_week, to_week)
        select lag, pid, client_id, coalesce(reason_code, ''), count(*), sum(abs(a)), sum(abs(nv - a)),
          sum(abs(st - a)), sum(abs(pr - a)), sum(abs(fi - a)), sum(fi - a),
          coalesce(sum(abs(fi - a) / abs(a)) filter (where a <> 0), 0), count(*) filter (where a <> 0),
          min(week_start), max(week_start)
        from pairs
        where nv is not null and pr is not null
        group by lag, pid, client_id, coalesce(reason_code, '')
        returning *
      ), product as (
        insert into accuracy_product_sums (lag, pid, n, actual, naive_abs, stat_abs, prelim_abs, final_abs,
          final_err, final_ape, ape_n, from_week, to_week)
        select lag, pid, sum(n), sum(actual), sum(naive_abs), sum(stat_abs), sum(prelim_abs), sum(final_abs),
          sum(final_err), sum(final_ape), sum(ape_n), min(from_week), max(to_week)
        from chain group by lag, pid
      ), reasons as (
        insert into accuracy_reason_sums as t (lag, client_id, reason_code, n, actual, naive_abs, stat_abs, prelim_abs, final_abs)
      select s.lag, s.client_id, s.reason_code, 1 * sum(s.n),
        1 * sum(s.actual::numeric), 1 * sum(s.naive_abs::numeric), 1 * sum(s.stat_abs::numeric), 1 * sum(s.prelim_abs::numeric), 1 * sum(s.final_abs::numeric)
      from chain s
      group by s.lag, s.client_id, s.reason_code
      order by s.lag, s.client_id, s.reason_code
      on conflict (lag, client_id, reason_code) do update set n = t.n + excluded.n,
        actual = t.actual + excluded.actual, naive_abs = t.naive_abs + excluded.naive_abs, stat_abs = t.stat_abs + excluded.stat_abs, prelim_abs = t.prelim_abs + excluded.prelim_abs, final_abs = t.final_abs + excluded.final_abs
      )
      insert into exception_sums (lag, pid, n, actual, stat_abs, final_abs, recent_n, recent_err,
        recent_actual, recent_over, recent_under, weeks_outside)
      select lag, pid, count(*), sum(abs(a)), sum(abs(st - a)), sum(abs(fi - a)),
        count(*) filter (where recency <= 4),
        coalesce(sum(fi - a) filter (where recency <= 4), 0),
        coalesce(sum(abs(a)) filter (where recency <= 4), 0),
        count(*) filter (where recency <= 4 and fi > a),
        count(*) filter (where recency <= 4 and fi < a),
        count(*) filter (where recency <= 4 and rmse > 0 and abs(a - st) > 1.96 * rmse)
      from (
        select pairs.*, sqrt(avg((st - a) ^ 2) over (partition by lag, pid)) as rmse,
          row_number() over (partition by lag, pid order by week_start desc) as recency
        from pairs
      ) scored
      group by lag, pid;
      end $fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(KEYED).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function refresh_accuracy_weeks(text[], date[])`.execute(db);
}
