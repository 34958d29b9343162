import type { Catalogue, ClientId } from '@ps/domain';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * All SQL of the AI assistant's tools. Every query takes the caller's clients and filters by them,
 * so a tool cannot read another client's data whatever the question or the model asks for.
 */
export type DataFilter = {
  clientIds: readonly ClientId[];
  /** Clients named in the question, within clientIds. */
  client?: readonly string[];
  bu?: readonly string[];
  pf?: readonly string[];
  region?: readonly string[];
  site?: readonly string[];
  /** Records last changed by these planners. */
  planner?: readonly string[];
  pid?: string;
};
/** Weeks whose Sunday is in [from, to); both yyyy-mm-dd. */
export type WeekRange = { from: string; to: string };

type Db = Kysely<Database>;

/** `alias.client_id`, bu, pf, region and pid conditions of a filter, joined with and. */
function whereFilter(
  f: DataFilter,
  alias: string,
  range?: WeekRange,
  weekAlias = alias,
): RawBuilder<unknown> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const parts: RawBuilder<unknown>[] = [sql`${column('client_id')} = any(${[...f.clientIds]}::text[])`];
  if (f.client?.length) parts.push(sql`${column('client_id')} = any(${[...f.client]}::text[])`);
  if (f.site?.length) parts.push(sql`${column('site')} = any(${[...f.site]}::text[])`);
  if (f.planner?.length)
    parts.push(sql`${sql.ref(`${weekAlias}.last_updated_by`)} = any(${[...f.planner]}::text[])`);
  if (f.bu?.length) parts.push(sql`${column('bu')} = any(${[...f.bu]}::text[])`);
  if (f.pf?.length) parts.push(sql`${column('pf')} = any(${[...f.pf]}::text[])`);
  if (f.region?.length) parts.push(sql`${column('region')} = any(${[...f.region]}::text[])`);
  if (f.pid) parts.push(sql`${column('pid')} = ${f.pid}`);
  if (range) {
    parts.push(sql`${sql.ref(`${weekAlias}.week_start`)} >= ${range.from}::date`);
    parts.push(sql`${sql.ref(`${weekAlias}.week_start`)} < ${range.to}::date`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * The names a user may use in a question: the business units, families, regions, sites, planners
 * (who changed an overridden record), products and clients of their own clients only, so a name
 * of another client's data is as unknown as a made-up one.
 */
export async function vocabulary(db: Db, clientIds: readonly ClientId[]): Promise<Catalogue> {
  const clients = [...clientIds];
  const { rows } = await sql<{ kind: 'bu' | 'pf' | 'region' | 'site' | 'pid' | 'client'; name: string }>`
    select distinct 'bu' as kind, bu as name from products where client_id = any(${clients}::text[])
    union select distinct 'pf', pf from products where client_id = any(${clients}::text[])
    union select distinct 'region', region from products where client_id = any(${clients}::text[])
    union select distinct 'site', site from products where client_id = any(${clients}::text[])
    union select distinct 'client', client_id from products where client_id = any(${clients}::text[])
    union select 'pid', pid from products where client_id = any(${clients}::text[])
    order by 1, 2`.execute(db);
  const planners = await sql<{ name: string }>`
    select distinct r.last_updated_by as name
    from demand_overridden_records k
      join demand_records r on r.pid = k.pid and r.week_start = k.week_start
      join products p on p.pid = r.pid
    where p.client_id = any(${clients}::text[]) and r.last_updated_by is not null
    order by 1`.execute(db);
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.name);
  return {
    businessUnits: of('bu'),
    families: of('pf'),
    regions: of('region'),
    sites: of('site'),
    planners: planners.rows.map((r) => r.name),
    products: of('pid'),
    clients: of('client'),
  };
}

export async function productExists(db: Db, clientIds: readonly ClientId[], pid: string): Promise<boolean> {
  const { rows } = await sql<{ pid: string }>`
    select pid from products where pid = ${pid} and client_id = any(${[...clientIds]}::text[])`.execute(db);
  return rows.length > 0;
}

/** First and last week with records in scope (null when there are none). */
export async function dataWindow(db: Db, clientIds: readonly ClientId[]): Promise<WeekRange | null> {
  // The weeks that hold a final plan, the same records a scenario scales (a record created
  // without a plan yet, e.g. by an import, must not move "Q3" to a quarter with nothing to change).
  const { rows } = await sql<{ first: string | null; last: string | null }>`
    select min(r.week_start)::text as first, max(r.week_start)::text as last
    from demand_records r join products p on p.pid = r.pid
    where p.client_id = any(${[...clientIds]}::text[]) and r.final_pln_units is not null`.execute(db);
  const row = rows[0];
  return row?.first && row.last ? { from: row.first, to: row.last } : null;
}

/** Units and revenue of every measure of the plan chain, and the weeks that hold records. */
export type MeasureSums = {
  group: string | null;
  records: number;
  firstWeek: string | null;
  lastWeek: string | null;
  actualUnits: number;
  actualRevenue: number;
  statUnits: number;
  statRevenue: number;
  prelimUnits: number;
  prelimRevenue: number;
  finalUnits: number;
  finalRevenue: number;
  finalCost: number;
  p1Units: number;
  p1Revenue: number;
  p2Units: number;
  p2Revenue: number;
};

const MEASURE_SUMS = sql`coalesce(sum(t.record_count), 0)::int as records,
  min(t.week_start)::text as "firstWeek", max(t.week_start)::text as "lastWeek",
  coalesce(sum(t.act_bkg_units), 0)::float8 as "actualUnits",
  coalesce(sum(t.act_rev_dlrs), 0)::float8 as "actualRevenue",
  coalesce(sum(t.ensemble_fcst_units), 0)::float8 as "statUnits",
  coalesce(sum(t.ensemble_fcst_rev_dlrs), 0)::float8 as "statRevenue",
  coalesce(sum(t.prelim_pln_units), 0)::float8 as "prelimUnits",
  coalesce(sum(t.prelim_pln_rev_dlrs), 0)::float8 as "prelimRevenue",
  coalesce(sum(t.final_pln_units), 0)::float8 as "finalUnits",
  coalesce(sum(t.final_pln_rev_dlrs), 0)::float8 as "finalRevenue",
  coalesce(sum(t.final_bk_pln_cost), 0)::float8 as "finalCost",
  coalesce(sum(t.p1_pub_pln_units), 0)::float8 as "p1Units",
  coalesce(sum(t.p1_pub_pln_rev_dlrs), 0)::float8 as "p1Revenue",
  coalesce(sum(t.p2_pub_pln_units), 0)::float8 as "p2Units",
  coalesce(sum(t.p2_pub_pln_rev_dlrs), 0)::float8 as "p2Revenue"`;

/**
 * Every measure summed over a filter and weeks, in total or by business unit or family. Filters
 * the week totals hold (client, business unit, family, region) read demand_week_totals (kept
 * exact by triggers); a product, site or planner reads the records.
 */
export async function measureSums(
  db: Db,
  f: DataFilter,
  range: WeekRange | undefined,
  groupBy: 'bu' | 'pf' | null,
): Promise<MeasureSums[]> {
  const group = groupBy ? sql.ref(`t.${groupBy}`) : sql`null::text`;
  const fromRecords = Boolean(f.pid || f.site?.length || f.planner?.length);
  const source = fromRecords
    ? sql`(select 1 as record_count, r.*, round((r.ensemble_fcst_units * p.unit_price)::numeric, 2) as ensemble_fcst_rev_dlrs,
          p.client_id, p.bu, p.pf, p.region, p.site
        from demand_records r join products p on p.pid = r.pid)`
    : sql`demand_week_totals`;
  const { rows } = await sql<MeasureSums>`
    select ${group} as "group", ${MEASURE_SUMS}
    from ${source} t
    where ${whereFilter(fromRecords ? f : { ...f, planner: [] }, 't', range)}
    group by 1 order by 1`.execute(db);
  return rows;
}

/** Actual bookings of the sales history over a filter and weeks (the history reaches years back). */
export async function historyUnits(db: Db, f: DataFilter, range: WeekRange): Promise<number> {
  const { rows } = await sql<{ units: number }>`
    select coalesce(sum(h.units), 0)::float8 as units
    from sales_history h join products p on p.pid = h.pid
    where ${whereFilter({ ...f, planner: [] }, 'p', range, 'h')}`.execute(db);
  return rows[0]!.units;
}

export type WeekRow = {
  weekStart: string;
  actual: number | null;
  stat: number | null;
  prelim: number | null;
  final: number | null;
  p1: number | null;
  p2: number | null;
  revOverridePercent: number | null;
  revOverrideUnits: number | null;
  sopOverridePercent: number | null;
  sopOverrideUnits: number | null;
  reasonCode: string | null;
  comments: string | null;
  lastUpdatedBy: string | null;
};

/** One product's records week by week, within the weeks asked. */
export async function productWeeks(
  db: Db,
  clientIds: readonly ClientId[],
  pid: string,
  range: WeekRange | undefined,
): Promise<WeekRow[]> {
  const { rows } = await sql<WeekRow>`
    select r.week_start::text as "weekStart", r.act_bkg_units::float8 as actual,
      r.ensemble_fcst_units::float8 as stat, r.prelim_pln_units::float8 as prelim,
      r.final_pln_units::float8 as final, r.p1_pub_pln_units::float8 as p1, r.p2_pub_pln_units::float8 as p2,
      r.rev_pln_ovrd_percent::float8 as "revOverridePercent", r.rev_pln_ovrd_units::float8 as "revOverrideUnits",
      r.sop_pln_ovrd_percent::float8 as "sopOverridePercent", r.sop_pln_ovrd_units::float8 as "sopOverrideUnits",
      r.reason_code as "reasonCode", r.comments, r.last_updated_by as "lastUpdatedBy"
    from demand_records r join products p on p.pid = r.pid
    where ${whereFilter({ clientIds, pid }, 'p', range, 'r')}
    order by r.week_start`.execute(db);
  return rows;
}

export type GapRow = {
  pid: string;
  bu: string;
  pf: string;
  a: number;
  b: number;
  gap: number;
  /** The product's overridden records in the weeks, and the latest one's planner, reason and comment. */
  overrides: number;
  planner: string | null;
  reasonCode: string | null;
  comments: string | null;
};

/** Columns of the measures a gap can be measured between. */
export const MEASURE_COLUMNS = {
  actual: 'act_bkg_units',
  stat: 'ensemble_fcst_units',
  prelim: 'prelim_pln_units',
  final: 'final_pln_units',
  p1: 'p1_pub_pln_units',
  p2: 'p2_pub_pln_units',
} as const;
export type MeasureColumn = keyof typeof MEASURE_COLUMNS;

/**
 * The products that make most of the gap between two measures over a filter and weeks (largest
 * |a − b| first), each with its overrides there: how many, and the latest one's planner, reason
 * code and comment.
 */
export async function largestGaps(
  db: Db,
  f: DataFilter,
  range: WeekRange | undefined,
  a: MeasureColumn,
  b: MeasureColumn,
  limit: number,
): Promise<GapRow[]> {
  const ca = sql.ref(`r.${MEASURE_COLUMNS[a]}`);
  const cb = sql.ref(`r.${MEASURE_COLUMNS[b]}`);
  const { rows } = await sql<GapRow>`
    with g as (
      select p.pid, p.bu, p.pf, coalesce(sum(${ca}), 0)::float8 as a, coalesce(sum(${cb}), 0)::float8 as b,
        count(k.pid)::int as overrides
      from demand_records r join products p on p.pid = r.pid
        left join demand_overridden_records k on k.pid = r.pid and k.week_start = r.week_start
      where ${whereFilter(f, 'p', range, 'r')}
      group by p.pid, p.bu, p.pf)
    select g.*, (g.a - g.b)::float8 as gap, o.last_updated_by as planner, o.reason_code as "reasonCode", o.comments
    from g left join lateral (
      select r.last_updated_by, r.reason_code, r.comments
      from demand_overridden_records k join demand_records r on r.pid = k.pid and r.week_start = k.week_start
      where k.pid = g.pid ${range ? sql`and r.week_start >= ${range.from}::date and r.week_start < ${range.to}::date` : sql``}
      order by r.last_updated_at desc nulls last, r.week_start desc limit 1) o on true
    order by abs(g.a - g.b) desc, g.pid limit ${limit}`.execute(db);
  return rows;
}

export type OverrideRow = {
  pid: string;
  weekStart: string;
  bu: string;
  pf: string;
  reasonCode: string | null;
  comments: string | null;
  baselineRevenue: number;
  finalRevenue: number;
  impact: number;
};

/**
 * Overridden records (any of the four override fields set) by the size of their revenue impact,
 * final plan revenue − statistical forecast at list price, with the count and net impact of all.
 */
export async function largestOverrides(
  db: Db,
  f: DataFilter,
  range: WeekRange | undefined,
  limit: number,
): Promise<{
  count: number;
  netImpact: number;
  positive: number;
  negative: number;
  top: OverrideRow[];
  byPlanner: PlannerOverrides[];
}> {
  const { rows } = await sql<
    OverrideRow & { count: number; netImpact: number; positive: number; negative: number }
  >`
    with o as (
      select r.pid, r.week_start::text as "weekStart", p.bu, p.pf, r.reason_code as "reasonCode",
        r.comments, round((r.ensemble_fcst_units * p.unit_price)::numeric, 2)::float8 as "baselineRevenue",
        r.final_pln_rev_dlrs::float8 as "finalRevenue",
        (r.final_pln_rev_dlrs - round((r.ensemble_fcst_units * p.unit_price)::numeric, 2))::float8 as impact
      from demand_overridden_records k
        join demand_records r on r.pid = k.pid and r.week_start = k.week_start
        join products p on p.pid = r.pid
      where ${whereFilter(f, 'p', range, 'r')}
        and r.final_pln_rev_dlrs is not null and r.ensemble_fcst_units is not null)
    select o.*, count(*) over ()::int as count, sum(o.impact) over ()::float8 as "netImpact",
      (count(*) filter (where o.impact > 0) over ())::int as positive,
      (count(*) filter (where o.impact < 0) over ())::int as negative
    from o order by abs(o.impact) desc, o.pid, o."weekStart" limit ${limit}`.execute(db);
  const planners = await sql<PlannerOverrides>`
    select r.last_updated_by as planner, count(*)::int as count,
      coalesce(sum(r.final_pln_rev_dlrs - round((r.ensemble_fcst_units * p.unit_price)::numeric, 2)), 0)::float8 as impact
    from demand_overridden_records k
      join demand_records r on r.pid = k.pid and r.week_start = k.week_start
      join products p on p.pid = r.pid
    where ${whereFilter(f, 'p', range, 'r')}
      and r.final_pln_rev_dlrs is not null and r.ensemble_fcst_units is not null
    group by r.last_updated_by order by count(*) desc, r.last_updated_by`.execute(db);
  const first = rows[0];
  return {
    count: first?.count ?? 0,
    netImpact: first?.netImpact ?? 0,
    positive: first?.positive ?? 0,
    negative: first?.negative ?? 0,
    top: rows.map(({ count: _c, netImpact: _n, positive: _p, negative: _m, ...row }) => row),
    byPlanner: planners.rows,
  };
}

/** Overridden records and their net impact, per planner who last changed them (null: nobody named). */
export type PlannerOverrides = { planner: string | null; count: number; impact: number };

/**
 * What the forecast accuracy figures are computed from, in one short text: the snapshots (count,
 * latest time taken), the actuals by week (trigger-kept totals, weighted by week so a move between
 * weeks shows; their latest change) and the products' prices. Reads only small or summary tables,
 * so it costs a few milliseconds where the accuracy report itself joins every snapshot with the
 * records; the assistant recomputes the report when this text changes.
 */
export async function accuracyFingerprint(db: Db): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`
    select concat_ws('|',
      (select count(*) || '/' || coalesce(max(taken_at)::text, '') from forecast_snapshots),
      (select coalesce(sum(t.act_bkg_units * (t.week_start - date '2000-01-02' + 1)), 0)::text || '/'
         || coalesce(sum(t.act_bkg_units), 0)::text || '/' || coalesce(max(t.last_updated_at)::text, '')
       from demand_week_totals t),
      (select count(*) || '/' || coalesce(sum(unit_price), 0)::text from products)) as fingerprint`.execute(
    db,
  );
  return rows[0]!.fingerprint;
}

export type ChainRow = {
  pid: string;
  weekStart: string;
  bu: string;
  pf: string;
  unitCost: number;
  unitPrice: number;
  ensembleUnits: number | null;
  revOverridePercent: number | null;
  revOverrideUnits: number | null;
  prelimUnits: number | null;
  sopOverridePercent: number | null;
  sopOverrideUnits: number | null;
  finalUnits: number | null;
  finalCost: number | null;
  finalRevenue: number | null;
  actualUnits: number | null;
  p1Units: number | null;
  reasonCode: string | null;
  comments: string | null;
  lastUpdatedBy: string | null;
};

/** One record with its product's prices: the week asked for, else the first week from `fromWeek` on. */
export async function recordChain(
  db: Db,
  clientIds: readonly ClientId[],
  pid: string,
  week: string | undefined,
  fromWeek: string,
): Promise<ChainRow | null> {
  const { rows } = await sql<ChainRow>`
    select r.pid, r.week_start::text as "weekStart", p.bu, p.pf,
      p.unit_cost::float8 as "unitCost", p.unit_price::float8 as "unitPrice",
      r.ensemble_fcst_units::float8 as "ensembleUnits", r.rev_pln_ovrd_percent::float8 as "revOverridePercent",
      r.rev_pln_ovrd_units::float8 as "revOverrideUnits", r.prelim_pln_units::float8 as "prelimUnits",
      r.sop_pln_ovrd_percent::float8 as "sopOverridePercent", r.sop_pln_ovrd_units::float8 as "sopOverrideUnits",
      r.final_pln_units::float8 as "finalUnits", r.final_bk_pln_cost::float8 as "finalCost",
      r.final_pln_rev_dlrs::float8 as "finalRevenue", r.act_bkg_units::float8 as "actualUnits",
      r.p1_pub_pln_units::float8 as "p1Units", r.reason_code as "reasonCode", r.comments,
      r.last_updated_by as "lastUpdatedBy"
    from demand_records r join products p on p.pid = r.pid
    where r.pid = ${pid} and p.client_id = any(${[...clientIds]}::text[])
      and ${week ? sql`r.week_start = ${week}::date` : sql`r.week_start >= ${fromWeek}::date`}
    order by r.week_start limit 1`.execute(db);
  return rows[0] ?? null;
}

export type VersionRow = {
  clientId: string;
  cycle: string;
  label: string;
  publishedAt: string;
  rank: number;
  quarters: Array<{ quarter: string; units: number; cost: number; revenue: number }>;
};

/** The two latest plan versions of each client in scope (rank 1 = latest). */
export async function latestVersions(db: Db, clientIds: readonly ClientId[]): Promise<VersionRow[]> {
  const { rows } = await sql<VersionRow>`
    select * from (
      select v.client_id as "clientId", v.cycle, v.label, v.published_at::text as "publishedAt", v.quarters,
        row_number() over (partition by v.client_id order by v.published_at desc, v.id desc)::int as rank
      from plan_versions v where v.client_id = any(${[...clientIds]}::text[])) x
    where x.rank <= 2 order by x."clientId", x.rank`.execute(db);
  return rows;
}

export type ScenarioRow = {
  pid: string;
  weekStart: string;
  finalUnits: number;
  unitCost: number;
  unitPrice: number;
  version: number;
};

/** Records a what-if scales: those in the filter and weeks that hold a final plan. */
export async function scenarioRecords(db: Db, f: DataFilter, range: WeekRange): Promise<ScenarioRow[]> {
  const { rows } = await sql<ScenarioRow>`
    select r.pid, r.week_start::text as "weekStart", r.final_pln_units::float8 as "finalUnits",
      p.unit_cost::float8 as "unitCost", p.unit_price::float8 as "unitPrice", r.version
    from demand_records r join products p on p.pid = r.pid
    where ${whereFilter(f, 'p', range, 'r')} and r.final_pln_units is not null
    order by r.pid, r.week_start`.execute(db);
  return rows;
}

export type ScenarioTotals = {
  records: number;
  beforeUnits: number;
  beforeCost: number;
  beforeRevenue: number;
  afterUnits: number;
  afterCost: number;
  afterRevenue: number;
};

/**
 * A what-if's totals in one aggregate (the preview reads no rows): each record's final units
 * scaled and rounded half up in exact numeric, never below 0, valued per record to the cent:
 * the arithmetic of scenarioFigures in packages/domain/src/ai/scenario.ts.
 */
export async function scenarioTotals(
  db: Db,
  f: DataFilter,
  range: WeekRange,
  percent: number,
): Promise<ScenarioTotals> {
  const { rows } = await sql<ScenarioTotals>`
    with s as (
      select r.final_pln_units::numeric as u,
        greatest(0, round(r.final_pln_units::numeric * (100 + ${percent}::numeric) / 100)) as a,
        p.unit_cost::numeric as c, p.unit_price::numeric as pr
      from demand_records r join products p on p.pid = r.pid
      where ${whereFilter(f, 'p', range, 'r')} and r.final_pln_units is not null)
    select count(*)::int as records,
      coalesce(sum(u), 0)::float8 as "beforeUnits", coalesce(sum(round(u * c, 2)), 0)::float8 as "beforeCost",
      coalesce(sum(round(u * pr, 2)), 0)::float8 as "beforeRevenue",
      coalesce(sum(a), 0)::float8 as "afterUnits", coalesce(sum(round(a * c, 2)), 0)::float8 as "afterCost",
      coalesce(sum(round(a * pr, 2)), 0)::float8 as "afterRevenue"
    from s`.execute(db);
  return rows[0]!;
}

/**
 * Counts one request of a user to an endpoint and answers the count in the current window and the
 * seconds left in it; a new window starts when the last one ended. One statement, so concurrent
 * processes count exactly.
 */
export async function countRequest(
  db: Db,
  userId: string,
  endpoint: string,
  windowSeconds: number,
): Promise<{ requests: number; secondsLeft: number }> {
  const windowEnd = sql<Date>`now() + make_interval(secs => ${windowSeconds})`;
  const windowOver = sql<boolean>`ai_rate_limits.window_ends_at <= now()`;
  const row = await db
    .insertInto('ai_rate_limits')
    .values({ user_id: userId, endpoint, requests: 1, window_ends_at: windowEnd })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'endpoint']).doUpdateSet({
        requests: sql<number>`case when ${windowOver} then 1 else ai_rate_limits.requests + 1 end`,
        window_ends_at: sql<Date>`case when ${windowOver} then ${windowEnd} else ai_rate_limits.window_ends_at end`,
      }),
    )
    .returning([
      'requests',
      sql<number>`ceil(extract(epoch from (window_ends_at - now())))::int`.as('secondsLeft'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}
