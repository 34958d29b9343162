import { mase, owa, smape } from './metrics';

/**
 * Hold-out evaluation in the M4 way: average sMAPE and MASE over series, then OWA against naïve.
 *
 * `test` scores the last `horizon` values of each series. `dev` first drops those values and
 * scores the `horizon` before them: design decisions are made on `dev`, so the `test` figures
 * are not tuned to the values they report on.
 */
export type HoldoutSplit = 'test' | 'dev';

export function splitHoldout(
  values: readonly number[],
  horizon: number,
  split: HoldoutSplit,
): { train: number[]; actual: number[] } {
  const usable = split === 'dev' ? values.slice(0, values.length - horizon) : [...values];
  return { train: usable.slice(0, usable.length - horizon), actual: usable.slice(usable.length - horizon) };
}

/** One scored series: its training part, the held-out actuals and each method's forecast. */
export type HoldoutCase = {
  train: readonly number[];
  actual: readonly number[];
  forecasts: Map<string, number[]>;
};

export type ScoreRow = { method: string; smape: number; mase: number; owa: number };

/**
 * Scores every method present in the cases. A method missing for a series (e.g. a continuous
 * model on an intermittent series) is scored with the benchmark's forecast for that series.
 */
export function scoreHoldout(cases: readonly HoldoutCase[], benchmark = 'naive'): ScoreRow[] {
  const methods: string[] = [];
  for (const c of cases)
    for (const method of c.forecasts.keys()) if (!methods.includes(method)) methods.push(method);
  const totals = new Map(methods.map((m) => [m, { smape: 0, mase: 0 }]));
  for (const c of cases) {
    const fallback = c.forecasts.get(benchmark);
    if (!fallback) throw new Error(`Benchmark "${benchmark}" missing for a series`);
    for (const method of methods) {
      const forecast = c.forecasts.get(method) ?? fallback;
      const total = totals.get(method)!;
      total.smape += smape(c.actual, forecast);
      total.mase += mase(c.train, c.actual, forecast);
    }
  }
  const averages = methods.map((method) => {
    const total = totals.get(method)!;
    return { method, smape: total.smape / cases.length, mase: total.mase / cases.length };
  });
  const base = averages.find((a) => a.method === benchmark)!;
  return averages.map((a) => ({ ...a, owa: owa(a, base) }));
}

/** Share of held-out values inside [lower, upper], in percent. */
export function coverage(
  actuals: readonly (readonly number[])[],
  lowers: readonly (readonly number[])[],
  uppers: readonly (readonly number[])[],
): number {
  let inside = 0;
  let total = 0;
  actuals.forEach((actual, i) =>
    actual.forEach((y, j) => {
      total++;
      if (y >= lowers[i]![j]! && y <= uppers[i]![j]!) inside++;
    }),
  );
  return total === 0 ? Number.NaN : (100 * inside) / total;
}

/** A fixed-width text table. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * The design origins: origin k (1 = the dev split, 2–5 the 13-week windows before it) drops the
 * last k horizons, trains on what is left but one horizon and scores that one. The scored test
 * weeks (origin 0) are never part of it: a series too short for the origin gives empty parts
 * (a negative slice end would wrap round into the last weeks).
 */
export function splitOrigin(
  values: readonly number[],
  horizon: number,
  origin: number,
): { train: number[]; actual: number[] } {
  const usable = values.slice(0, Math.max(0, values.length - origin * horizon));
  if (usable.length < horizon) return { train: [], actual: [] };
  return { train: usable.slice(0, usable.length - horizon), actual: usable.slice(usable.length - horizon) };
}

/**
 * The factor that makes a ±z·spread interval cover `level` of the errors: the `level` quantile of
 * |error| / spread (nearest rank) over the normal quantile z. NaN without any ratio.
 */
export function intervalScaleFor(ratios: readonly number[], level: number, z: number): number {
  if (ratios.length === 0) return Number.NaN;
  const sorted = [...ratios].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(level * sorted.length)));
  return sorted[rank - 1]! / z;
}

/** One origin of a rolling-origin evaluation: fit on `train`, score the `actual` that follow it. */
export type OriginSplit = { origin: number; train: number[]; actual: number[] };

export type RollingOriginOptions = {
  horizon: number;
  /** Number of origins; origin `origins` scores the last `horizon` values of the series. */
  origins: number;
  /** Periods between consecutive origins. */
  step: number;
  /** A series with fewer training values than this at an origin is not scored there. */
  minTrain: number;
};

/**
 * Rolling origins, oldest first: origin k (1 … origins) drops the last (origins − k)·step values,
 * trains on what is left but the last `horizon` and scores those. Null where the series is too
 * short for the origin. Nothing after an origin's scored weeks reaches its training part.
 */
export function rollingOrigins(
  values: readonly number[],
  options: RollingOriginOptions,
): (OriginSplit | null)[] {
  const { horizon, origins, step, minTrain } = options;
  const result: (OriginSplit | null)[] = [];
  for (let origin = 1; origin <= origins; origin++) {
    const end = values.length - (origins - origin) * step;
    const trainLength = end - horizon;
    if (trainLength < Math.max(1, minTrain)) {
      result.push(null);
      continue;
    }
    result.push({
      origin,
      train: values.slice(0, trainLength),
      actual: values.slice(trainLength, end),
    });
  }
  return result;
}
