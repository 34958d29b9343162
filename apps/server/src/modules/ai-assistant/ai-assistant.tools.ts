import {
  MAX_LAG,
  PLAN_MEASURES,
  MIN_LAG,
  resolvePeriodRequest,
  sundayOf,
  roundToCents,
  yearEarlier,
  type PlanMeasure,
  type PeriodRequest,
  scenarioFigures,
  type AccuracyRow,
  type ClientId,
  type ResolvedPeriod,
  type ScenarioPreview,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import { exceptionQueue, forecastAccuracyReport } from '../control-tower';
import {
  accuracyFingerprint,
  dataWindow,
  historyUnits,
  largestGaps,
  largestOverrides,
  latestVersions,
  measureSums,
  productWeeks,
  recordChain,
  scenarioRecords,
  scenarioTotals,
  type DataFilter,
  type MeasureSums,
  type WeekRow,
} from './ai-assistant.repository';

/**
 * The grounded tools: plain read-only functions over the database, each scoped to the caller's
 * clients. The offline analyst and the model call the same functions, so every figure either of
 * them gives comes from here.
 */
export type ToolContext = {
  db: Kysely<Database>;
  /** The caller, narrowed to the client context they chose. */
  scope: AccessScope;
  clientIds: readonly ClientId[];
  today: string;
};

const ZName = z.string().trim().min(1).max(100);
const ZNames = z.array(ZName).max(50);

export const ZFilterInput = z.strictObject({
  client: ZNames.optional().describe('Client ids, e.g. ["circor"] (only among your own)'),
  bu: ZNames.optional().describe('Business units, e.g. ["Industrial Valves"]'),
  pf: ZNames.optional().describe('Product families, e.g. ["Ball Valves"]'),
  region: ZNames.optional().describe('Regions, e.g. ["EMEA"]'),
  site: ZNames.optional().describe('Sites, e.g. ["Dallas DC"]'),
  planner: ZNames.optional().describe('Planners who last changed the records, e.g. ["Avery Chen"]'),
  pid: z.string().trim().min(1).max(64).optional().describe('One product id, e.g. "PRD-00042"'),
});

/**
 * Periods the tools take: a quarter, month, year or week, or one relative to today on the planning
 * calendar (weeks start on Sunday and belong to the month, quarter and year of their Sunday).
 */
const PERIOD_KEY =
  /^(?:(\d{4}-)?Q[1-4]|\d{4}-(?:0[1-9]|1[0-2])|month-(?:[1-9]|1[0-2])|\d{4}|\d{4}-\d{2}-\d{2}|(?:this|next|last)-(?:week|month|quarter|year)|last-\d{1,2}-weeks|lately|ytd)$/;

export const ZPeriodInput = z
  .string()
  .regex(PERIOD_KEY, {
    error:
      'must look like 2026-Q3, Q3, 2026-11, 2026, 2026-11-15, next-quarter, last-month, last-8-weeks, lately or ytd',
  })
  .optional()
  .describe(
    'A quarter (2026-Q3, or Q3 for the one being planned), month (2026-11), year (2026), week (its Sunday, 2026-11-15), relative to today (this-week, next-quarter, last-month, last-year, last-8-weeks), lately (the last 13 weeks) or ytd; absent = all weeks',
  );

const ZMeasure = z.enum(PLAN_MEASURES);

export const TOOL_INPUTS = {
  planTotals: ZFilterInput.extend({ period: ZPeriodInput, groupBy: z.enum(['bu', 'pf']).optional() }),
  largestOverrides: ZFilterInput.extend({
    period: ZPeriodInput,
    limit: z.number().int().min(1).max(20).optional(),
  }),
  forecastAccuracy: ZFilterInput.extend({
    lag: z
      .number()
      .int()
      .min(MIN_LAG)
      .max(MAX_LAG)
      .optional()
      .describe('Weeks between the forecast snapshot and the week it forecast, 1–13; absent = 1'),
  }),
  explainRecord: z.strictObject({
    pid: z.string().trim().min(1).max(64),
    week: z.iso.date().optional().describe("The week's Sunday, yyyy-mm-dd; absent = the current week"),
  }),
  comparePlanVersions: z.strictObject({}),
  compareMeasures: ZFilterInput.extend({
    period: ZPeriodInput,
    a: ZMeasure.describe('The measure compared: actual, stat, prelim, final, p1 or p2'),
    b: ZMeasure.optional().describe('The reference it is compared with; absent with lastYear'),
    lastYear: z
      .boolean()
      .optional()
      .describe("Compare with the same weeks' actual bookings a year earlier (52 weeks) instead of b"),
    against: ZPeriodInput.describe(
      'Compare measure a over period with the same measure over this other period (e.g. period Q1, against Q4); b is then ignored',
    ),
    groupBy: z.enum(['bu', 'pf']).optional(),
  }),
  explainChange: ZFilterInput.extend({
    period: ZPeriodInput,
    measure: ZMeasure.optional().describe(
      'The measure whose change is explained (one product), default final',
    ),
    a: ZMeasure.optional().describe('With b: explain the gap a − b by product (default final − stat)'),
    b: ZMeasure.optional(),
  }),
  reviewQueue: ZFilterInput.extend({
    lag: z.number().int().min(MIN_LAG).max(MAX_LAG).optional(),
    limit: z.number().int().min(1).max(20).optional(),
  }),
  whatIfScenario: z.strictObject({
    name: z.string().trim().min(1).max(80),
    percent: z.number().min(-100).max(500),
    period: z.string().regex(/^(\d{4}-)?Q[1-4]$/),
    bu: ZName.optional(),
    pf: ZName.optional(),
  }),
};
export type ToolName = keyof typeof TOOL_INPUTS;
type Input<N extends ToolName> = z.infer<(typeof TOOL_INPUTS)[N]>;

const filterOf = (ctx: ToolContext, input: z.infer<typeof ZFilterInput>): DataFilter => ({
  clientIds: ctx.clientIds,
  ...(input.client?.length ? { client: input.client } : {}),
  ...(input.site?.length ? { site: input.site } : {}),
  ...(input.planner?.length ? { planner: input.planner } : {}),
  ...(input.bu?.length ? { bu: input.bu } : {}),
  ...(input.pf?.length ? { pf: input.pf } : {}),
  ...(input.region?.length ? { region: input.region } : {}),
  ...(input.pid ? { pid: input.pid } : {}),
});

/** A period key (PERIOD_KEY) as the planning calendar's request. */
export function periodRequest(key: string): PeriodRequest {
  let m: RegExpExecArray | null;
  if ((m = /^(?:(\d{4})-)?Q([1-4])$/.exec(key)))
    return { kind: 'quarter', q: Number(m[2]), ...(m[1] ? { year: Number(m[1]) } : {}) };
  if ((m = /^(\d{4})-(\d{2})$/.exec(key))) return { kind: 'month', m: Number(m[2]), year: Number(m[1]) };
  if ((m = /^month-(\d{1,2})$/.exec(key))) return { kind: 'month', m: Number(m[1]) };
  if (/^\d{4}$/.test(key)) return { kind: 'year', year: Number(key) };
  if (/^\d{4}-\d{2}-\d{2}$/.test(key)) return { kind: 'week', week: key };
  if ((m = /^(this|next|last)-(week|month|quarter|year)$/.exec(key)))
    return {
      kind: 'relative',
      unit: m[2] as 'week' | 'month' | 'quarter' | 'year',
      offset: m[1] === 'this' ? 0 : m[1] === 'next' ? 1 : -1,
    };
  if ((m = /^last-(\d{1,2})-weeks$/.exec(key))) return { kind: 'lastWeeks', weeks: Number(m[1]) };
  return key === 'ytd' ? { kind: 'ytd' } : { kind: 'lately' };
}

/** A period key into weeks, against today; a quarter or month without a year is the one being planned. */
export async function resolvePeriod(
  ctx: ToolContext,
  key: string | undefined,
): Promise<ResolvedPeriod | undefined> {
  if (!key) return undefined;
  const request = periodRequest(key);
  const needsData = (request.kind === 'quarter' || request.kind === 'month') && request.year === undefined;
  return resolvePeriodRequest(request, ctx.today, needsData ? await dataWindow(ctx.db, ctx.clientIds) : null);
}

const SUMMED = [
  'records',
  'actualUnits',
  'actualRevenue',
  'statUnits',
  'statRevenue',
  'prelimUnits',
  'prelimRevenue',
  'finalUnits',
  'finalRevenue',
  'finalCost',
  'p1Units',
  'p1Revenue',
  'p2Units',
  'p2Revenue',
] as const;

function sumRows(rows: MeasureSums[]): MeasureSums {
  const sum: MeasureSums = {
    group: null,
    firstWeek: rows
      .map((r) => r.firstWeek)
      .reduce<string | null>((a, b) => (a && (!b || a < b) ? a : b), null),
    lastWeek: rows.map((r) => r.lastWeek).reduce<string | null>((a, b) => (a && (!b || a > b) ? a : b), null),
    ...(Object.fromEntries(SUMMED.map((key) => [key, 0])) as Record<(typeof SUMMED)[number], number>),
  };
  for (const row of rows) for (const key of SUMMED) sum[key] += row[key];
  for (const key of SUMMED)
    if (key.endsWith('Revenue') || key.endsWith('Cost')) sum[key] = roundToCents(sum[key]);
  return sum;
}

/** Units and revenue of one measure in a row of sums. */
export const measureOf = (row: MeasureSums, m: PlanMeasure) => ({
  units: row[`${m}Units` as const],
  revenue: row[`${m}Revenue` as const],
});

/** Every measure of the plan chain (actuals, statistical forecast, prelim, final, P1, P2) for a filter and period. */
export async function planTotals(ctx: ToolContext, input: Input<'planTotals'>) {
  const period = await resolvePeriod(ctx, input.period);
  const groupBy = input.pid ? null : (input.groupBy ?? null);
  const rows = await measureSums(ctx.db, filterOf(ctx, input), period, groupBy);
  return { period: period ?? null, total: sumRows(rows), groups: groupBy ? rows : [] };
}

/**
 * Two measures side by side for a filter and period, with the gap (a − b, units and revenue) in
 * total and by business unit or family; or a measure against the actual bookings of the same weeks
 * a year earlier (52 weeks before the first and last week that hold records).
 */
export async function compareMeasures(ctx: ToolContext, input: Input<'compareMeasures'>) {
  if (input.against) return comparePeriods(ctx, { ...input, against: input.against });
  let period = await resolvePeriod(ctx, input.period);
  const lastYear = input.lastYear || !input.b;
  // Actuals exist only for weeks that have passed: a year-on-year of actuals stops at this week.
  if (lastYear && input.a === 'actual') {
    const thisWeek = sundayOf(ctx.today);
    period = period
      ? { ...period, to: period.to < thisWeek ? period.to : thisWeek }
      : { label: '', from: '1900-01-01', to: thisWeek };
  }
  const groupBy = input.pid || lastYear ? null : (input.groupBy ?? null);
  const filter = filterOf(ctx, input);
  const rows = await measureSums(ctx.db, filter, period, groupBy);
  const total = sumRows(rows);
  const a = measureOf(total, input.a);
  const shown = period?.label ? period : null;
  if (lastYear) {
    const weeks =
      total.firstWeek && total.lastWeek
        ? yearEarlier({ label: '', from: total.firstWeek, to: nextDay(total.lastWeek) }, true)
        : null;
    const units = weeks ? await historyUnits(ctx.db, filter, weeks) : 0;
    return {
      period: shown,
      records: total.records,
      a: { measure: input.a, ...a },
      b: { measure: 'lastYearActual' as const, units, revenue: null },
      lastYearWeeks: weeks ? { from: weeks.from, to: weeks.to } : null,
      groups: [],
    };
  }
  const ref = input.b!;
  return {
    period: shown,
    records: total.records,
    a: { measure: input.a, ...a },
    b: { measure: ref, ...measureOf(total, ref) },
    lastYearWeeks: null,
    groups: (groupBy ? rows : [])
      .map((g) => ({ group: g.group, a: measureOf(g, input.a).units, b: measureOf(g, ref).units }))
      .sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b)),
  };
}

/**
 * One measure over two periods (the one asked, and `against`), in total and by business unit or
 * family, with the gap (period − against).
 */
async function comparePeriods(ctx: ToolContext, input: Input<'compareMeasures'> & { against: string }) {
  const [period, against] = [await resolvePeriod(ctx, input.period), await resolvePeriod(ctx, input.against)];
  const groupBy = input.pid ? null : (input.groupBy ?? null);
  const filter = filterOf(ctx, input);
  const [rowsA, rowsB] = [
    await measureSums(ctx.db, filter, period, groupBy),
    await measureSums(ctx.db, filter, against, groupBy),
  ];
  const [totalA, totalB] = [sumRows(rowsA), sumRows(rowsB)];
  const groups = [...new Set([...rowsA, ...rowsB].map((r) => r.group))].map((group) => {
    const of = (rows: MeasureSums[]) => {
      const row = rows.find((r) => r.group === group);
      return row ? measureOf(row, input.a).units : 0;
    };
    return { group, a: of(rowsA), b: of(rowsB) };
  });
  return {
    period: period ?? null,
    against: against ?? null,
    records: totalA.records + totalB.records,
    a: { measure: input.a, ...measureOf(totalA, input.a) },
    b: { measure: input.a, ...measureOf(totalB, input.a) },
    lastYearWeeks: null,
    groups: (groupBy ? groups : []).sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b)),
  };
}

const nextDay = (iso: string) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Weeks of one product whose measure moved most from the week before. */
const JUMPS = 3;

/**
 * Why a figure moved. For one product: the weeks where the measure changed most from the week
 * before, each with what changed along the plan chain (statistical forecast, the overrides and who
 * made them with their reason and comment, the published plans, the actuals). For a wider scope:
 * the products that make most of the gap between two measures, with their overrides.
 */
export async function explainChange(ctx: ToolContext, input: Input<'explainChange'>) {
  const period = await resolvePeriod(ctx, input.period);
  if (input.pid && !input.b) {
    const measure = input.measure ?? 'final';
    const weeks = await productWeeks(ctx.db, ctx.clientIds, input.pid, period);
    const jumps: Array<{ before: WeekRow; after: WeekRow; change: number }> = [];
    for (let i = 1; i < weeks.length; i += 1) {
      const before = weeks[i - 1]!;
      const after = weeks[i]!;
      if (before[measure] === null || after[measure] === null) continue;
      jumps.push({ before, after, change: after[measure] - before[measure] });
    }
    jumps.sort(
      (x, y) => Math.abs(y.change) - Math.abs(x.change) || x.after.weekStart.localeCompare(y.after.weekStart),
    );
    return {
      kind: 'weeks' as const,
      period: period ?? null,
      measure,
      weeks: weeks.length,
      jumps: jumps.slice(0, JUMPS),
    };
  }
  const a = input.a ?? 'final';
  const b = input.b ?? 'stat';
  const rows = await largestGaps(ctx.db, filterOf(ctx, input), period, a, b, 5);
  return { kind: 'products' as const, period: period ?? null, a, b, products: rows };
}

/**
 * What to look at first: the exception queue (the Alerts screen's ranked list) cut to the scope
 * asked, with the forecast value add of the statistical forecast and of the overrides.
 */
export async function reviewQueue(ctx: ToolContext, input: Input<'reviewQueue'>) {
  const lag = input.lag ?? MIN_LAG;
  const [queue, report] = await Promise.all([
    exceptionQueue(ctx.db, ctx.scope, lag, new Date(`${ctx.today}T12:00:00Z`)),
    accuracyReport(ctx, lag),
  ]);
  const inScope = (list: readonly string[] | undefined, value: string) =>
    !list?.length || list.includes(value);
  const rows = queue.filter(
    (e) => inScope(input.bu, e.bu) && inScope(input.pf, e.pf) && (!input.pid || e.pid === input.pid),
  );
  return { lag, count: rows.length, top: rows.slice(0, input.limit ?? 5), fva: report.fva };
}

export async function largestOverridesTool(ctx: ToolContext, input: Input<'largestOverrides'>) {
  const period = await resolvePeriod(ctx, input.period);
  const result = await largestOverrides(ctx.db, filterOf(ctx, input), period, input.limit ?? 5);
  return { period: period ?? null, ...result, netImpact: roundToCents(result.netImpact) };
}

type AccuracyFigures = Pick<AccuracyRow, 'bu' | 'pf' | 'pid' | 'metrics' | 'fva' | 'errorValue'>;
const figuresOf = ({ bu, pf, pid, metrics, fva, errorValue }: AccuracyRow): AccuracyFigures => ({
  bu,
  pf,
  pid,
  metrics,
  fva,
  errorValue,
});
/** Products listed under one family's accuracy: the largest money errors first. */
const FAMILY_PRODUCTS = 5;

type Report = Awaited<ReturnType<typeof forecastAccuracyReport>>;
/** Reports already computed, per database: key = clients, lag and week; kept while the data's fingerprint holds. */
const reports = new WeakMap<
  Kysely<Database>,
  Map<string, { fingerprint: string; report: Promise<Report> }>
>();
/** At most this many reports are kept per database (2 client sets × 13 lags × a few weeks). */
const REPORTS_KEPT = 100;

/**
 * The accuracy screen's report, computed once per state of its data: it joins every snapshot with
 * the records (hundreds of milliseconds on PGlite), the fingerprint costs a few, and the answer
 * is the same until a snapshot, an actual or a price changes.
 */
async function accuracyReport(ctx: ToolContext, lag: number): Promise<Report> {
  const fingerprint = await accuracyFingerprint(ctx.db);
  const cache = reports.get(ctx.db) ?? new Map<string, { fingerprint: string; report: Promise<Report> }>();
  reports.set(ctx.db, cache);
  const key = JSON.stringify([[...ctx.clientIds].sort(), lag, ctx.today]);
  const kept = cache.get(key);
  if (kept?.fingerprint === fingerprint) return kept.report;
  const report = forecastAccuracyReport(ctx.db, ctx.scope, lag, new Date(`${ctx.today}T12:00:00Z`));
  if (cache.size >= REPORTS_KEPT) cache.clear();
  cache.set(key, { fingerprint, report });
  // A failed computation is not kept: the next question tries again.
  report.catch(() => cache.delete(key));
  return report;
}

/**
 * Forecast accuracy at one lag: the Forecast Accuracy screen's report (forecast snapshots against
 * actuals, docs/metrics.md) cut to the scope asked. `total` is the selection's own figures when it
 * is one group (everything, one business unit, family or product); `rows` break it down (by
 * business unit, by family of a business unit, the largest errors of a family) or list the groups
 * asked for. The screen has no split by region.
 */
export async function forecastAccuracy(ctx: ToolContext, input: Input<'forecastAccuracy'>) {
  const lag = input.lag ?? MIN_LAG;
  const report = await accuracyReport(ctx, lag);
  const within = (list: readonly string[] | undefined, value: string | null) =>
    !list?.length || (value !== null && list.includes(value));
  let level: 'all' | 'businessUnit' | 'family' | 'product' = 'all';
  let selected: AccuracyRow[] = [];
  let rows: AccuracyRow[] = report.byBusinessUnit;
  if (input.pid) {
    level = 'product';
    selected = report.byProduct.filter((r) => r.pid === input.pid);
    rows = [];
  } else if (input.pf?.length) {
    level = 'family';
    selected = report.byFamily.filter((r) => within(input.pf, r.pf) && within(input.bu, r.bu));
    rows =
      selected.length === 1
        ? report.byProduct.filter((r) => r.pf === selected[0]!.pf).slice(0, FAMILY_PRODUCTS)
        : selected;
  } else if (input.bu?.length) {
    level = 'businessUnit';
    selected = report.byBusinessUnit.filter((r) => within(input.bu, r.bu));
    rows = selected.length === 1 ? report.byFamily.filter((r) => r.bu === selected[0]!.bu) : selected;
  }
  const single = selected.length === 1 ? selected[0]! : undefined;
  return {
    lag,
    fromWeek: report.fromWeek,
    toWeek: report.toWeek,
    snapshots: report.snapshots,
    alerts: report.alerts,
    level,
    total:
      level === 'all'
        ? { bu: null, pf: null, pid: null, metrics: report.overall, fva: report.fva, errorValue: null }
        : single
          ? figuresOf(single)
          : null,
    rows: rows.map(figuresOf),
    /** A product outside the screen's list (the largest errors) or without compared weeks. */
    productListed: level !== 'product' || selected.length > 0,
    regionNotSplit: Boolean(input.region?.length),
  };
}

export async function explainRecord(ctx: ToolContext, input: Input<'explainRecord'>) {
  return recordChain(ctx.db, ctx.clientIds, input.pid, input.week, ctx.today);
}

export async function comparePlanVersions(ctx: ToolContext) {
  const versions = await latestVersions(ctx.db, ctx.clientIds);
  const latest = versions.filter((v) => v.rank === 1);
  const previous = versions.filter((v) => v.rank === 2);
  const quarters = new Map<string, { quarter: string; latest: number; previous: number }>();
  for (const [list, key] of [
    [latest, 'latest'],
    [previous, 'previous'],
  ] as const) {
    for (const version of list) {
      for (const q of version.quarters) {
        const entry = quarters.get(q.quarter) ?? { quarter: q.quarter, latest: 0, previous: 0 };
        entry[key] = roundToCents(entry[key] + q.revenue);
        quarters.set(q.quarter, entry);
      }
    }
  }
  return {
    latest: latest.map(({ clientId, cycle, label, publishedAt }) => ({
      clientId,
      cycle,
      label,
      publishedAt,
    })),
    previous: previous.map(({ clientId, cycle, label, publishedAt }) => ({
      clientId,
      cycle,
      label,
      publishedAt,
    })),
    quarters: [...quarters.values()].sort((a, b) => a.quarter.localeCompare(b.quarter)),
  };
}

/** Most records a what-if may change at once (one audited batch; beyond this, narrow the scope). */
export const SCENARIO_MAX_RECORDS = 20_000;

const scenarioFilter = (ctx: ToolContext, input: Input<'whatIfScenario'>): DataFilter => ({
  clientIds: ctx.clientIds,
  ...(input.bu ? { bu: [input.bu] } : {}),
  ...(input.pf ? { pf: [input.pf] } : {}),
});

const scenarioHead = (input: Input<'whatIfScenario'>, quarter: string) => ({
  name: input.name,
  percent: input.percent,
  quarter,
  ...(input.bu ? { bu: input.bu } : {}),
  ...(input.pf ? { pf: input.pf } : {}),
});

/** The what-if the assistant shows: totals before and after, computed in the database, nothing saved. */
export async function whatIfScenario(
  ctx: ToolContext,
  input: Input<'whatIfScenario'>,
): Promise<ScenarioPreview> {
  const period = (await resolvePeriod(ctx, input.period))!;
  const t = await scenarioTotals(ctx.db, scenarioFilter(ctx, input), period, input.percent);
  const figures = (units: number, cost: number, revenue: number) => ({
    units,
    cost: roundToCents(cost),
    revenue: roundToCents(revenue),
    margin: roundToCents(revenue - cost),
  });
  return {
    ...scenarioHead(input, period.label),
    records: t.records,
    before: figures(t.beforeUnits, t.beforeCost, t.beforeRevenue),
    after: figures(t.afterUnits, t.afterCost, t.afterRevenue),
  };
}

/** The records a confirmed what-if changes, with the figures recomputed from them (the save path). */
export async function scenarioRecordsToSave(ctx: ToolContext, input: Input<'whatIfScenario'>) {
  const period = (await resolvePeriod(ctx, input.period))!;
  const rows = await scenarioRecords(ctx.db, scenarioFilter(ctx, input), period);
  const preview: ScenarioPreview = {
    ...scenarioHead(input, period.label),
    records: rows.length,
    ...scenarioFigures(rows, input.percent),
  };
  return { preview, rows };
}
