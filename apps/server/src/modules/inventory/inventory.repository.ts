import type { ClientId, ForecastQuantiles, InventoryFilters } from '@ps/domain';
import { sql, type Insertable, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { insertByUnnest, updateByUnnest, type ColumnSpec } from '../../db/bulk';
import type { Database, InventoryAuditTable, InventoryWeekTotalsTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** An inventory row joined with its product, as the page and the saves read it. */
export type InventoryRowRecord = {
  pid: string;
  site: string;
  region: string;
  client_id: string;
  bu: string;
  pf: string;
  class: string;
  unit_cost: number;
  avg_demand: number;
  std_demand: number;
  demand_model: string;
  lead_time_weeks: number;
  lead_time_sd_weeks: number;
  review_period_weeks: number;
  replenishment_frequency_weeks: number;
  on_hand_units: number;
  oul_90: number;
  oul_95: number;
  oul_98: number;
  recommended_oul: number;
  safety_stock_units: number | null;
  safety_stock_normal_units: number | null;
  override_oul_units: number | null;
  override_percent: number | null;
  override_reason: string | null;
  override_comments: string | null;
  override_user: string | null;
  override_at: Date | null;
  updated_at: Date;
  version: number;
};

const ROW_COLUMNS = sql`i.pid, i.site, i.region, p.client_id, p.bu, p.pf, p.class, p.unit_cost,
  i.avg_demand, i.std_demand, i.demand_model, i.lead_time_weeks, i.lead_time_sd_weeks, i.review_period_weeks,
  i.replenishment_frequency_weeks, i.on_hand_units, i.oul_90, i.oul_95, i.oul_98, i.recommended_oul,
  i.safety_stock_units, i.safety_stock_normal_units, i.override_oul_units, i.override_percent, i.override_reason, i.override_comments, i.override_user,
  i.override_at, i.updated_at, i.version`;

/** A LIKE pattern's own characters, matched as themselves. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE of every read: the caller's clients, then the page's filters. */
function rowFilter(clientIds: readonly ClientId[], filters: InventoryFilters): RawBuilder<unknown> {
  const parts = [sql`p.client_id = any(${[...clientIds]}::text[])`];
  if (filters.category) parts.push(sql`p.pf = ${filters.category}`);
  if (filters.businessUnit) parts.push(sql`p.bu = ${filters.businessUnit}`);
  if (filters.region) parts.push(sql`i.region = ${filters.region}`);
  if (filters.site) parts.push(sql`i.site = ${filters.site}`);
  if (filters.sku) parts.push(sql`i.pid = ${filters.sku}`);
  if (filters.search) parts.push(sql`i.pid ilike ${`%${escapeLike(filters.search)}%`}`);
  return sql.join(parts, sql` and `);
}

export async function listRows(
  db: Db,
  clientIds: readonly ClientId[],
  filters: InventoryFilters,
  page: { offset: number; limit: number },
): Promise<InventoryRowRecord[]> {
  const { rows } = await sql<InventoryRowRecord>`
    select ${ROW_COLUMNS}
    from inventory_parameters i join products p on p.pid = i.pid
    where ${rowFilter(clientIds, filters)}
    order by i.pid, i.site
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows;
}

export type InventorySummaryRow = {
  total: number;
  modified_today: number;
  overrides_active: number;
  avg_override_change: number | null;
  over_150: number;
  safety_stock: number;
  safety_stock_normal: number;
};

/** The cards and insights of a filter in one pass over its rows. */
export async function summarize(
  db: Db,
  clientIds: readonly ClientId[],
  filters: InventoryFilters,
): Promise<InventorySummaryRow> {
  const { rows } = await sql<InventorySummaryRow>`
    select count(*)::int as total,
      count(*) filter (where i.override_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as modified_today,
      count(i.override_oul_units)::int as overrides_active,
      avg(i.override_percent - 100) filter (where i.override_oul_units is not null and i.recommended_oul > 0)::float8 as avg_override_change,
      count(*) filter (where i.override_percent > 150)::int as over_150,
      coalesce(sum(i.safety_stock_units), 0)::float8 as safety_stock,
      coalesce(sum(i.safety_stock_normal_units), 0)::float8 as safety_stock_normal
    from inventory_parameters i join products p on p.pid = i.pid
    where ${rowFilter(clientIds, filters)}`.execute(db);
  return rows[0]!;
}

export type LargestChangeRow = {
  pid: string;
  site: string;
  recommended_oul: number;
  override_oul_units: number;
};

/** The three overrides that move furthest from their recommended target, in percent. */
export async function largestChanges(
  db: Db,
  clientIds: readonly ClientId[],
  filters: InventoryFilters,
): Promise<LargestChangeRow[]> {
  const { rows } = await sql<LargestChangeRow>`
    select i.pid, i.site, i.recommended_oul, i.override_oul_units
    from inventory_parameters i join products p on p.pid = i.pid
    where ${rowFilter(clientIds, filters)} and i.override_oul_units is not null and i.recommended_oul > 0
    order by abs(i.override_percent - 100) desc, i.pid, i.site
    limit 3`.execute(db);
  return rows;
}

/**
 * The distinct (family, BU, region, site) combinations, a few hundred, in one pass over the rows;
 * four DISTINCT queries read every row four times.
 */
export async function filterOptions(
  db: Db,
  clientIds: readonly ClientId[],
): Promise<{ categories: string[]; businessUnits: string[]; regions: string[]; sites: string[] }> {
  const { rows } = await sql<{ pf: string; bu: string; region: string; site: string }>`
    select distinct p.pf, p.bu, i.region, i.site
    from inventory_parameters i join products p on p.pid = i.pid
    where p.client_id = any(${[...clientIds]}::text[])`.execute(db);
  const sorted = (values: string[]): string[] =>
    [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    categories: sorted(rows.map((r) => r.pf)),
    businessUnits: sorted(rows.map((r) => r.bu)),
    regions: sorted(rows.map((r) => r.region)),
    sites: sorted(rows.map((r) => r.site)),
  };
}

/** The rows of these keys within the caller's clients, locked for update. */
export async function lockRows(
  trx: Transaction<Database>,
  clientIds: readonly ClientId[],
  keys: ReadonlyArray<{ pid: string; site: string }>,
): Promise<InventoryRowRecord[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<InventoryRowRecord>`
    select ${ROW_COLUMNS}
    from inventory_parameters i join products p on p.pid = i.pid
    where p.client_id = any(${[...clientIds]}::text[])
      and (i.pid, i.site) in (select * from unnest(${keys.map((k) => k.pid)}::text[], ${keys.map((k) => k.site)}::text[]))
    order by i.pid, i.site
    for update of i`.execute(trx);
  return rows;
}

/** An inventory row's key, for the writers joined on unnest arrays. */
const ROW_KEY: ReadonlyArray<ColumnSpec<{ pid: string; site: string }>> = [
  { name: 'pid', type: 'text' },
  { name: 'site', type: 'text' },
];

export type OverrideWrite = {
  pid: string;
  site: string;
  override_oul_units: number | null;
  override_percent: number | null;
  override_reason: string | null;
  override_comments: string | null;
  override_user: string | null;
  override_at: Date | null;
};

const OVERRIDE_COLUMNS: ReadonlyArray<ColumnSpec<OverrideWrite>> = [
  { name: 'override_oul_units', type: 'int4' },
  { name: 'override_percent', type: 'numeric' },
  { name: 'override_reason', type: 'text' },
  { name: 'override_comments', type: 'text' },
  { name: 'override_user', type: 'text' },
  { name: 'override_at', type: 'timestamptz' },
];

export async function writeOverrides(
  trx: Transaction<Database>,
  writes: readonly OverrideWrite[],
): Promise<void> {
  await updateByUnnest(
    trx,
    'inventory_parameters',
    {
      keys: ROW_KEY,
      columns: OVERRIDE_COLUMNS,
      also: { version: sql`t.version + 1`, updated_at: sql`now()` },
    },
    writes,
  );
}

const AUDIT_COLUMNS: ReadonlyArray<ColumnSpec<Insertable<InventoryAuditTable>>> = [
  { name: 'client_id', type: 'text' },
  { name: 'pid', type: 'text' },
  { name: 'site', type: 'text' },
  { name: 'field', type: 'text' },
  { name: 'old_value', type: 'text' },
  { name: 'new_value', type: 'text' },
  { name: 'reason_code', type: 'text' },
  { name: 'comments', type: 'text' },
  { name: 'changed_by', type: 'text' },
  { name: 'source', type: 'text' },
];

export async function insertAudit(
  trx: Transaction<Database>,
  rows: ReadonlyArray<Insertable<InventoryAuditTable>>,
): Promise<void> {
  await insertByUnnest(trx, 'inventory_audit', AUDIT_COLUMNS, rows);
}

/** Whether the caller's clients have this inventory row (another client's is as unknown). */
export async function hasRow(
  db: Db,
  clientIds: readonly ClientId[],
  key: { pid: string; site: string },
): Promise<boolean> {
  const { rows } = await sql`
    select 1 from inventory_parameters i join products p on p.pid = i.pid
    where i.pid = ${key.pid} and i.site = ${key.site} and p.client_id = any(${[...clientIds]}::text[])`.execute(
    db,
  );
  return rows.length > 0;
}

export async function listAudit(
  db: Db,
  clientIds: readonly ClientId[],
  key: { pid: string; site: string },
): Promise<Array<InventoryAuditTable & { id: number; changed_at: Date }>> {
  const { rows } = await sql<InventoryAuditTable & { id: number; changed_at: Date }>`
    select * from inventory_audit
    where pid = ${key.pid} and site = ${key.site} and client_id = any(${[...clientIds]}::text[])
    order by changed_at desc, id desc limit 200`.execute(db);
  return rows;
}

// ---- The recompute after a forecast run ----

export type ProductDemandStats = {
  pid: string;
  client_id: string;
  bu: string;
  class: string;
  plan_mean: number | null;
  error_sd: number | null;
  actual_mean: number | null;
  actual_sd: number | null;
  past_weeks: number;
  demand_weeks: number;
};

/**
 * Per product: the mean final plan of the next `horizon` weeks (μ), the root mean square forecast
 * error of the past `errorWeeks` weeks (σ), and how many of the past 26 weeks had demand (ADI).
 */
export async function productDemandStats(
  db: Db,
  asOf: string,
  horizon: number,
  errorWeeks: number,
): Promise<ProductDemandStats[]> {
  const { rows } = await sql<ProductDemandStats>`
    select p.pid, p.client_id, p.bu, p.class,
      avg(r.final_pln_units) filter (where r.week_start >= ${asOf}::date)::float8 as plan_mean,
      sqrt(avg(power(r.act_bkg_units - r.ensemble_fcst_units, 2)) filter (
        where r.week_start < ${asOf}::date and r.week_start >= ${asOf}::date - ${errorWeeks * 7}::int
          and r.act_bkg_units is not null and r.ensemble_fcst_units is not null))::float8 as error_sd,
      avg(r.act_bkg_units) filter (where r.week_start < ${asOf}::date and r.week_start >= ${asOf}::date - ${errorWeeks * 7}::int)::float8 as actual_mean,
      stddev_samp(r.act_bkg_units) filter (where r.week_start < ${asOf}::date and r.week_start >= ${asOf}::date - ${errorWeeks * 7}::int)::float8 as actual_sd,
      count(r.act_bkg_units) filter (where r.week_start < ${asOf}::date)::int as past_weeks,
      count(*) filter (where r.week_start < ${asOf}::date and r.act_bkg_units > 0)::int as demand_weeks
    from products p
    left join demand_records r on r.pid = p.pid
      and r.week_start >= ${asOf}::date - 182 and r.week_start < ${asOf}::date + ${horizon * 7}::int
    where exists (select 1 from inventory_parameters i where i.pid = p.pid)
    group by p.pid, p.client_id, p.bu, p.class`.execute(db);
  return rows;
}

/** The quantile forecasts of every stocked product's latest forecast run (null before quantiles were stored). */
export async function stockedForecastQuantiles(
  db: Db,
): Promise<Array<{ pid: string; quantiles: ForecastQuantiles }>> {
  const { rows } = await sql<{ pid: string; quantiles: ForecastQuantiles }>`
    select a.pid, a.quantiles from forecast_accuracy a
    where a.quantiles is not null and exists (select 1 from inventory_parameters i where i.pid = a.pid)`.execute(
    db,
  );
  return rows;
}

/** The final plan of every stocked product for the projection weeks. */
export async function futurePlans(
  db: Db,
  asOf: string,
  horizon: number,
): Promise<Array<{ pid: string; week_start: string; units: number }>> {
  const { rows } = await sql<{ pid: string; week_start: string; units: number }>`
    select r.pid, r.week_start::text as week_start, coalesce(r.final_pln_units, 0)::float8 as units
    from demand_records r
    where r.week_start >= ${asOf}::date and r.week_start < ${asOf}::date + ${horizon * 7}::int
      and exists (select 1 from inventory_parameters i where i.pid = r.pid)`.execute(db);
  return rows;
}

export type InventoryPolicyRow = {
  pid: string;
  site: string;
  demand_share: number;
  lead_time_weeks: number;
  lead_time_sd_weeks: number;
  review_period_weeks: number;
  replenishment_frequency_weeks: number;
  on_hand_units: number;
  override_oul_units: number | null;
  unit_cost: number;
  /** The product's customer region and family: the network plan's cell. */
  product_region: string;
  pf: string;
};

export async function policyRows(db: Db): Promise<InventoryPolicyRow[]> {
  const { rows } = await sql<InventoryPolicyRow>`
    select i.pid, i.site, i.demand_share, i.lead_time_weeks, i.lead_time_sd_weeks, i.review_period_weeks,
      i.replenishment_frequency_weeks, i.on_hand_units, i.override_oul_units, p.unit_cost,
      p.region as product_region, p.pf
    from inventory_parameters i join products p on p.pid = i.pid`.execute(db);
  return rows;
}

/** Orders placed in the weeks before asOf that arrive on or after it. */
export async function openOrders(
  db: Db,
  asOf: string,
  weeksBack: number,
): Promise<Array<{ pid: string; site: string; week_start: string; ordered_units: number }>> {
  const { rows } = await sql<{ pid: string; site: string; week_start: string; ordered_units: number }>`
    select pid, site, week_start::text as week_start, ordered_units from inventory_history
    where week_start < ${asOf}::date and week_start >= ${asOf}::date - ${weeksBack * 7}::int and ordered_units > 0`.execute(
    db,
  );
  return rows;
}

/** The order lines loaded for each product × site (docs/data-integration.md), open or closed. */
export async function loadedOpenOrders(
  db: Db,
): Promise<
  Array<{ pid: string; site: string; due_date: string; quantity: number; status: 'open' | 'closed' }>
> {
  const { rows } = await sql<{
    pid: string;
    site: string;
    due_date: string;
    quantity: number;
    status: 'open' | 'closed';
  }>`select pid, site, due_date::text as due_date, quantity, status from inventory_open_orders`.execute(db);
  return rows;
}

export type RecomputedRow = {
  pid: string;
  site: string;
  avg_demand: number;
  std_demand: number;
  demand_model: string;
  oul_90: number;
  oul_95: number;
  oul_98: number;
  recommended_oul: number;
  safety_stock_units: number;
  safety_stock_normal_units: number;
  sd_supply_units: number;
  sd_demand_units: number;
  sd_gap_units: number;
};

const RECOMPUTED_COLUMNS: ReadonlyArray<ColumnSpec<RecomputedRow>> = [
  { name: 'avg_demand', type: 'float8' },
  { name: 'std_demand', type: 'float8' },
  { name: 'demand_model', type: 'text' },
  { name: 'oul_90', type: 'int4' },
  { name: 'oul_95', type: 'int4' },
  { name: 'oul_98', type: 'int4' },
  { name: 'recommended_oul', type: 'int4' },
  { name: 'safety_stock_units', type: 'float8' },
  { name: 'safety_stock_normal_units', type: 'float8' },
  { name: 'sd_supply_units', type: 'float8' },
  { name: 'sd_demand_units', type: 'float8' },
  { name: 'sd_gap_units', type: 'float8' },
];

/**
 * Writes recomputed levels. An override keeps its units; its percent follows the new recommended
 * target (spec §5: percent = units / recommended × 100, one decimal). The version is not bumped:
 * the planner's own fields did not change.
 */
export async function writeRecomputed(db: Db, rows: readonly RecomputedRow[]): Promise<void> {
  await updateByUnnest(
    db,
    'inventory_parameters',
    {
      keys: ROW_KEY,
      columns: RECOMPUTED_COLUMNS,
      also: {
        computed_at: sql`now()`,
        override_percent: sql`case when t.override_oul_units is null then null
          when u.recommended_oul > 0 then round(t.override_oul_units * 100.0 / u.recommended_oul, 1) else 0 end`,
      },
    },
    rows,
  );
}

const TOTAL_COLUMNS: ReadonlyArray<ColumnSpec<InventoryWeekTotalsTable>> = [
  { name: 'client_id', type: 'text' },
  { name: 'bu', type: 'text' },
  { name: 'week_start', type: 'date' },
  { name: 'kind', type: 'text' },
  { name: 'items', type: 'int4' },
  { name: 'demand_units', type: 'float8' },
  { name: 'supply_units', type: 'float8' },
  { name: 'gap_units', type: 'float8' },
  { name: 'lost_units', type: 'float8' },
  { name: 'stockout_items', type: 'int4' },
  { name: 'on_hand_value', type: 'numeric' },
  { name: 'cogs', type: 'numeric' },
];

export async function replaceProjectionTotals(
  trx: Transaction<Database>,
  rows: readonly InventoryWeekTotalsTable[],
): Promise<void> {
  await sql`delete from inventory_week_totals where kind = 'projection'`.execute(trx);
  await insertByUnnest(trx, 'inventory_week_totals', TOTAL_COLUMNS, rows);
}

/** The history's weekly sums per client and business unit, rebuilt from inventory_history. */
export async function rebuildHistoryTotals(db: Db): Promise<void> {
  await sql`delete from inventory_week_totals where kind = 'history'`.execute(db);
  await sql`
    insert into inventory_week_totals (client_id, bu, week_start, kind, items, demand_units, supply_units,
      gap_units, lost_units, stockout_items, on_hand_value, cogs)
    select p.client_id, p.bu, h.week_start, 'history', count(*)::int, sum(h.demand_units), sum(h.receipts_units),
      sum(abs(h.receipts_units - h.demand_units)), sum(h.lost_units), count(*) filter (where h.lost_units > 0)::int,
      round(sum(h.on_hand_units * p.unit_cost), 2), round(sum((h.demand_units - h.lost_units) * p.unit_cost), 2)
    from inventory_history h join products p on p.pid = h.pid
    group by p.client_id, p.bu, h.week_start`.execute(db);
}

// ---- Control tower reads ----

export type WeekTotalRow = {
  week_start: string;
  bu: string;
  items: number;
  demand_units: number;
  supply_units: number;
  gap_units: number;
  lost_units: number;
  stockout_items: number;
  on_hand_value: number;
  cogs: number;
};

export async function weekTotals(
  db: Db,
  clientIds: readonly ClientId[],
  kind: 'history' | 'projection',
): Promise<WeekTotalRow[]> {
  const { rows } = await sql<WeekTotalRow>`
    select week_start::text as week_start, bu, items, demand_units, supply_units, gap_units, lost_units,
      stockout_items, on_hand_value, cogs
    from inventory_week_totals
    where kind = ${kind} and client_id = any(${[...clientIds]}::text[])
    order by week_start, bu`.execute(db);
  return rows;
}

export async function targetBand(
  db: Db,
  clientIds: readonly ClientId[],
): Promise<{ items: number; in_band: number; sum_std: number; sum_avg: number }> {
  const { rows } = await sql<{ items: number; in_band: number; sum_std: number; sum_avg: number }>`
    select count(*)::int as items,
      count(*) filter (where coalesce(i.override_oul_units, i.recommended_oul) between i.oul_90 and i.oul_98)::int as in_band,
      coalesce(sum(i.std_demand), 0)::float8 as sum_std, coalesce(sum(i.avg_demand), 0)::float8 as sum_avg
    from inventory_parameters i join products p on p.pid = i.pid
    where p.client_id = any(${[...clientIds]}::text[])`.execute(db);
  return rows[0]!;
}

export async function worstMatched(
  db: Db,
  clientIds: readonly ClientId[],
  limit: number,
): Promise<Array<{ pid: string; site: string; bu: string; supply: number; demand: number; gap: number }>> {
  const { rows } = await sql<{
    pid: string;
    site: string;
    bu: string;
    supply: number;
    demand: number;
    gap: number;
  }>`
    select i.pid, i.site, p.bu, i.sd_supply_units as supply, i.sd_demand_units as demand, i.sd_gap_units as gap
    from inventory_parameters i join products p on p.pid = i.pid
    where p.client_id = any(${[...clientIds]}::text[]) and i.sd_gap_units > 0
    order by i.sd_gap_units desc, i.pid, i.site
    limit ${limit}`.execute(db);
  return rows;
}

export type NetworkPlan = {
  runId: number;
  granularity: 'month' | 'quarter';
  outbound: Array<{ region: string; family: string; period: string; units: number }>;
  unmet: Array<{ region: string; family: string; period: string; units: number }>;
};

/**
 * The network plan of the latest baseline optimisation run (no scenario) that found one, as
 * DC → region units and unmet units per region, family and period, summed in SQL so a large
 * run's inbound flows are never read.
 */
export async function latestNetworkPlan(db: Db): Promise<NetworkPlan | null> {
  const run = await db
    .selectFrom('optimisation_runs')
    .select(['id', sql<'month' | 'quarter'>`settings -> 'horizon' ->> 'granularity'`.as('granularity')])
    .where('status', '=', 'succeeded')
    .where('scenario_id', 'is', null)
    .where('scenario_name', 'is', null)
    .where(
      sql<boolean>`result ->> 'status' in ('optimal', 'time-limit') and result -> 'costs' <> 'null'::jsonb`,
    )
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!run) return null;
  type Cell = { region: string; family: string; period: string; units: number };
  const [outbound, unmet] = await Promise.all([
    sql<Cell>`
      select f ->> 'to' as region, f ->> 'family' as family, f ->> 'period' as period,
        sum((f ->> 'units')::float8)::float8 as units
      from optimisation_runs r, jsonb_array_elements(r.result -> 'flows') f
      where r.id = ${run.id} and f ->> 'leg' = 'outbound'
      group by 1, 2, 3`.execute(db),
    sql<Cell>`
      select u ->> 'region' as region, u ->> 'family' as family, u ->> 'period' as period,
        sum((u ->> 'units')::float8)::float8 as units
      from optimisation_runs r, jsonb_array_elements(r.result -> 'unmet') u
      where r.id = ${run.id}
      group by 1, 2, 3`.execute(db),
  ]);
  return { runId: run.id, granularity: run.granularity, outbound: outbound.rows, unmet: unmet.rows };
}

export async function writeProjectionSource(
  db: Db,
  source: { runId: number | null; networkWeeks: number },
): Promise<void> {
  const values = { supply_run_id: source.runId, network_weeks: source.networkWeeks, computed_at: new Date() };
  await db
    .insertInto('inventory_projection_source')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function readProjectionSource(
  db: Db,
): Promise<{ supply_run_id: number | null; network_weeks: number } | undefined> {
  return db
    .selectFrom('inventory_projection_source')
    .select(['supply_run_id', 'network_weeks'])
    .where('id', '=', 1)
    .executeTakeFirst();
}
