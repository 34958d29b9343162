import { MAX_LAG, type ClientId, type ForecastMemberWeight } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { ensembleValue } from '../../db/ensemble-values';
import type { Database } from '../../db/schema';

type Db = Kysely<Database>;
const clientsIn = (clientIds: readonly ClientId[], column: string) =>
  sql`${sql.raw(column)} = any(${[...clientIds]}::text[])`;
const QUARTER = (column: string) => sql.raw(`to_char(${column}, 'YYYY-"Q"Q')`);
const WEEK_SPAN = (column: string) =>
  sql.raw(
    `to_char(min(${column}), 'YYYY-MM-DD') as first_week, to_char(max(${column}), 'YYYY-MM-DD') as last_week`,
  );

/** How many weeks a snapshot keeps: the planning horizon of the demo data and the forecaster. */
export const SNAPSHOT_WEEKS = 26;

/**
 * Snapshots the plan of every product of the clients for the weeks from `snapshotWeek` on: its
 * statistical, prelim and final units (element i = lag i, null where the product has no record),
 * the last actual before the snapshot (the naive forecast) and its most frequent override reason.
 * A snapshot taken again in the same week replaces the earlier one.
 */
export async function writeSnapshots(
  db: Db,
  clientIds: readonly ClientId[],
  snapshotWeek: string,
  source: 'forecast' | 'publish',
): Promise<number> {
  // Each product reads its own 26 weeks by one range of the records' key: one short index scan per
  // product, where joining every record (or every record of the 26 weeks) to the products sorted
  // and hashed them on disk.
  const result = await sql`
    insert into forecast_snapshots as s
      (pid, snapshot_week, source, taken_at, reason_code, naive_units, stat_units, prelim_units, final_units)
    select p.pid, ${snapshotWeek}::date, ${source}, now(), x.reason_code,
      (select n.act_bkg_units from demand_records n
        where n.pid = p.pid and n.week_start = ${snapshotWeek}::date - 7),
      x.stat_units, x.prelim_units, x.final_units
    from products p
    cross join lateral (
      select mode() within group (order by r.reason_code) filter (where r.reason_code is not null) as reason_code,
        array_agg(r.ensemble_fcst_units::real order by g.i) as stat_units,
        array_agg(r.prelim_pln_units::real order by g.i) as prelim_units,
        array_agg(r.final_pln_units::real order by g.i) as final_units,
        count(r.pid) as n
      from generate_series(0, ${SNAPSHOT_WEEKS - 1}) g(i)
      left join (
        select w.pid, w.week_start, w.reason_code, w.ensemble_fcst_units, w.prelim_pln_units, w.final_pln_units
        from demand_records w
        where w.pid = p.pid and w.week_start >= ${snapshotWeek}::date
          and w.week_start < ${snapshotWeek}::date + ${SNAPSHOT_WEEKS * 7}::int
      ) r on r.week_start = ${snapshotWeek}::date + 7 * g.i
    ) x
    where ${clientsIn(clientIds, 'p.client_id')} and x.n > 0
    on conflict (pid, snapshot_week) do update set source = excluded.source, taken_at = excluded.taken_at,
      reason_code = excluded.reason_code, naive_units = excluded.naive_units,
      stat_units = excluded.stat_units, prelim_units = excluded.prelim_units, final_units = excluded.final_units`.execute(
    db,
  );
  await sql`
    insert into snapshot_weeks (client_id, snapshot_week)
    select distinct p.client_id, ${snapshotWeek}::date from products p
    where ${clientsIn(clientIds, 'p.client_id')}
      and exists (select 1 from forecast_snapshots s where s.pid = p.pid and s.snapshot_week = ${snapshotWeek}::date)
    on conflict do nothing`.execute(db);
  await refreshChangedAccuracy(db, clientIds, snapshotWeek);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * A snapshot changes the accuracy sums (migration 0018) only where a week it forecasts already
 * has an actual; snapshots are taken in the current week, so normally none does and the check
 * costs one look at the week totals. Otherwise the products with such actuals are recomputed.
 */
async function refreshChangedAccuracy(
  db: Db,
  clientIds: readonly ClientId[],
  snapshotWeek: string,
): Promise<void> {
  await sql`
    select refresh_accuracy(array(
      select p.pid from products p
      where ${clientsIn(clientIds, 'p.client_id')}
        and exists (select 1 from demand_records r where r.pid = p.pid and r.week_start > ${snapshotWeek}::date
          and r.week_start <= ${snapshotWeek}::date + ${MAX_LAG * 7}::int and r.act_bkg_units is not null)))
    where exists (select 1 from demand_week_totals t where ${clientsIn(clientIds, 't.client_id')}
      and t.week_start > ${snapshotWeek}::date and t.act_bkg_units_n > 0)`.execute(db);
}

/** Carries each client's latest marketing plan into a new cycle (marketing re-plans on its own cadence). */
export async function carryMarketingPlans(
  db: Db,
  clientIds: readonly ClientId[],
  cycle: string,
): Promise<void> {
  // Each client's latest cycle is found once: a correlated max per row read the whole table for
  // every row, a cost that grows with every publish.
  await sql`
    insert into marketing_plans (cycle, client_id, bu, pf, region, quarter, revenue, cost)
    select ${cycle}, m.client_id, m.bu, m.pf, m.region, m.quarter, m.revenue, m.cost
    from (select l.client_id, max(l.cycle) as cycle from marketing_plans l
      where ${clientsIn(clientIds, 'l.client_id')} and l.cycle < ${cycle}
      group by l.client_id) latest
    join marketing_plans m on m.client_id = latest.client_id and m.cycle = latest.cycle
    on conflict do nothing`.execute(db);
}

export async function filterOptions(
  db: Db,
  clientIds: readonly ClientId[],
): Promise<Array<{ client_id: ClientId; bu: string; pf: string }>> {
  const { rows } = await sql<{ client_id: ClientId; bu: string; pf: string }>`
    select distinct p.client_id, p.bu, p.pf from products p
    where ${clientsIn(clientIds, 'p.client_id')}
    order by 1, 2, 3`.execute(db);
  return rows;
}

export type PlanQuarterRow = {
  bu: string;
  region: string;
  pf: string;
  quarter: string;
  /** The first and last week (yyyy-mm-dd) of the group's data in the quarter. */
  first_week: string;
  last_week: string;
  act_n: number;
  act_rev: number;
  act_cost: number;
  prelim_n: number;
  prelim_rev: number;
  prelim_cost: number;
  final_n: number;
  final_units: number;
  final_rev: number;
  final_cost: number;
  p1_n: number;
  p1_units: number;
  p1_rev: number;
  p1_cost: number;
  ens_n: number;
  ens_rev: number;
  ens_cost: number;
};

const PLAN_SUMS = (t: string, counted: boolean) =>
  sql.raw(
    [
      ['act_n', 'act_rev_dlrs'],
      ['act_rev', 'act_rev_dlrs'],
      ['act_cost', 'act_bkg_cost'],
      ['prelim_n', 'prelim_pln_rev_dlrs'],
      ['prelim_rev', 'prelim_pln_rev_dlrs'],
      ['prelim_cost', 'prelim_pln_cost'],
      ['final_n', 'final_pln_rev_dlrs'],
      ['final_units', 'final_pln_units'],
      ['final_rev', 'final_pln_rev_dlrs'],
      ['final_cost', 'final_bk_pln_cost'],
      ['p1_n', 'p1_pub_pln_rev_dlrs'],
      ['p1_units', 'p1_pub_pln_units'],
      ['p1_rev', 'p1_pub_pln_rev_dlrs'],
      ['p1_cost', 'p1_pub_pln_cost'],
    ]
      .map(([alias, column]) =>
        alias!.endsWith('_n')
          ? counted
            ? `coalesce(sum(${t}.${column}_n), 0)::int as ${alias}`
            : `count(${t}.${column})::int as ${alias}`
          : `coalesce(sum(${t}.${column}), 0)::float8 as ${alias}`,
      )
      .concat(ENSEMBLE_SUMS(t, counted))
      .join(',\n      '),
  );

/**
 * Pub Ensemble Forecast (docs/metrics.md "Data behind the screens"): each record's statistical
 * units at its product's list price and unit cost, to the cent (list_value, migration 0031). A
 * slice's sums are kept in the week totals; one product's are summed from its records with the
 * same function, so a family's figure is exactly the sum of its products'. A quarter without any
 * statistical forecast has no value.
 */
const ENSEMBLE_SUMS = (t: string, counted: boolean): string[] =>
  counted
    ? [
        `coalesce(sum(${t}.ensemble_fcst_units_n), 0)::int as ens_n`,
        `coalesce(sum(${t}.ensemble_fcst_rev_dlrs), 0)::float8 as ens_rev`,
        `coalesce(sum(${t}.ensemble_fcst_cost), 0)::float8 as ens_cost`,
      ]
    : [
        `count(${t}.ensemble_fcst_units)::int as ens_n`,
        `coalesce(sum(${ensembleValue(t, 'p', 'unit_price')}), 0)::float8 as ens_rev`,
        `coalesce(sum(${ensembleValue(t, 'p', 'unit_cost')}), 0)::float8 as ens_cost`,
      ];

/**
 * Every plan of a client's business units by BU, region (PUD), family and quarter, from the
 * trigger-kept week totals: a few thousand rows at any data size.
 */
export async function companyPlanQuarters(db: Db, clientId: ClientId): Promise<PlanQuarterRow[]> {
  const { rows } = await sql<PlanQuarterRow>`
    select t.bu, t.region, t.pf, ${QUARTER('t.week_start')} as quarter, ${WEEK_SPAN('t.week_start')},
      ${PLAN_SUMS('t', true)}
    from demand_week_totals t
    where t.client_id = ${clientId}
    group by 1, 2, 3, 4`.execute(db);
  return rows;
}

/** One product's plans by quarter, from its records. */
export async function productPlanQuarters(
  db: Db,
  clientId: ClientId,
  pid: string,
): Promise<PlanQuarterRow[]> {
  const { rows } = await sql<PlanQuarterRow>`
    select p.bu, p.region, p.pf, ${QUARTER('r.week_start')} as quarter, ${WEEK_SPAN('r.week_start')},
      ${PLAN_SUMS('r', false)}
    from demand_records r join products p on p.pid = r.pid
    where p.client_id = ${clientId} and p.pid = ${pid}
    group by 1, 2, 3, 4`.execute(db);
  return rows;
}

/** Marketing plans of a client's two given cycles by BU, region, family and quarter. */
export async function marketingQuarters(
  db: Db,
  clientId: ClientId,
  cycles: readonly string[],
): Promise<
  Array<{
    cycle: string;
    bu: string;
    region: string;
    pf: string;
    quarter: string;
    revenue: number;
    cost: number;
  }>
> {
  if (cycles.length === 0) return [];
  const { rows } = await sql<{
    cycle: string;
    bu: string;
    region: string;
    pf: string;
    quarter: string;
    revenue: number;
    cost: number;
  }>`
    select m.cycle, m.bu, m.region, m.pf, m.quarter, m.revenue::float8 as revenue, m.cost::float8 as cost
    from marketing_plans m
    where m.client_id = ${clientId} and m.cycle = any(${[...cycles]}::text[])`.execute(db);
  return rows;
}

export type CycleRow = {
  client_id: ClientId;
  cycle: string;
  label: string;
  published_at: Date;
  published_by: string;
  final_revenue: number;
};

/** The latest two plan versions of each of the clients, newest first. */
export async function latestCycles(db: Db, clientIds: readonly ClientId[]): Promise<CycleRow[]> {
  const { rows } = await sql<CycleRow>`
    select client_id, cycle, label, published_at, published_by, final_revenue from (
      select v.*, row_number() over (partition by v.client_id order by v.published_at desc, v.id desc) as n
      from plan_versions v where ${clientsIn(clientIds, 'v.client_id')}) ranked
    where n <= 2
    order by published_at desc, cycle desc`.execute(db);
  return rows;
}

export async function searchProducts(
  db: Db,
  clientId: ClientId,
  search: string | undefined,
): Promise<Array<{ pid: string; bu: string; pf: string }>> {
  const pattern = `%${(search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<{ pid: string; bu: string; pf: string }>`
    select p.pid, p.bu, p.pf from products p
    where p.client_id = ${clientId} and p.pid ilike ${pattern}
    order by p.pid limit 50`.execute(db);
  return rows;
}

/** Sums of one forecast step's errors against actuals (see ErrorSums in the domain package). */
export type StepSums = { abs: number; err: number };
export type AccuracyGroupRow = {
  g_bu: number;
  g_pf: number;
  g_pid: number;
  g_reason: number;
  bu: string | null;
  pf: string | null;
  pid: string | null;
  reason_code: string | null;
  n: number;
  actual: number;
  naive_abs: number;
  stat_abs: number;
  prelim_abs: number;
  final_abs: number;
  final_err: number;
  final_ape: number;
  ape_n: number;
  error_value: number;
  from_week: string | null;
  to_week: string | null;
  products: number;
};

/**
 * The snapshots' forecasts at one lag against the actuals of the weeks they forecast: pairs where
 * every step of the chain, the naive forecast and the actual exist, summed from the sums kept per
 * lag and product (migration 0028, one row per product) into the overall, BU and family rows
 * (hashed grouping sets), the `productLimit` products with the largest error value, and per reason
 * code from the per-client reason totals (migration 0028; only the chain's errors, for forecast
 * value add). The money error values each product's error at its current list price. `products`
 * counts the products summed into a row.
 */
export async function accuracySums(
  db: Db,
  clientIds: readonly ClientId[],
  lag: number,
  productLimit: number,
): Promise<AccuracyGroupRow[]> {
  const sums = sql.raw(`sum(n)::int as n, sum(actual) as actual, sum(naive_abs) as naive_abs,
      sum(stat_abs) as stat_abs, sum(prelim_abs) as prelim_abs, sum(final_abs) as final_abs,
      sum(final_err) as final_err, sum(final_ape) as final_ape, sum(ape_n)::int as ape_n,
      sum(error_value) as error_value, to_char(min(from_week), 'YYYY-MM-DD') as from_week,
      to_char(max(to_week), 'YYYY-MM-DD') as to_week, count(*)::int as products`);
  const { rows } = await sql<AccuracyGroupRow>`
    with product as materialized (
      select p.bu, p.pf, a.pid, a.n, a.actual, a.naive_abs, a.stat_abs, a.prelim_abs, a.final_abs,
        a.final_err, a.final_ape, a.ape_n, a.final_abs * p.unit_price::float8 as error_value,
        a.from_week, a.to_week
      from accuracy_product_sums a join products p on p.pid = a.pid
      where a.lag = ${lag} and ${clientsIn(clientIds, 'p.client_id')}
    )
    select grouping(bu)::int as g_bu, grouping(pf)::int as g_pf, 1 as g_pid, 1 as g_reason,
      bu, pf, null::text as pid, null::text as reason_code, ${sums}
    from product
    group by grouping sets ((), (bu), (bu, pf))
    union all (
      select 0, 0, 0, 1, bu, pf, pid, null, n, actual, naive_abs, stat_abs, prelim_abs, final_abs,
        final_err, final_ape, ape_n, error_value, to_char(from_week, 'YYYY-MM-DD'),
        to_char(to_week, 'YYYY-MM-DD'), 1
      from product
      order by error_value desc, pid
      limit ${productLimit})
    union all
    select 1, 1, 1, 0, null, null, null, nullif(r.reason_code, ''), sum(r.n)::int, sum(r.actual)::float8,
      sum(r.naive_abs)::float8, sum(r.stat_abs)::float8, sum(r.prelim_abs)::float8, sum(r.final_abs)::float8,
      0, 0, 0, 0, null, null, 0
    from accuracy_reason_sums r
    where r.lag = ${lag} and ${clientsIn(clientIds, 'r.client_id')} and r.n > 0
    group by r.reason_code`.execute(db);
  return rows;
}

/**
 * How many snapshot weeks of the clients forecast, at this lag, a week from `fromWeek` to
 * `toWeek` (the weeks the accuracy figures compare).
 */
export async function snapshotWeekCount(
  db: Db,
  clientIds: readonly ClientId[],
  lag: number,
  fromWeek: string,
  toWeek: string,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(distinct w.snapshot_week)::int as n from snapshot_weeks w
    where ${clientsIn(clientIds, 'w.client_id')}
      and w.snapshot_week between ${fromWeek}::date - ${lag * 7}::int and ${toWeek}::date - ${lag * 7}::int`.execute(
    db,
  );
  return rows[0]?.n ?? 0;
}

/** Each product's latest forecast: its model description and the members that carry weight. */
export async function modelsOf(
  db: Db,
  pids: readonly string[],
): Promise<Map<string, { model: string; members: ForecastMemberWeight[] }>> {
  if (pids.length === 0) return new Map();
  const rows = await db
    .selectFrom('forecast_accuracy')
    .select(['pid', 'model', 'members'])
    .where('pid', 'in', [...pids])
    .execute();
  return new Map(rows.map((row) => [row.pid, { model: row.model, members: row.members }]));
}

export type ExceptionSumsRow = {
  pid: string;
  bu: string;
  pf: string;
  error_value: number;
  recent_bias: number | null;
  override_cost: number | null;
  weeks_outside: number;
  is_large_error: boolean;
  is_persistent_bias: boolean;
  is_override_hurt: boolean;
  is_outside_interval: boolean;
};

/** The exception queue's thresholds (docs/metrics.md "Exception queue"). */
export type ExceptionRules = {
  /** Share of the products with an error whose error value counts as large (top 10 %). */
  largeErrorShare: number;
  /** Compared weeks the bias signal looks back over (migration 0018 keeps the same number). */
  recentWeeks: number;
  persistentBiasPercent: number;
  overrideHurtPoints: number;
};

/**
 * The products of the exception queue at one lag, from the sums kept per product and lag
 * (migration 0018), with the signals each one raises: money error at the current list price in
 * the top share of the products' (the floor is found here, over every product with an error),
 * bias over the last compared weeks all on one side, overrides that made the error worse, and
 * recent actuals outside the statistical forecast's 95 % interval. Only the `limit` products with
 * a signal and the highest score leave the database.
 */
export async function exceptionSums(
  db: Db,
  clientIds: readonly ClientId[],
  lag: number,
  rules: ExceptionRules,
  limit: number,
): Promise<ExceptionSumsRow[]> {
  const { rows } = await sql<ExceptionSumsRow>`
    with product as materialized (
      select e.pid, p.bu, p.pf, e.final_abs * p.unit_price::float8 as error_value, e.weeks_outside,
        case when e.recent_actual > 0 then e.recent_err / e.recent_actual * 100 end as recent_bias,
        case when e.actual > 0 then (e.final_abs - e.stat_abs) / e.actual * 100 end as override_cost,
        e.recent_n >= ${rules.recentWeeks} and (e.recent_over = e.recent_n or e.recent_under = e.recent_n) as one_sided
      from exception_sums e join products p on p.pid = e.pid
      where e.lag = ${lag} and ${clientsIn(clientIds, 'p.client_id')}
    ), errors as (select count(*) as n from product where error_value > 0),
    floor as (
      select coalesce((select error_value from product where error_value > 0 order by error_value desc
        offset greatest(ceil((select n from errors) * ${rules.largeErrorShare}::float8)::int - 1, 0) limit 1),
        'Infinity'::float8) as value
    ), signals as (
      select product.*, product.error_value > 0 and product.error_value >= floor.value as is_large_error,
        coalesce(one_sided and abs(recent_bias) >= ${rules.persistentBiasPercent}, false) as is_persistent_bias,
        coalesce(override_cost >= ${rules.overrideHurtPoints}, false) as is_override_hurt,
        weeks_outside > 0 as is_outside_interval
      from product, floor
    )
    select pid, bu, pf, error_value, recent_bias, override_cost, weeks_outside, is_large_error,
      is_persistent_bias, is_override_hurt, is_outside_interval
    from signals
    where is_large_error or is_persistent_bias or is_override_hurt or is_outside_interval
    -- The ranking (score = error value × signals, in cents, ties by PID) picks the queue here:
    -- a third of all products raise some signal on the demo data.
    order by round((error_value * (is_large_error::int + is_persistent_bias::int + is_override_hurt::int
      + is_outside_interval::int))::numeric, 2) desc, pid
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * Replaces what the client's last check saw in its exception queue with `pids`, in one
 * statement, answering how many of `pids` that check had not seen.
 */
export async function replaceSeenExceptions(
  db: Db,
  clientId: ClientId,
  pids: readonly string[],
): Promise<number> {
  const { rows } = await sql<{ fresh: number }>`
    with current as (select unnest(${[...pids]}::text[]) as pid),
      dropped as (delete from exception_queue_seen s where s.client_id = ${clientId}
        and not exists (select 1 from current c where c.pid = s.pid)),
      added as (insert into exception_queue_seen (client_id, pid)
        select ${clientId}, pid from current on conflict do nothing returning pid)
    select count(*)::int as fresh from added`.execute(db);
  return rows[0]?.fresh ?? 0;
}
