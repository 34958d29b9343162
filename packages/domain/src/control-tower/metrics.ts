/**
 * Control tower formulas (docs/metrics.md "Control tower"). Pure: the server sums rows in
 * SQL and hands the sums here, the screen formats with the same module.
 */

/** Spec §9: delta % rounded to a whole percent, 0 when the base is 0 (no comparison). */
export function deltaPercent(value: number | null, base: number | null): number | null {
  if (value === null || base === null) return null;
  if (base === 0) return 0;
  return Math.round(((value - base) / Math.abs(base)) * 100);
}

/** Margin % of a plan: (revenue − cost) / revenue × 100, two decimals; null without revenue. */
export function marginPercent(revenue: number | null, cost: number | null): number | null {
  if (revenue === null || cost === null || revenue === 0) return null;
  return Math.round(((revenue - cost) / revenue) * 10_000) / 100;
}

/** Quarter key arithmetic: shiftQuarter('2026-Q1', -1) = '2025-Q4'. */
export function shiftQuarter(quarter: string, by: number): string {
  const match = /^(\d{4})-Q([1-4])$/.exec(quarter);
  if (!match) throw new Error(`not a quarter: ${quarter}`);
  const index = Number(match[1]) * 4 + Number(match[2]) - 1 + by;
  return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
}

/** Every quarter from `first` to `last`, both included. */
export function quarterRange(first: string, last: string): string[] {
  const quarters: string[] = [];
  for (let q = first; q <= last && quarters.length < 400; q = shiftQuarter(q, 1)) quarters.push(q);
  return quarters;
}

export type GrowthRow = {
  byQuarter: Record<string, number | null>;
  /** The quarters whose figure compares a partial quarter: weekly averages, not totals. */
  partial: Record<string, boolean>;
  next4VsLast4: number | null;
  next4VsLast4Partial: boolean;
};

/** How many of a quarter's weeks hold data, of the weeks (Sundays) the quarter has. */
export type QuarterCoverage = { weeks: number; of: number };

/** The weeks of a quarter: the Sundays that fall in it (13, or 14 when it holds one more). */
export function sundaysInQuarter(quarter: string): number {
  const match = /^(\d{4})-Q([1-4])$/.exec(quarter);
  if (!match) throw new Error(`not a quarter: ${quarter}`);
  const year = Number(match[1]);
  const firstMonth = (Number(match[2]) - 1) * 3;
  const start = Date.UTC(year, firstMonth, 1);
  const end = Date.UTC(year, firstMonth + 3, 1);
  const firstSunday = start + ((7 - new Date(start).getUTCDay()) % 7) * 86_400_000;
  return Math.ceil((end - firstSunday) / (7 * 86_400_000));
}

const isPartial = (coverage: QuarterCoverage | undefined): boolean =>
  coverage !== undefined && coverage.weeks < coverage.of;

/**
 * Growth % of a quarterly series (the worksheet's Growth % table): Qtr/Qtr is R(q) against R(q−1),
 * Yr/Yr against R(q−4), for each of `quarters`. The last column compares the four quarters from
 * `current` on with the four before them (which are also the same four a year earlier, so both rows
 * carry the same figure there). A quarter missing from the series gives null ('undefined', spec §2).
 * When either side holds only part of its weeks (`coverage`: the first quarter of the history, the
 * last of the horizon), totals would read as a jump: the figure compares weekly averages (total ÷
 * weeks with data) instead, and says so in `partial`.
 */
export function growth(
  series: ReadonlyMap<string, number>,
  quarters: readonly string[],
  current: string,
  coverage: ReadonlyMap<string, QuarterCoverage> = new Map(),
): { qtrToQtr: GrowthRow; yearToYear: GrowthRow } {
  const span = (from: string, count: number): string[] =>
    Array.from({ length: count }, (_, i) => shiftQuarter(from, i));
  /** Growth of the quarters `now` against `before`: totals, or weekly averages when one is partial. */
  const compare = (now: string[], before: string[]): { value: number | null; partial: boolean } => {
    const all = [...now, ...before];
    if (all.some((q) => !series.has(q))) return { value: null, partial: false };
    const total = (qs: string[]) => qs.reduce((sum, q) => sum + series.get(q)!, 0);
    const partial = all.some((q) => isPartial(coverage.get(q)));
    if (!partial) return { value: deltaPercent(total(now), total(before)), partial };
    const weeks = (qs: string[]) => qs.reduce((sum, q) => sum + (coverage.get(q)?.weeks ?? 0), 0);
    const [weeksNow, weeksBefore] = [weeks(now), weeks(before)];
    if (weeksNow === 0 || weeksBefore === 0) return { value: null, partial };
    return { value: deltaPercent(total(now) / weeksNow, total(before) / weeksBefore), partial };
  };
  const last4 = compare(span(current, 4), span(shiftQuarter(current, -4), 4));
  const row = (lagQuarters: number): GrowthRow => {
    const figures = quarters.map((q) => [q, compare([q], [shiftQuarter(q, -lagQuarters)])] as const);
    return {
      byQuarter: Object.fromEntries(figures.map(([q, f]) => [q, f.value])),
      partial: Object.fromEntries(figures.map(([q, f]) => [q, f.partial])),
      next4VsLast4: last4.value,
      next4VsLast4Partial: last4.partial,
    };
  };
  return { qtrToQtr: row(1), yearToYear: row(4) };
}

/** Sums over (forecast, actual) pairs from which every error metric follows. */
export type ErrorSums = {
  /** Pairs counted. */
  n: number;
  /** Σ |F − A|. */
  absError: number;
  /** Σ (F − A). */
  error: number;
  /** Σ |A|. */
  actual: number;
  /** Σ |F − A| / |A| over pairs with A ≠ 0, and how many such pairs. */
  ape: number;
  apeCount: number;
  /** Σ |naive − A| over the same pairs: the scale of MASE. */
  naiveAbsError: number;
};

export const EMPTY_ERROR_SUMS: ErrorSums = {
  n: 0,
  absError: 0,
  error: 0,
  actual: 0,
  ape: 0,
  apeCount: 0,
  naiveAbsError: 0,
};

/** Adds one (forecast, actual, naive) pair to the sums (the SQL does the same with sum()). */
export function addPair(sums: ErrorSums, forecast: number, actual: number, naive: number): ErrorSums {
  return {
    n: sums.n + 1,
    absError: sums.absError + Math.abs(forecast - actual),
    error: sums.error + (forecast - actual),
    actual: sums.actual + Math.abs(actual),
    ape: sums.ape + (actual === 0 ? 0 : Math.abs(forecast - actual) / Math.abs(actual)),
    apeCount: sums.apeCount + (actual === 0 ? 0 : 1),
    naiveAbsError: sums.naiveAbsError + Math.abs(naive - actual),
  };
}

export type ErrorMetrics = {
  /** 100 − WAPE, floored at 0. */
  accuracy: number | null;
  /** Σ|F−A| / Σ|A| × 100. */
  wape: number | null;
  /** Mean of |F−A|/|A| × 100 over weeks with demand. */
  mape: number | null;
  /** Σ(F−A) / Σ|A| × 100; positive = over-forecast. */
  bias: number | null;
  /** Σ|F−A| / Σ|naive−A|: below 1 beats the naive forecast at the same lag. */
  mase: number | null;
  pairs: number;
};

const round2 = (value: number): number => Math.round(value * 100) / 100;

export function errorMetrics(sums: ErrorSums): ErrorMetrics {
  const wape = sums.actual > 0 ? (sums.absError / sums.actual) * 100 : null;
  return {
    accuracy: wape === null ? null : round2(Math.max(0, 100 - wape)),
    wape: wape === null ? null : round2(wape),
    mape: sums.apeCount > 0 ? round2((sums.ape / sums.apeCount) * 100) : null,
    bias: sums.actual > 0 ? round2((sums.error / sums.actual) * 100) : null,
    mase: sums.naiveAbsError > 0 ? Math.round((sums.absError / sums.naiveAbsError) * 1000) / 1000 : null,
    pairs: sums.n,
  };
}

export const FVA_STEPS = ['naive', 'statistical', 'prelim', 'final'] as const;
export type FvaStep = (typeof FVA_STEPS)[number];

/**
 * Forecast value add: each step's WAPE and the points it gained over the step before
 * (WAPE before − WAPE after; positive = the step made the forecast better).
 */
export function forecastValueAdd(
  wapeByStep: Readonly<Record<FvaStep, number | null>>,
): Array<{ step: FvaStep; wape: number | null; valueAdd: number | null }> {
  return FVA_STEPS.map((step, index) => {
    const before = index === 0 ? null : wapeByStep[FVA_STEPS[index - 1]!];
    const wape = wapeByStep[step];
    return { step, wape, valueAdd: before === null || wape === null ? null : round2(before - wape) };
  });
}
