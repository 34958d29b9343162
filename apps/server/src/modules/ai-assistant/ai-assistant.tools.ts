import {
  MAX_LAG,
  MIN_LAG,
  monthPeriod,
  parseQuarterKey,
  quarterPeriod,
  resolveYear,
  roundToCents,
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
import { forecastAccuracyReport } from '../control-tower';
import {
  accuracyFingerprint,
  dataWindow,
  largestOverrides,
  latestVersions,
  recordChain,
  scenarioRecords,
  scenarioTotals,
  totals,
  type DataFilter,
  type Totals,
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
  bu: ZNames.optional().describe('Business units, e.g. ["Industrial Valves"]'),
  pf: ZNames.optional().describe('Product families, e.g. ["Ball Valves"]'),
  region: ZNames.optional().describe('Regions, e.g. ["EMEA"]'),
  pid: z.string().trim().min(1).max(64).optional().describe('One product id, e.g. "PRD-00042"'),
});

export const ZPeriodInput = z
  .string()
  .regex(/^(\d{4}-)?Q[1-4]$|^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must look like 2026-Q3, Q3 or 2026-11' })
  .optional()
  .describe('A quarter (2026-Q3, or Q3 for the one being planned) or a month (2026-11); absent = all weeks');

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
  ...(input.bu?.length ? { bu: input.bu } : {}),
  ...(input.pf?.length ? { pf: input.pf } : {}),
  ...(input.region?.length ? { region: input.region } : {}),
  ...(input.pid ? { pid: input.pid } : {}),
});

/** A quarter or month key into weeks; a bare quarter is the one being planned (resolveYear). */
export async function resolvePeriod(
  ctx: ToolContext,
  key: string | undefined,
): Promise<ResolvedPeriod | undefined> {
  if (!key) return undefined;
  const month = /^(\d{4})-(\d{2})$/.exec(key);
  if (month) return monthPeriod(Number(month[1]), Number(month[2]));
  const full = parseQuarterKey(key);
  if (full) return full;
  const q = Number(key.slice(1));
  return resolveYear((year) => quarterPeriod(year, q), ctx.today, await dataWindow(ctx.db, ctx.clientIds));
}

const EMPTY: Omit<Totals, 'group'> = {
  records: 0,
  actualUnits: 0,
  actualRevenue: 0,
  statUnits: 0,
  finalUnits: 0,
  finalCost: 0,
  finalRevenue: 0,
  p1Units: 0,
  p1Revenue: 0,
};

function sumRows(rows: Totals[]): Totals {
  const sum: Totals = { group: null, ...EMPTY };
  for (const row of rows) {
    for (const key of Object.keys(EMPTY) as Array<keyof typeof EMPTY>) sum[key] += row[key];
  }
  sum.actualRevenue = roundToCents(sum.actualRevenue);
  sum.finalCost = roundToCents(sum.finalCost);
  sum.finalRevenue = roundToCents(sum.finalRevenue);
  sum.p1Revenue = roundToCents(sum.p1Revenue);
  return sum;
}

export async function planTotals(ctx: ToolContext, input: Input<'planTotals'>) {
  const period = await resolvePeriod(ctx, input.period);
  const groupBy = input.pid ? null : (input.groupBy ?? null);
  const rows = await totals(ctx.db, filterOf(ctx, input), period, groupBy);
  return { period: period ?? null, total: sumRows(rows), groups: groupBy ? rows : [] };
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
 * is the same until a snapshot, an actual or a price changes (issue 12 Must 6).
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
