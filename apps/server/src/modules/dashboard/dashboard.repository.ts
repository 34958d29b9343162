import { periodRangeOf, type ClientId, type SummaryStats } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Formulas: docs/metrics.md. Every query is scoped to the caller's clients. */
type Scope = { clientIds: readonly ClientId[] };
const inScope = (scope: Scope, column: string) =>
  sql`${sql.raw(column)} = any(${[...scope.clientIds]}::text[])`;

/**
 * The Financial Dashboard's figures in one statement (under load every round trip waits its turn
 * for a pool connection):
 * - revenues: actual-or-planned revenue per quarter, from demand_week_totals. Weeks that started
 *   before the current week count their actual revenue, the current and later weeks their final
 *   plan revenue. Weeks before the first demand record in scope, which the records do not reach
 *   (a year-ago quarter, for Year over Year), count their sales_history revenue: the money loaded
 *   with it, else its units at the price in effect that week (product_prices), else at the
 *   product's unit price, as a history load derives it.
 * - current, last: revenue of `quarter` in each client's latest plan version (current) and the one
 *   before it (last), summed over the clients in scope: the versions' totals by quarter (migration
 *   0009).
 *
 * What it costs (PostgreSQL CPU per call, the default data set): one pass over the week totals
 * gives both the first week and every quarter's sums (each week's quarter told by comparing dates
 * with the quarter's bounds, not by formatting every week); the history is read per quarter
 * within exactly the weeks that count (an index range of `sales_history_week`, none at all for a
 * quarter the records cover), each week's units priced by one hash join on the prices of the
 * products in scope, each price over the weeks until the next, and summed in NUMERIC, so the sum
 * is exact (units are whole numbers) instead of a float sum of 9,100 products.
 */
export async function dashboardFigures(
  db: Kysely<Database>,
  scope: Scope,
  q: { currentWeek: string; quarters: string[]; quarter: string },
): Promise<{ revenues: Map<string, number>; current: number; last: number }> {
  const ranges = q.quarters.map((quarter) => ({ quarter, ...periodRangeOf('quarterly', quarter) }));
  const inRange = (r: { from: string; to: string }) =>
    sql`t.week_start >= ${r.from}::date and t.week_start < ${r.to}::date`;
  const { rows } = await sql<{ revenues: Record<string, number>; current: number; last: number }>`
    with weeks as (
      select min(t.week_start) as first_week,
        array[${sql.join(
          ranges.map(
            (r) => sql`sum(case when t.week_start < ${q.currentWeek}::date
              then t.act_rev_dlrs else t.final_pln_rev_dlrs end) filter (where ${inRange(r)})`,
          ),
        )}]::numeric[] as sums
      from demand_week_totals t
      where ${inScope(scope, 't.client_id')}),
    ranges(n, quarter, from_week, to_week) as (
      values ${sql.join(ranges.map((r, i) => sql`(${i + 1}::int, ${r.quarter}::text, ${r.from}::date, ${r.to}::date)`))}),
    prices as (
      select pp.pid, pp.effective_from, pp.unit_price,
        lead(pp.effective_from) over (partition by pp.pid order by pp.effective_from) as until
      from product_prices pp
      where pp.pid in (select p.pid from products p where ${inScope(scope, 'p.client_id')})),
    revenues as (
      select r.quarter, round(coalesce(w.sums[r.n], 0) + coalesce(h.revenue, 0), 2)::float8 as revenue
      from ranges r cross join weeks w cross join lateral (
        select sum(coalesce(s.revenue, s.units::numeric * coalesce(pp.unit_price, p.unit_price))) as revenue
        from sales_history s
        join products p on p.pid = s.pid
        left join prices pp on pp.pid = s.pid and s.week_start >= pp.effective_from
          and (pp.until is null or s.week_start < pp.until)
        where s.week_start >= r.from_week
          and s.week_start < least(r.to_week, ${q.currentWeek}::date, coalesce(w.first_week, 'infinity'::date))
          and ${inScope(scope, 'p.client_id')}) h
      where w.sums[r.n] is not null or h.revenue is not null),
    ranked as (
      select v.quarters, row_number() over (partition by v.client_id order by v.published_at desc, v.id desc) as n
      from plan_versions v
      where ${inScope(scope, 'v.client_id')})
    select (select coalesce(json_object_agg(quarter, revenue), '{}'::json) from revenues) as revenues,
      coalesce(sum(q.revenue) filter (where r.n = 1), 0) as current,
      coalesce(sum(q.revenue) filter (where r.n = 2), 0) as last
    from ranked r cross join jsonb_to_recordset(r.quarters) as q(quarter text, revenue numeric)
    where r.n <= 2 and q.quarter = ${q.quarter}`.execute(db);
  const { revenues, current, last } = rows[0]!;
  return { revenues: new Map(Object.entries(revenues).map(([k, v]) => [k, Number(v)])), current, last };
}

export async function summaryFigures(
  db: Kysely<Database>,
  scope: Scope,
  q: { startOfToday: Date },
): Promise<SummaryStats> {
  // Each client's last publish is read once, not once per overridden record, and the four
  // figures over the overridden records are counted in one pass, from the figures their table
  // keeps (migration 0043) instead of a lookup of each record. The products with records come
  // from the per-slice counts (migration 0036), a few dozen rows, not from every product: an
  // import of 99,300 catalogue SKUs made that join read them all on every call.
  const { rows } = await sql<{
    totalSkus: number;
    modifiedToday: number;
    pendingReview: number;
    netImpact: number;
    positiveOverrides: number;
    negativeOverrides: number;
  }>`
    with publishes as (
      select v.client_id, max(v.published_at) as last_publish
      from plan_versions v
      where ${inScope(scope, 'v.client_id')}
      group by v.client_id),
    overridden as (
      select r.final_pln_rev_dlrs as final_revenue,
        round((r.ensemble_fcst_units * p.unit_price)::numeric, 2) as baseline_revenue,
        r.reason_code, r.last_updated_at, v.last_publish
      from demand_overridden_records r
        join products p on p.pid = r.pid
        left join publishes v on v.client_id = p.client_id
      where ${inScope(scope, 'p.client_id')}),
    figures as (
      select
        count(*) filter (where o.reason_code is null or o.last_publish is null
          or o.last_updated_at > o.last_publish)::int as "pendingReview",
        coalesce(sum(o.final_revenue - o.baseline_revenue), 0) as "netImpact",
        count(*) filter (where o.final_revenue > o.baseline_revenue)::int as "positiveOverrides",
        count(*) filter (where o.final_revenue < o.baseline_revenue)::int as "negativeOverrides"
      from overridden o)
    select
      (select coalesce(sum(s.products), 0) from demand_slice_product_counts s
        where ${inScope(scope, 's.client_id')})::int as "totalSkus",
      (select count(*) from (select distinct a.pid, a.week_start from audit_log a
        where ${inScope(scope, 'a.client_id')} and a.changed_at >= ${q.startOfToday}) m)::int as "modifiedToday",
      f."pendingReview", f."netImpact", f."positiveOverrides", f."negativeOverrides"
    from figures f`.execute(db);
  return rows[0]!;
}
