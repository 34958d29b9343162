import {
  CLIENT_IDS,
  errorMetrics,
  fiscalQuarterKey,
  PRODUCT_ROW_LIMIT,
  shiftQuarter,
  toIsoDate,
  type AccuracyReport,
  type AccuracyRow,
  type ClientId,
  type ErrorSums,
  type ExceptionKind,
  type ExceptionRow,
  type FvaFigures,
  type Money,
  type PlanSeries,
  type TrackerCell,
  type Worksheet,
  type WorksheetFilters,
  type WorksheetQuarter,
  sundaysInQuarter,
  weeksBetween,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { Database } from '../../db/schema';
import {
  accuracySums,
  companyPlanQuarters,
  exceptionSums,
  filterOptions,
  latestCycles,
  marketingQuarters,
  modelsOf,
  productPlanQuarters,
  replaceSeenExceptions,
  searchProducts,
  snapshotWeekCount,
  type AccuracyGroupRow,
  type CycleRow,
  type ExceptionRules,
  type PlanQuarterRow,
} from './control-tower.repository';

/** Display names of the clients (the worksheet's companies). */
const COMPANY_NAMES: Record<ClientId, string> = { internal: 'Internal', circor: 'CIRCOR' };

/** 'CIRCOR Aerospace' → 'CA', 'Pumps & Flow' → 'PF': the business unit's code shown in brackets. */
export function businessUnitCode(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

/**
 * Exception queue rules (docs/metrics.md "Exception queue"). The recent weeks' signals are
 * summed by migrations 0018 and 0028, which keep their own copy of `recentWeeks`.
 */
const EXCEPTION_RULES: ExceptionRules = {
  largeErrorShare: 0.1,
  recentWeeks: 4,
  persistentBiasPercent: 20,
  overrideHurtPoints: 5,
};
const EXCEPTION_LIMIT = 200;

const toCycle = (row: CycleRow | undefined) =>
  row ? { label: row.label, cycle: row.cycle, publishedAt: new Date(row.published_at).toISOString() } : null;

const sumsOf = (row: AccuracyGroupRow): ErrorSums => ({
  n: row.n,
  absError: row.final_abs,
  error: row.final_err,
  actual: row.actual,
  ape: row.final_ape,
  apeCount: row.ape_n,
  naiveAbsError: row.naive_abs,
});

const wape = (abs: number, actual: number): number | null =>
  actual > 0 ? Math.round((abs / actual) * 10_000) / 100 : null;

const fvaOf = (row: AccuracyGroupRow): FvaFigures => ({
  naive: wape(row.naive_abs, row.actual),
  statistical: wape(row.stat_abs, row.actual),
  prelim: wape(row.prelim_abs, row.actual),
  final: wape(row.final_abs, row.actual),
});

/**
 * Control tower: the Demand Planning Review worksheet, forecast accuracy and value
 * add from the forecast snapshots, the exception queue and the customer home's figures. Every
 * read is limited to the caller's clients (formulas: docs/metrics.md "Control tower").
 */
export class ControlTowerService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async filters(scope: AccessScope, clientContext: string | undefined): Promise<WorksheetFilters> {
    const rows = await filterOptions(this.db, narrowToContext(scope, clientContext).clientIds);
    const companies = [...new Set(rows.map((r) => r.client_id))];
    const units = [...new Map(rows.map((r) => [`${r.client_id}\u0000${r.bu}`, r])).values()];
    return {
      companies: companies.map((id) => ({ id, name: COMPANY_NAMES[id] ?? id })),
      businessUnits: units.map((r) => ({
        id: r.bu,
        name: r.bu,
        code: businessUnitCode(r.bu),
        companyId: r.client_id,
      })),
      productFamilies: rows.map((r) => ({
        id: r.pf,
        name: r.pf,
        companyId: r.client_id,
        businessUnitId: r.bu,
      })),
    };
  }

  /** The company asked for, if the caller may see it; otherwise 404 (another client's data does not exist for them). */
  private company(scope: AccessScope, clientContext: string | undefined, company: string): ClientId {
    const allowed = narrowToContext(scope, clientContext).clientIds;
    const clientId = CLIENT_IDS.find((id) => id === company);
    if (!clientId || !allowed.includes(clientId)) throw AppError.notFound(`Company ${company} not found`);
    return clientId;
  }

  async worksheet(
    scope: AccessScope,
    query: {
      clientContext?: string | undefined;
      company: string;
      businessUnit: string;
      productFamily?: string | undefined;
      pid?: string | undefined;
    },
  ): Promise<Worksheet> {
    const clientId = this.company(scope, query.clientContext, query.company);
    const today = this.now();
    const cycles = (await latestCycles(this.db, [clientId])).filter((c) => c.client_id === clientId);
    const [company, product, marketing] = await Promise.all([
      companyPlanQuarters(this.db, clientId),
      query.pid === undefined ? Promise.resolve(null) : productPlanQuarters(this.db, clientId, query.pid),
      marketingQuarters(
        this.db,
        clientId,
        cycles.map((c) => c.cycle),
      ),
    ]);
    if (query.pid !== undefined && product?.length === 0)
      throw AppError.notFound(`Product ${query.pid} not found`);
    const [current, previous] = cycles;
    const selected =
      product ??
      company.filter(
        (r) =>
          r.bu === query.businessUnit && (query.productFamily === undefined || r.pf === query.productFamily),
      );
    // Marketing plans are made per family and region; a single product gets its share of its
    // family-region's plan (docs/metrics.md "Data behind the screens").
    const shares = product ? productShares(product, company) : null;
    const inSelection = (m: { bu: string; region: string; pf: string; quarter: string }) =>
      shares
        ? shares.has(cellKey(m))
        : m.bu === query.businessUnit && (query.productFamily === undefined || m.pf === query.productFamily);

    const quarters = new Map<string, WorksheetQuarter>();
    const quarterOf = (quarter: string): WorksheetQuarter => {
      const existing = quarters.get(quarter);
      if (existing) return existing;
      const created: WorksheetQuarter = {
        quarter,
        coverage: { weeks: 0, of: sundaysInQuarter(quarter) },
        actualBooking: null,
        prelimDemandPlan: null,
        finalDemandPlan: null,
        marketingForecast: null,
        pubEnsembleForecast: null,
        p1FinalDemandPlan: null,
        p1MarketingForecast: null,
      };
      quarters.set(quarter, created);
      return created;
    };
    const add = (q: WorksheetQuarter, series: PlanSeries, revenue: number, cost: number) => {
      const before: Money = q[series] ?? { revenue: 0, cost: 0 };
      q[series] = { revenue: cents(before.revenue + revenue), cost: cents(before.cost + cost) };
    };
    const spans = new Map<string, { first: string; last: string }>();
    for (const row of selected) {
      const q = quarterOf(row.quarter);
      const span = spans.get(row.quarter);
      spans.set(row.quarter, {
        first: span && span.first < row.first_week ? span.first : row.first_week,
        last: span && span.last > row.last_week ? span.last : row.last_week,
      });
      if (row.act_n > 0) add(q, 'actualBooking', row.act_rev, row.act_cost);
      if (row.prelim_n > 0) add(q, 'prelimDemandPlan', row.prelim_rev, row.prelim_cost);
      if (row.final_n > 0) add(q, 'finalDemandPlan', row.final_rev, row.final_cost);
      if (row.p1_n > 0) add(q, 'p1FinalDemandPlan', row.p1_rev, row.p1_cost);
      if (row.ens_n > 0) add(q, 'pubEnsembleForecast', row.ens_rev, row.ens_cost);
    }
    // Two publishes in one week share a cycle key: its marketing plan is then P0's and P1's.
    const marketingSeries = [
      { series: 'marketingForecast', cycle: current?.cycle, basis: 'final' },
      { series: 'p1MarketingForecast', cycle: previous?.cycle, basis: 'p1' },
    ] as const;
    for (const row of marketing.filter(inSelection)) {
      if (!quarters.has(row.quarter)) continue;
      for (const { series, cycle, basis } of marketingSeries) {
        if (row.cycle !== cycle) continue;
        const share = shares?.get(cellKey(row))?.[basis] ?? { revenue: 1, cost: 1 };
        add(quarterOf(row.quarter), series, row.revenue * share.revenue, row.cost * share.cost);
      }
    }

    for (const [quarter, span] of spans)
      quarters.get(quarter)!.coverage.weeks = weeksBetween(span.first, span.last) + 1;

    const marketingByCell = new Map<string, Money>();
    for (const row of marketing.filter((m) => m.cycle === current?.cycle)) {
      marketingByCell.set(cellKey(row), {
        revenue: row.revenue,
        cost: row.cost,
      });
    }
    return {
      currentQuarter: fiscalQuarterKey(today),
      asOf: toIsoDate(today),
      currentCycle: toCycle(current),
      previousCycle: toCycle(previous),
      quarters: [...quarters.values()].sort((a, b) => a.quarter.localeCompare(b.quarter)),
      tracker: company.map((row) => trackerCell(row, marketingByCell)),
    };
  }

  async products(
    scope: AccessScope,
    query: { clientContext?: string | undefined; company: string; search?: string | undefined },
  ) {
    return searchProducts(this.db, this.company(scope, query.clientContext, query.company), query.search);
  }

  async accuracy(
    scope: AccessScope,
    clientContext: string | undefined,
    lag: number,
  ): Promise<AccuracyReport> {
    const { clientIds } = narrowToContext(scope, clientContext);
    const [rows, exceptions] = await Promise.all([
      accuracySums(this.db, clientIds, lag, PRODUCT_ROW_LIMIT),
      this.exceptions(scope, clientContext, lag),
    ]);
    const overall = rows.find((r) => r.g_bu === 1 && r.g_reason === 1);
    const snapshots =
      overall?.from_week && overall.to_week
        ? await snapshotWeekCount(this.db, clientIds, lag, overall.from_week, overall.to_week)
        : 0;
    const shown = rows
      .filter((r) => r.g_pid === 0 && r.g_reason === 1)
      .sort((a, b) => b.error_value - a.error_value);
    const models = await modelsOf(
      this.db,
      shown.map((r) => r.pid!),
    );
    const toRow = (row: AccuracyGroupRow): AccuracyRow => ({
      level: row.g_pid === 0 ? 'product' : row.g_pf === 0 ? 'family' : 'businessUnit',
      bu: row.bu ?? '',
      pf: row.g_pf === 0 ? row.pf : null,
      pid: row.g_pid === 0 ? row.pid : null,
      model: row.g_pid === 0 ? (models.get(row.pid!)?.model ?? null) : null,
      members: row.g_pid === 0 ? (models.get(row.pid!)?.members ?? null) : null,
      metrics: errorMetrics(sumsOf(row)),
      errorValue: cents(row.error_value),
      fva: fvaOf(row),
    });
    const byName = (a: AccuracyGroupRow, b: AccuracyGroupRow) =>
      `${a.bu}\u0000${a.pf ?? ''}`.localeCompare(`${b.bu}\u0000${b.pf ?? ''}`);
    return {
      lag,
      fromWeek: overall?.from_week ?? null,
      toWeek: overall?.to_week ?? null,
      snapshots,
      overall: errorMetrics(
        overall
          ? sumsOf(overall)
          : { n: 0, absError: 0, error: 0, actual: 0, ape: 0, apeCount: 0, naiveAbsError: 0 },
      ),
      alerts: exceptions.length,
      fva: overall ? fvaOf(overall) : { naive: null, statistical: null, prelim: null, final: null },
      byBusinessUnit: rows
        .filter((r) => r.g_bu === 0 && r.g_pf === 1)
        .sort(byName)
        .map(toRow),
      byFamily: rows
        .filter((r) => r.g_pf === 0 && r.g_pid === 1)
        .sort(byName)
        .map(toRow),
      byProduct: shown.map(toRow),
      productCount: overall?.products ?? 0,
      byReason: rows
        .filter((r) => r.g_reason === 0)
        .sort((a, b) => (a.reason_code ?? '\uffff').localeCompare(b.reason_code ?? '\uffff'))
        .map((r) => ({ reasonCode: r.reason_code, pairs: r.n, fva: fvaOf(r) })),
    };
  }

  /** The exception queue, ranked by score = money error × number of signals (docs/metrics.md). */
  async exceptions(
    scope: AccessScope,
    clientContext: string | undefined,
    lag: number,
  ): Promise<ExceptionRow[]> {
    return this.queue(narrowToContext(scope, clientContext).clientIds, lag);
  }

  private async queue(clientIds: readonly ClientId[], lag: number): Promise<ExceptionRow[]> {
    const rows = await exceptionSums(this.db, clientIds, lag, EXCEPTION_RULES, EXCEPTION_LIMIT);
    const queue = rows.map((row): ExceptionRow => {
      const kinds: ExceptionKind[] = [];
      if (row.is_large_error) kinds.push('largeError');
      if (row.is_persistent_bias) kinds.push('persistentBias');
      if (row.is_override_hurt) kinds.push('overrideHurt');
      if (row.is_outside_interval) kinds.push('outsideInterval');
      return {
        pid: row.pid,
        bu: row.bu,
        pf: row.pf,
        kinds,
        errorValue: cents(row.error_value),
        recentBias: row.recent_bias === null ? null : Math.round(row.recent_bias * 100) / 100,
        overrideCost: row.override_cost === null ? null : Math.round(row.override_cost * 100) / 100,
        weeksOutside: row.weeks_outside,
        score: cents(row.error_value * kinds.length),
      };
    });
    return queue.sort((a, b) => b.score - a.score || a.pid.localeCompare(b.pid));
  }

  /**
   * "New since last time" (docs/metrics.md "New exceptions"): each client's exception queue at
   * lag 1 (what the Alerts card opens with) against the queue its previous check saw; the
   * products that were not in it are new, and the queue now becomes what the next check compares
   * with. Answers the number of new items per client.
   */
  async newExceptions(clientIds: readonly ClientId[]): Promise<Map<ClientId, number>> {
    const queues = await this.refreshQueues(clientIds);
    return new Map([...queues].map(([clientId, { fresh }]) => [clientId, fresh]));
  }

  /** As `newExceptions`, with each client's queue length beside its new items. */
  async refreshQueues(
    clientIds: readonly ClientId[],
  ): Promise<Map<ClientId, { items: number; fresh: number }>> {
    const queues = new Map<ClientId, { items: number; fresh: number }>();
    for (const clientId of clientIds) {
      const queue = await this.queue([clientId], 1);
      const fresh = await replaceSeenExceptions(
        this.db,
        clientId,
        queue.map((row) => row.pid),
      );
      queues.set(clientId, { items: queue.length, fresh });
    }
    return queues;
  }

  async home(scope: AccessScope, clientContext: string | undefined) {
    const { clientIds } = narrowToContext(scope, clientContext);
    const today = this.now();
    const currentQuarter = fiscalQuarterKey(today);
    const horizon = [0, 1, 2, 3].map((i) => shiftQuarter(currentQuarter, i));
    const [plans, accuracy, cycles] = await Promise.all([
      Promise.all(clientIds.map((id) => companyPlanQuarters(this.db, id))),
      this.accuracy(scope, clientContext, 1),
      latestCycles(this.db, clientIds),
    ]);
    const ahead = plans.flat().filter((r: PlanQuarterRow) => horizon.includes(r.quarter));
    const last = cycles[0];
    return {
      currentQuarter,
      planRevenue: cents(ahead.reduce((s, r) => s + r.final_rev, 0)),
      planCost: cents(ahead.reduce((s, r) => s + r.final_cost, 0)),
      accuracy: accuracy.overall.accuracy,
      bias: accuracy.overall.bias,
      alerts: accuracy.alerts,
      lastCycle: last
        ? {
            label: last.label,
            publishedAt: new Date(last.published_at).toISOString(),
            publishedBy: last.published_by,
            revenue: cycles.filter((c) => c.cycle === last.cycle).reduce((s, c) => s + c.final_revenue, 0),
          }
        : null,
    };
  }
}

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A business unit × region × family × quarter cell, as a map key. */
const cellKey = (row: { bu: string; region: string; pf: string; quarter: string }): string =>
  JSON.stringify([row.bu, row.region, row.pf, row.quarter]);

/**
 * A product's share of its family-region cell per quarter: of the Final plan (for this cycle's
 * marketing plan) and of P1 (for the previous cycle's, which P1 was published with), revenue
 * and cost each by their own share. No share where the cell's plan is zero or missing.
 */
function productShares(
  product: readonly PlanQuarterRow[],
  company: readonly PlanQuarterRow[],
): Map<string, { final: Money; p1: Money }> {
  const cells = new Map(company.map((row) => [cellKey(row), row]));
  const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  const shares = new Map<string, { final: Money; p1: Money }>();
  for (const row of product) {
    const cell = cells.get(cellKey(row));
    if (!cell || (cell.final_rev === 0 && cell.p1_rev === 0)) continue;
    shares.set(cellKey(row), {
      final: { revenue: ratio(row.final_rev, cell.final_rev), cost: ratio(row.final_cost, cell.final_cost) },
      p1: { revenue: ratio(row.p1_rev, cell.p1_rev), cost: ratio(row.p1_cost, cell.p1_cost) },
    });
  }
  return shares;
}

function trackerCell(row: PlanQuarterRow, marketing: ReadonlyMap<string, Money>): TrackerCell {
  return {
    bu: row.bu,
    pud: row.region,
    pf: row.pf,
    quarter: row.quarter,
    finalUnits: row.final_units,
    final: { revenue: cents(row.final_rev), cost: cents(row.final_cost) },
    p1Units: row.p1_units,
    p1: { revenue: cents(row.p1_rev), cost: cents(row.p1_cost) },
    marketing: marketing.get(cellKey(row)) ?? null,
  };
}
