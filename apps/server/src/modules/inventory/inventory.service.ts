import {
  addWeeks,
  cycleServiceLevel,
  demandVolatility,
  INTERMITTENT_ADI,
  INVENTORY_PAGE_SIZE,
  inventoryTurnover,
  fillRate,
  optimizationScore,
  oulLevels,
  networkPeriodOfWeek,
  openOrderPipeline,
  normalOul,
  quantileExcessOf,
  safetyStock,
  Z_VALUES,
  overridePercentFromUnits,
  overrideUnitsFromPercent,
  recommendedOul,
  recommendedServiceLevel,
  roundToCents,
  servedShareOf,
  servedShares,
  simulateOulPolicy,
  supplyVariance,
  toIsoDate,
  weekStartSunday,
  withNetworkSupply,
  type InventoryChange,
  type QuantileExcess,
  type InventoryFilters,
  type InventoryMetrics,
  type InventoryPage,
  type InventoryRow,
  type SdMatch,
} from '@ps/domain';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, InventoryAuditTable, InventoryWeekTotalsTable } from '../../db/schema';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import {
  filterOptions,
  futurePlans,
  insertAudit,
  largestChanges,
  latestNetworkPlan,
  hasRow,
  listAudit,
  listRows,
  loadedOpenOrders,
  lockRows,
  openOrders,
  policyRows,
  productDemandStats,
  readProjectionSource,
  stockedForecastQuantiles,
  replaceProjectionTotals,
  summarize,
  targetBand,
  weekTotals,
  worstMatched,
  writeOverrides,
  writeProjectionSource,
  writeRecomputed,
  type InventoryRowRecord,
  type OverrideWrite,
  type RecomputedRow,
} from './inventory.repository';

/** Weeks of final plan the OUL's μ averages and the supply projection covers. */
export const PROJECTION_WEEKS = 13;
/** Weeks of forecast error σ is measured over. */
export const ERROR_WEEKS = 13;
/** The control tower's service level target (spec §2). */
export const SERVICE_TARGET = 95;
const WORST_MATCHED = 10;
const OPEN_ORDER_WEEKS = 8;

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(Number((value * factor).toPrecision(12))) / factor;
};

function toRow(r: InventoryRowRecord): InventoryRow {
  return {
    id: `${r.pid}|${r.site}`,
    sku: r.pid,
    site: r.site,
    region: r.region,
    category: r.pf,
    businessUnit: r.bu,
    revenueClass: r.class,
    unitCost: r.unit_cost,
    avgDemand: round(r.avg_demand, 2),
    stdDemand: round(r.std_demand, 2),
    demandModel: r.demand_model,
    leadTime: r.lead_time_weeks,
    leadTimeSd: r.lead_time_sd_weeks,
    reviewPeriod: r.review_period_weeks,
    replenishmentFreq: r.replenishment_frequency_weeks,
    onHand: r.on_hand_units,
    targetOUL90: r.oul_90,
    targetOUL95: r.oul_95,
    targetOUL98: r.oul_98,
    recommendedServiceLevel: recommendedServiceLevel(r.class),
    recommendedOULTarget: r.recommended_oul,
    safetyStock: r.safety_stock_units === null ? null : round(r.safety_stock_units, 2),
    safetyStockNormal: r.safety_stock_normal_units === null ? null : round(r.safety_stock_normal_units, 2),
    overrideOULUnits: r.override_oul_units,
    overridePercentage: r.override_percent,
    reasonCode: r.override_reason,
    comments: r.override_comments,
    overrideUser: r.override_user,
    overrideTimestamp: r.override_at ? new Date(r.override_at).toISOString() : null,
    lastUpdated: new Date(r.updated_at).toISOString(),
    version: r.version,
  };
}

type Key = { sku: string; site: string };
type Scalar = string | number | null;

/**
 * What one change makes of a row (spec §5): units set the percent, a percent sets the units, null
 * clears the override with its user and time. An override needs a reason code.
 */
function applyChange(
  row: InventoryRowRecord,
  change: InventoryChange,
  user: string,
  at: Date,
): { write: OverrideWrite; changed: Array<[string, Scalar, Scalar]> } | null {
  let units = row.override_oul_units;
  let percent = row.override_percent;
  const typedPercent =
    change.overridePercentage === undefined || change.overridePercentage === null
      ? null
      : round(change.overridePercentage, 1);
  if (change.overrideOULUnits !== undefined) {
    units = change.overrideOULUnits;
    // Units and the percent they were derived from arrive together: the percent typed is kept.
    const fromTypedPercent =
      typedPercent !== null && units === overrideUnitsFromPercent(typedPercent, row.recommended_oul);
    percent =
      units === null
        ? null
        : fromTypedPercent
          ? typedPercent
          : overridePercentFromUnits(units, row.recommended_oul);
  } else if (change.overridePercentage !== undefined) {
    percent = change.overridePercentage === null ? null : round(change.overridePercentage, 1);
    units = percent === null ? null : overrideUnitsFromPercent(percent, row.recommended_oul);
  }
  const cleared = units === null;
  const reason = cleared ? null : change.reasonCode !== undefined ? change.reasonCode : row.override_reason;
  const comments = cleared ? null : change.comments !== undefined ? change.comments : row.override_comments;
  if (!cleared && !reason) {
    throw AppError.validation('reasonCode is required when an override is set', 'reasonCode');
  }
  const changed: Array<[string, Scalar, Scalar]> = (
    [
      ['overrideOULUnits', row.override_oul_units, units],
      ['overridePercentage', row.override_percent, percent],
      ['reasonCode', row.override_reason, reason],
      ['comments', row.override_comments, comments],
    ] as Array<[string, Scalar, Scalar]>
  ).filter(([, before, after]) => (before ?? null) !== (after ?? null));
  if (changed.length === 0) return null;
  return {
    write: {
      pid: row.pid,
      site: row.site,
      override_oul_units: units,
      override_percent: percent,
      override_reason: reason,
      override_comments: comments,
      override_user: cleared ? null : user,
      override_at: cleared ? null : at,
    },
    changed,
  };
}

const text = (value: Scalar): string | null => (value === null ? null : String(value));

export class InventoryService {
  constructor(private readonly db: Kysely<Database>) {}

  async page(
    access: AccessScope,
    query: InventoryFilters & { page: number; clientContext?: string | undefined },
  ): Promise<InventoryPage> {
    const { clientIds } = narrowToContext(access, query.clientContext);
    const filters: InventoryFilters = {
      category: query.category,
      businessUnit: query.businessUnit,
      region: query.region,
      site: query.site,
      sku: query.sku,
      search: query.search,
    };
    const [rows, summary, changes] = await Promise.all([
      listRows(this.db, clientIds, filters, {
        offset: (query.page - 1) * INVENTORY_PAGE_SIZE,
        limit: INVENTORY_PAGE_SIZE,
      }),
      summarize(this.db, clientIds, filters),
      largestChanges(this.db, clientIds, filters),
    ]);
    const avgOverridePercent = round(summary.avg_override_change ?? 0, 1);
    return {
      items: rows.map(toRow),
      total: summary.total,
      page: query.page,
      pageSize: INVENTORY_PAGE_SIZE,
      summary: {
        totalItems: summary.total,
        modifiedItems: summary.modified_today,
        overridesActive: summary.overrides_active,
        avgOverridePercent,
        safetyStockUnits: round(summary.safety_stock, 2),
        safetyStockNormalUnits: round(summary.safety_stock_normal, 2),
      },
      insights: {
        itemsOver150: summary.over_150,
        avgOverridePercent,
        largestChanges: changes.map((c) => ({
          sku: c.pid,
          site: c.site,
          recommendedOULTarget: c.recommended_oul,
          overrideOULUnits: c.override_oul_units,
          changePercent: round(overridePercentFromUnits(c.override_oul_units, c.recommended_oul) - 100, 1),
        })),
      },
    };
  }

  filterOptions(access: AccessScope, clientContext: string | undefined) {
    return filterOptions(this.db, narrowToContext(access, clientContext).clientIds);
  }

  async update(access: AccessScope, key: Key, change: InventoryChange): Promise<InventoryRow> {
    const { items } = await this.save(access, [{ ...change, ...key }]);
    return items[0]!;
  }

  /** All changes or none: an unknown row is 404, a stale version 409, each changed field audited. */
  async save(
    access: AccessScope,
    changes: ReadonlyArray<InventoryChange & Key>,
  ): Promise<{ updated: number; items: InventoryRow[] }> {
    const seen = new Set<string>();
    for (const [index, change] of changes.entries()) {
      const id = `${change.sku}|${change.site}`;
      if (seen.has(id))
        throw AppError.validation(
          `changes.${index} repeats ${change.sku} at ${change.site}`,
          `changes.${index}`,
        );
      seen.add(id);
    }
    return this.db.transaction().execute(async (trx) => {
      const keys = changes.map((c) => ({ pid: c.sku, site: c.site }));
      const rows = new Map(
        (await lockRows(trx, access.clientIds, keys)).map((r) => [`${r.pid}|${r.site}`, r]),
      );
      const at = new Date();
      const writes: OverrideWrite[] = [];
      const audit: Array<Insertable<InventoryAuditTable>> = [];
      for (const change of changes) {
        const row = rows.get(`${change.sku}|${change.site}`);
        if (!row) throw AppError.notFound(`No inventory row ${change.sku} at ${change.site}`);
        if (row.version !== change.version) {
          throw new AppError(
            'STALE',
            `${change.sku} at ${change.site} was changed by someone else (now version ${row.version}); reload and try again`,
          );
        }
        const applied = applyChange(row, change, access.userName, at);
        if (!applied) continue;
        writes.push(applied.write);
        for (const [field, before, after] of applied.changed) {
          audit.push({
            client_id: row.client_id,
            pid: row.pid,
            site: row.site,
            field,
            old_value: text(before),
            new_value: text(after),
            reason_code: change.reasonCode ?? applied.write.override_reason,
            comments: change.comments ?? applied.write.override_comments,
            changed_by: access.userName,
            source: changes.length > 1 ? 'bulk-confirm' : 'confirm',
          });
        }
      }
      await writeOverrides(trx, writes);
      await insertAudit(trx, audit);
      const after = await lockRows(trx, access.clientIds, keys);
      const order = new Map(keys.map((k, i) => [`${k.pid}|${k.site}`, i]));
      after.sort((a, b) => order.get(`${a.pid}|${a.site}`)! - order.get(`${b.pid}|${b.site}`)!);
      return { updated: writes.length, items: after.map(toRow) };
    });
  }

  /** A row's changes, newest first; a row the caller cannot see is 404 like an unknown one. */
  async audit(access: AccessScope, key: Key) {
    if (!(await hasRow(this.db, access.clientIds, { pid: key.sku, site: key.site })))
      throw AppError.notFound(`No inventory row ${key.sku} at ${key.site}`);
    const rows = await listAudit(this.db, access.clientIds, { pid: key.sku, site: key.site });
    return rows.map((r) => ({
      field: r.field,
      oldValue: r.old_value,
      newValue: r.new_value,
      reasonCode: r.reason_code,
      comments: r.comments,
      changedBy: r.changed_by,
      changedAt: new Date(r.changed_at).toISOString(),
    }));
  }

  async metrics(access: AccessScope, clientContext: string | undefined): Promise<InventoryMetrics> {
    const totals = await weekTotals(this.db, narrowToContext(access, clientContext).clientIds, 'history');
    type Sums = { value: number; cogs: number; items: number; stockouts: number };
    const add = (map: Map<string, Sums>, key: string, t: (typeof totals)[number]): void => {
      const sum = map.get(key) ?? { value: 0, cogs: 0, items: 0, stockouts: 0 };
      sum.value += t.on_hand_value;
      sum.cogs += t.cogs;
      sum.items += t.items;
      sum.stockouts += t.stockout_items;
      map.set(key, sum);
    };
    const byWeek = new Map<string, Sums>();
    const byBu = new Map<string, Sums>();
    const latestByBu = new Map<string, Sums>();
    const lastWeek = totals.at(-1)?.week_start ?? null;
    for (const t of totals) {
      add(byWeek, t.week_start, t);
      add(byBu, t.bu, t);
      if (t.week_start === lastWeek) add(latestByBu, t.bu, t);
    }
    const weekCount = byWeek.size;
    const overall = [...byWeek.values()].reduce(
      (s, w) => ({
        value: s.value + w.value,
        cogs: s.cogs + w.cogs,
        items: s.items + w.items,
        stockouts: s.stockouts + w.stockouts,
      }),
      { value: 0, cogs: 0, items: 0, stockouts: 0 },
    );
    // Turnover over the period = COGS of the period / average weekly inventory value.
    const turnover = (s: Sums): number =>
      round(inventoryTurnover(s.cogs, weekCount ? s.value / weekCount : 0), 2);
    return {
      asOf: lastWeek,
      serviceTarget: SERVICE_TARGET,
      cards: {
        totalInventoryValue: roundToCents(lastWeek ? byWeek.get(lastWeek)!.value : 0),
        inventoryTurnover: turnover(overall),
        stockouts: overall.stockouts,
        serviceLevel: round(cycleServiceLevel(overall.items, overall.stockouts), 2),
      },
      weeks: [...byWeek.entries()].map(([week, s]) => ({
        week,
        inventoryValue: roundToCents(s.value),
        // One week's COGS over its stock, times 52: the yearly pace that week.
        turnover: round(inventoryTurnover(s.cogs * 52, s.value), 2),
        stockouts: s.stockouts,
        serviceLevel: round(cycleServiceLevel(s.items, s.stockouts), 2),
      })),
      byBusinessUnit: [...byBu.entries()]
        .map(([bu, s]) => ({
          businessUnit: bu,
          inventoryValue: roundToCents(latestByBu.get(bu)?.value ?? 0),
          turnover: turnover(s),
          stockouts: s.stockouts,
          serviceLevel: round(cycleServiceLevel(s.items, s.stockouts), 2),
        }))
        .sort((a, b) => b.inventoryValue - a.inventoryValue || a.businessUnit.localeCompare(b.businessUnit)),
    };
  }

  async sdMatch(access: AccessScope, clientContext: string | undefined): Promise<SdMatch> {
    const { clientIds } = narrowToContext(access, clientContext);
    const [totals, band, worst, source] = await Promise.all([
      weekTotals(this.db, clientIds, 'projection'),
      targetBand(this.db, clientIds),
      worstMatched(this.db, clientIds, WORST_MATCHED),
      readProjectionSource(this.db),
    ]);
    const byWeek = new Map<string, { supply: number; demand: number; lost: number }>();
    for (const t of totals) {
      const sum = byWeek.get(t.week_start) ?? { supply: 0, demand: 0, lost: 0 };
      sum.supply += t.supply_units;
      sum.demand += t.demand_units;
      sum.lost += t.lost_units;
      byWeek.set(t.week_start, sum);
    }
    const all = [...byWeek.values()].reduce(
      (s, w) => ({ supply: s.supply + w.supply, demand: s.demand + w.demand, lost: s.lost + w.lost }),
      { supply: 0, demand: 0, lost: 0 },
    );
    return {
      horizonWeeks: byWeek.size,
      supplySource: source?.supply_run_id
        ? { kind: 'network', runId: source.supply_run_id, networkWeeks: source.network_weeks }
        : { kind: 'policy', runId: null, networkWeeks: 0 },
      cards: {
        matchRate: round(fillRate(all.demand, all.lost), 2),
        supplyVariance: round(supplyVariance(all.supply, all.demand), 2),
        demandVolatility: round(demandVolatility(band.sum_std, band.sum_avg), 2),
        optimizationScore: round(optimizationScore(band.in_band, band.items), 2),
      },
      weeks: [...byWeek.entries()].map(([week, s]) => ({
        week,
        supply: s.supply,
        demand: s.demand,
        matchRate: round(fillRate(s.demand, s.lost), 2),
      })),
      worst: worst.map((w) => ({
        sku: w.pid,
        site: w.site,
        businessUnit: w.bu,
        supply: w.supply,
        demand: w.demand,
        gap: w.gap,
        matchRate: round(fillRate(w.demand, w.gap), 2),
      })),
    };
  }
}

/**
 * Recomputes every row's demand statistics, order-up-to levels and supply projection from the
 * demand records (docs/inventory.md): μ = mean final plan of the next 13 weeks, σ = RMS forecast
 * error of the last 13, per site by its demand share. Run after every forecast run and by the seed.
 */
export async function recomputeInventory(
  db: Kysely<Database>,
  options: { asOf: Date },
): Promise<{ rows: number }> {
  const asOfDate = weekStartSunday(options.asOf);
  const asOf = toIsoDate(asOfDate);
  const stats = new Map(
    (await productDemandStats(db, asOf, PROJECTION_WEEKS, ERROR_WEEKS)).map((s) => [s.pid, s]),
  );
  const excessByPid = new Map<string, QuantileExcess>();
  for (const q of await stockedForecastQuantiles(db)) {
    const excess = quantileExcessOf(q.quantiles);
    if (excess) excessByPid.set(q.pid, excess);
  }
  const weekStarts = Array.from({ length: PROJECTION_WEEKS }, (_, w) => toIsoDate(addWeeks(asOfDate, w)));
  const weekIndex = new Map(weekStarts.map((week, w) => [week, w] as const));
  const plans = new Map<string, number[]>();
  for (const p of await futurePlans(db, asOf, PROJECTION_WEEKS)) {
    const w = weekIndex.get(p.week_start);
    if (w === undefined) continue;
    const series = plans.get(p.pid) ?? new Array<number>(PROJECTION_WEEKS).fill(0);
    series[w] = p.units;
    plans.set(p.pid, series);
  }
  const orders = new Map<string, Array<{ weeksBefore: number; units: number }>>();
  for (const o of await openOrders(db, asOf, OPEN_ORDER_WEEKS)) {
    const weeksBefore = Math.round((Date.parse(asOf) - Date.parse(o.week_start)) / (7 * 86_400_000));
    const key = `${o.pid}|${o.site}`;
    const list = orders.get(key) ?? [];
    list.push({ weeksBefore, units: o.ordered_units });
    orders.set(key, list);
  }
  // A product × site with loaded order lines takes its receipts from its open lines at their due
  // dates; the others from the orders of the simulated history.
  const loaded = new Map<string, Array<{ dueDate: string; units: number }>>();
  for (const o of await loadedOpenOrders(db)) {
    const key = `${o.pid}|${o.site}`;
    const list = loaded.get(key) ?? [];
    if (o.status === 'open') list.push({ dueDate: o.due_date, units: o.quantity });
    loaded.set(key, list);
  }
  // Supply from the network plan where the latest baseline solve planned the week's period.
  const plan = await latestNetworkPlan(db);
  const shares = plan ? servedShares(plan.outbound, plan.unmet) : new Map<string, number>();
  const weekPeriods = weekStarts.map((week) => (plan ? networkPeriodOfWeek(week, plan.granularity) : ''));
  const plannedPeriods = new Set(plan ? [...plan.outbound, ...plan.unmet].map((c) => c.period) : []);
  const networkWeeks = weekPeriods.filter((period) => plannedPeriods.has(period)).length;
  const recomputed: RecomputedRow[] = [];
  const totals = new Map<string, InventoryWeekTotalsTable>();
  for (const row of await policyRows(db)) {
    const s = stats.get(row.pid);
    if (!s) continue;
    const mu = (s.plan_mean ?? s.actual_mean ?? 0) * row.demand_share;
    const sigma = (s.error_sd ?? s.actual_sd ?? 0) * row.demand_share;
    const adi = s.demand_weeks > 0 ? s.past_weeks / s.demand_weeks : Infinity;
    const cycle = Math.max(row.review_period_weeks, row.replenishment_frequency_weeks);
    const excess = excessByPid.get(row.pid);
    const levels = oulLevels({
      avgDemand: mu,
      stdDemand: sigma,
      leadTimeWeeks: row.lead_time_weeks,
      leadTimeSdWeeks: row.lead_time_sd_weeks,
      reviewPeriodWeeks: cycle,
      intermittent: (s.past_weeks > 0 && adi > INTERMITTENT_ADI) || mu < 1,
      ...(excess ? { quantiles: { excess, share: row.demand_share } } : {}),
    });
    const recommended = recommendedOul(levels, s.class);
    const cover = row.lead_time_weeks + cycle;
    // What the normal approximation of the RMS error would have set at the same level.
    const normalRecommended = normalOul(
      mu,
      sigma,
      cover,
      Z_VALUES[recommendedServiceLevel(s.class)],
      row.lead_time_sd_weeks,
    );
    const demand = (plans.get(row.pid) ?? new Array<number>(PROJECTION_WEEKS).fill(0)).map((units) =>
      Math.round(units * row.demand_share),
    );
    const lines = loaded.get(`${row.pid}|${row.site}`);
    const pipeline = lines
      ? openOrderPipeline(asOf, lines, PROJECTION_WEEKS)
      : new Array<number>(PROJECTION_WEEKS).fill(0);
    // An order placed k weeks before now, with lead time L, arrives in projection week L − k.
    for (const o of lines ? [] : (orders.get(`${row.pid}|${row.site}`) ?? [])) {
      const arrives = row.lead_time_weeks - o.weeksBefore;
      if (arrives >= 0 && arrives < PROJECTION_WEEKS) pipeline[arrives]! += o.units;
    }
    const policy = simulateOulPolicy({
      demand,
      oulAt: () => row.override_oul_units ?? recommended,
      leadTimeWeeks: row.lead_time_weeks,
      reviewPeriodWeeks: cycle,
      initialOnHand: row.on_hand_units,
      pipeline,
    });
    const weeks =
      networkWeeks > 0
        ? withNetworkSupply(policy, (w) =>
            // In a planned period a cell the plan had no demand for gets nothing shipped.
            plannedPeriods.has(weekPeriods[w]!)
              ? (servedShareOf(shares, {
                  region: row.product_region,
                  family: row.pf,
                  period: weekPeriods[w]!,
                }) ?? 0)
              : undefined,
          )
        : policy;
    let supply = 0;
    let planned = 0;
    let shortfall = 0;
    weeks.forEach((week, w) => {
      supply += week.receipts;
      planned += week.demand;
      shortfall += week.lost;
      const weekStart = weekStarts[w]!;
      const key = `${s.client_id}|${s.bu}|${weekStart}`;
      const t = totals.get(key) ?? {
        client_id: s.client_id,
        bu: s.bu,
        week_start: weekStart,
        kind: 'projection' as const,
        items: 0,
        demand_units: 0,
        supply_units: 0,
        gap_units: 0,
        lost_units: 0,
        stockout_items: 0,
        on_hand_value: 0,
        cogs: 0,
      };
      t.items += 1;
      t.demand_units += week.demand;
      t.supply_units += week.receipts;
      t.gap_units += Math.abs(week.receipts - week.demand);
      t.lost_units += week.lost;
      t.stockout_items += week.lost > 0 ? 1 : 0;
      t.on_hand_value = roundToCents(t.on_hand_value + week.onHand * row.unit_cost);
      t.cogs = roundToCents(t.cogs + (week.demand - week.lost) * row.unit_cost);
      totals.set(key, t);
    });
    recomputed.push({
      pid: row.pid,
      site: row.site,
      avg_demand: mu,
      std_demand: sigma,
      demand_model: levels.model,
      oul_90: levels.oul90,
      oul_95: levels.oul95,
      oul_98: levels.oul98,
      recommended_oul: recommended,
      safety_stock_units: safetyStock(recommended, mu, cover),
      safety_stock_normal_units: safetyStock(normalRecommended, mu, cover),
      sd_supply_units: supply,
      sd_demand_units: planned,
      sd_gap_units: shortfall,
    });
  }
  const write = async (trx: Transaction<Database>): Promise<void> => {
    for (let start = 0; start < recomputed.length; start += 5000) {
      await writeRecomputed(trx, recomputed.slice(start, start + 5000));
    }
    await replaceProjectionTotals(trx, [...totals.values()]);
    await writeProjectionSource(trx, { runId: networkWeeks > 0 ? plan!.runId : null, networkWeeks });
  };
  // The start-up seed runs in one transaction of its own (seed-if-empty); a run after a forecast does not.
  if (db.isTransaction) await write(db as Transaction<Database>);
  else await db.transaction().execute(write);
  return { rows: recomputed.length };
}

/**
 * The last step of a forecast run (new plan, new errors) and of a baseline network solve (new
 * supply plan): a failure here is logged, never fails the run that succeeded.
 */
export async function recomputeInventoryAfterForecast(
  db: Kysely<Database>,
  log: { info: (msg: string) => void; error: (obj: unknown, msg: string) => void },
  asOf: Date,
  trigger = 'forecast run',
): Promise<void> {
  const started = performance.now();
  try {
    const { rows } = await recomputeInventory(db, { asOf });
    log.info(
      `Inventory recomputed after ${trigger}: ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    log.error({ err: error }, `inventory recompute after ${trigger} failed`);
  }
}
