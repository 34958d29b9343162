import { deltaPercent, growth, marginPercent, type GrowthRow, type QuarterCoverage } from './metrics';

/** Revenue and cost of one plan in one quarter, in dollars. */
export type Money = { revenue: number; cost: number };
export type PlanSeries =
  | 'actualBooking'
  | 'prelimDemandPlan'
  | 'finalDemandPlan'
  | 'marketingForecast'
  | 'pubEnsembleForecast'
  | 'p1FinalDemandPlan'
  | 'p1MarketingForecast';

/**
 * One quarter of the worksheet: each plan's revenue and cost, null where the data has none, and
 * how many of its weeks hold data (the first quarter of the history and the last of the horizon
 * are partial).
 */
export type WorksheetQuarter = { quarter: string; coverage: QuarterCoverage } & Record<
  PlanSeries,
  Money | null
>;

/** Whether a quarter holds data for fewer weeks than it has. */
export const isPartialQuarter = (quarter: Pick<WorksheetQuarter, 'coverage'>): boolean =>
  quarter.coverage.weeks < quarter.coverage.of;

/** One tracker group (BU, PUD = region, PF) in one quarter: the plans the tracker compares. */
export type TrackerCell = {
  bu: string;
  pud: string;
  pf: string;
  quarter: string;
  finalUnits: number;
  final: Money;
  p1Units: number;
  p1: Money;
  marketing: Money | null;
};

export type Company = { id: string; name: string };
export type BusinessUnit = { id: string; name: string; code: string; companyId: string };
export type ProductFamily = { id: string; name: string; companyId: string; businessUnitId: string };
export type WorksheetFilters = {
  companies: Company[];
  businessUnits: BusinessUnit[];
  productFamilies: ProductFamily[];
};

export type WorksheetCycle = { label: string; cycle: string; publishedAt: string };

/** GET /api/control-tower/worksheet. */
export type Worksheet = {
  /** The quarter holding today (UTC), yyyy-Qn; "Q+" of the CTC summary starts here. */
  currentQuarter: string;
  asOf: string;
  currentCycle: WorksheetCycle | null;
  previousCycle: WorksheetCycle | null;
  quarters: WorksheetQuarter[];
  tracker: TrackerCell[];
};

export type Measure = 'revenue' | 'cost';

/** Spec §2 plan comparison rows, in order. */
export const COMPARISON_ROWS = [
  { key: 'actualBooking', kind: 'value', series: 'actualBooking' },
  { key: 'prelimDemandPlan', kind: 'value', series: 'prelimDemandPlan' },
  { key: 'finalDemandPlan', kind: 'value', series: 'finalDemandPlan' },
  { key: 'deltaFinalToPrelim', kind: 'delta', series: 'finalDemandPlan', base: 'prelimDemandPlan' },
  { key: 'deltaPctFinalToPrelim', kind: 'deltaPct', series: 'finalDemandPlan', base: 'prelimDemandPlan' },
  { key: 'marginPct', kind: 'margin', series: 'finalDemandPlan' },
  { key: 'marketingForecast', kind: 'value', series: 'marketingForecast' },
  { key: 'deltaFinalToMarketing', kind: 'delta', series: 'finalDemandPlan', base: 'marketingForecast' },
  { key: 'deltaPctFinalToMarketing', kind: 'deltaPct', series: 'finalDemandPlan', base: 'marketingForecast' },
  { key: 'pubEnsembleForecast', kind: 'value', series: 'pubEnsembleForecast' },
  { key: 'deltaFinalToEnsemble', kind: 'delta', series: 'finalDemandPlan', base: 'pubEnsembleForecast' },
  {
    key: 'deltaPctFinalToEnsemble',
    kind: 'deltaPct',
    series: 'finalDemandPlan',
    base: 'pubEnsembleForecast',
  },
  { key: 'p1FinalDemandPlan', kind: 'value', series: 'p1FinalDemandPlan' },
  { key: 'deltaFinalToP1Final', kind: 'delta', series: 'finalDemandPlan', base: 'p1FinalDemandPlan' },
  { key: 'deltaPctFinalToP1Final', kind: 'deltaPct', series: 'finalDemandPlan', base: 'p1FinalDemandPlan' },
  { key: 'p1MarketingForecast', kind: 'value', series: 'p1MarketingForecast' },
  {
    key: 'deltaP1FinalToP1Marketing',
    kind: 'delta',
    series: 'p1FinalDemandPlan',
    base: 'p1MarketingForecast',
  },
  {
    key: 'deltaPctP1FinalToP1Marketing',
    kind: 'deltaPct',
    series: 'p1FinalDemandPlan',
    base: 'p1MarketingForecast',
  },
] as const satisfies ReadonlyArray<{
  key: string;
  kind: 'value' | 'delta' | 'deltaPct' | 'margin';
  series: PlanSeries;
  base?: PlanSeries;
}>;

export type ComparisonRowKey = (typeof COMPARISON_ROWS)[number]['key'];
export type ComparisonRowKind = (typeof COMPARISON_ROWS)[number]['kind'];

const roundCents = (value: number): number => Math.round(value * 100) / 100;

/**
 * One value of the plan comparison grid: a plan's revenue or cost, the dollar or percent delta of
 * two plans (null when either is missing), or the final plan's margin %.
 */
export function comparisonValue(
  quarter: WorksheetQuarter,
  row: (typeof COMPARISON_ROWS)[number],
  measure: Measure,
): number | null {
  const value = quarter[row.series]?.[measure] ?? null;
  if (row.kind === 'value') return value;
  if (row.kind === 'margin') {
    const final = quarter.finalDemandPlan;
    return final ? marginPercent(final.revenue, final.cost) : null;
  }
  const base = quarter[row.base]?.[measure] ?? null;
  if (value === null || base === null) return null;
  return row.kind === 'delta' ? roundCents(value - base) : deltaPercent(value, base);
}

export type CtcLine = { p0: number; p1: number; delta: number; deltaPercent: number };
export type CtcSummary = {
  demandPlan: Record<Measure, CtcLine>;
  marketingPlan: Record<Measure, CtcLine> | null;
};

const line = (p0: number, p1: number): CtcLine => ({
  p0: roundCents(p0),
  p1: roundCents(p1),
  delta: roundCents(p0 - p1),
  deltaPercent: deltaPercent(p0, p1) ?? 0,
});

/**
 * CTC Change (Q vs Q+): the current cycle (P0) against the one before (P1), summed over the current
 * quarter and every later quarter of the data. Demand plan: Final Demand Plan vs P1 Final Demand
 * Plan. Marketing plan: this cycle's marketing forecast vs the previous cycle's (null without one).
 */
export function ctcSummary(quarters: readonly WorksheetQuarter[], currentQuarter: string): CtcSummary {
  const ahead = quarters.filter((q) => q.quarter >= currentQuarter);
  const sum = (series: PlanSeries, measure: Measure): number =>
    ahead.reduce((total, q) => total + (q[series]?.[measure] ?? 0), 0);
  const hasMarketing = ahead.some((q) => q.marketingForecast !== null && q.p1MarketingForecast !== null);
  const measures = (p0: PlanSeries, p1: PlanSeries): Record<Measure, CtcLine> => ({
    revenue: line(sum(p0, 'revenue'), sum(p1, 'revenue')),
    cost: line(sum(p0, 'cost'), sum(p1, 'cost')),
  });
  return {
    demandPlan: measures('finalDemandPlan', 'p1FinalDemandPlan'),
    marketingPlan: hasMarketing ? measures('marketingForecast', 'p1MarketingForecast') : null,
  };
}

/**
 * The quarterly figure the Growth % table compares: what is known of each quarter, the actual
 * bookings of quarters before the current one and the final demand plan from the current one on.
 */
export function knownSeries(
  quarters: readonly WorksheetQuarter[],
  currentQuarter: string,
  measure: Measure,
): Map<string, number> {
  const series = new Map<string, number>();
  for (const q of quarters) {
    const source = q.quarter < currentQuarter ? q.actualBooking : q.finalDemandPlan;
    if (source) series.set(q.quarter, source[measure]);
  }
  return series;
}

/** Growth % for revenue and cost over the four quarters of the current year. */
export function worksheetGrowth(
  quarters: readonly WorksheetQuarter[],
  currentQuarter: string,
): { quarters: string[]; revenue: ReturnType<typeof growth>; cost: ReturnType<typeof growth> } {
  const year = currentQuarter.slice(0, 4);
  const yearQuarters = [1, 2, 3, 4].map((n) => `${year}-Q${n}`);
  const coverage = new Map(quarters.map((q) => [q.quarter, q.coverage]));
  return {
    quarters: yearQuarters,
    revenue: growth(knownSeries(quarters, currentQuarter, 'revenue'), yearQuarters, currentQuarter, coverage),
    cost: growth(knownSeries(quarters, currentQuarter, 'cost'), yearQuarters, currentQuarter, coverage),
  };
}
export type { GrowthRow };

/** A Delta Tracker row (spec §3), over the chosen quarters; any value may be null. */
export type TrackerRow = {
  bu: string;
  pud: string;
  pf: string;
  deltaP0ToP1UnitCost: number | null;
  deltaP0ToP1UnitPrice: number | null;
  deltaP0P1DemandPlanCost: number | null;
  deltaP0P1DemandPlanRev: number | null;
  deltaMarketingPlanCost: number | null;
  deltaMarketingPlanRev: number | null;
};

const perUnit = (amount: number, units: number): number | null => (units > 0 ? amount / units : null);
const difference = (a: number | null, b: number | null): number | null =>
  a === null || b === null ? null : Math.round((a - b) * 100_000) / 100_000;

/**
 * The Delta Tracker: per BU, PUD and PF, summed over the chosen quarters (null = all):
 * unit cost and ASP changes (Final cost or revenue per unit minus P1's), the demand plan's cost and
 * revenue change (Final − P1), and the demand plan against the marketing plan (Final − Marketing).
 */
export function trackerRows(cells: readonly TrackerCell[], quarters: readonly string[] | null): TrackerRow[] {
  type Sum = {
    bu: string;
    pud: string;
    pf: string;
    finalUnits: number;
    final: Money;
    p1Units: number;
    p1: Money;
    marketing: Money | null;
  };
  const groups = new Map<string, Sum>();
  for (const cell of cells) {
    if (quarters !== null && !quarters.includes(cell.quarter)) continue;
    const key = JSON.stringify([cell.bu, cell.pud, cell.pf]);
    const sum = groups.get(key) ?? {
      bu: cell.bu,
      pud: cell.pud,
      pf: cell.pf,
      finalUnits: 0,
      final: { revenue: 0, cost: 0 },
      p1Units: 0,
      p1: { revenue: 0, cost: 0 },
      marketing: null,
    };
    sum.finalUnits += cell.finalUnits;
    sum.final = { revenue: sum.final.revenue + cell.final.revenue, cost: sum.final.cost + cell.final.cost };
    sum.p1Units += cell.p1Units;
    sum.p1 = { revenue: sum.p1.revenue + cell.p1.revenue, cost: sum.p1.cost + cell.p1.cost };
    if (cell.marketing) {
      sum.marketing = {
        revenue: (sum.marketing?.revenue ?? 0) + cell.marketing.revenue,
        cost: (sum.marketing?.cost ?? 0) + cell.marketing.cost,
      };
    }
    groups.set(key, sum);
  }
  return [...groups.values()].map((s) => ({
    bu: s.bu,
    pud: s.pud,
    pf: s.pf,
    deltaP0ToP1UnitCost: difference(perUnit(s.final.cost, s.finalUnits), perUnit(s.p1.cost, s.p1Units)),
    deltaP0ToP1UnitPrice: difference(
      perUnit(s.final.revenue, s.finalUnits),
      perUnit(s.p1.revenue, s.p1Units),
    ),
    deltaP0P1DemandPlanCost: roundCents(s.final.cost - s.p1.cost),
    deltaP0P1DemandPlanRev: roundCents(s.final.revenue - s.p1.revenue),
    deltaMarketingPlanCost: s.marketing ? roundCents(s.final.cost - s.marketing.cost) : null,
    deltaMarketingPlanRev: s.marketing ? roundCents(s.final.revenue - s.marketing.revenue) : null,
  }));
}
