import { autocorrelations, solveLinearSystem } from './stats';

/**
 * Seasonality: the M4 test on the autocorrelation at the seasonal lag, and classical decomposition.
 *
 * Weekly data repeat every 365.25 / 7 = 52.18 weeks. We decompose on the whole period 52: the
 * fractional part moves the cycle by 0.18 weeks a year, under a week over the three-to-five
 * years we fit, far below the noise in indices estimated from a handful of cycles. A 52.18 input
 * is therefore rounded (see `integerPeriod`).
 */

export type SeasonalKind = 'none' | 'multiplicative' | 'additive';

/**
 * How a series was seasonally adjusted, t counted from the first value of the adjusted series.
 * Classical: `indices[t % period]` is the factor (multiplicative) or offset (additive) at t.
 * Fourier: the factor is 1 + Σ_k (cos_k·cos(2πkt/P) + sin_k·sin(2πkt/P)) (offset without the 1),
 * with P the exact, possibly fractional, period.
 */
export type SeasonalAdjustment = {
  kind: SeasonalKind;
  period: number;
  indices: number[];
  fourier?: { cos: number[]; sin: number[] };
};

/** How to estimate the seasonal component: 0 harmonics means classical decomposition. */
export type SeasonalMethod = { harmonics: number };

/** One-sided 90% critical value used by the M4 benchmarks' seasonality test. */
const SEASONALITY_CRITICAL_VALUE = 1.645;

/** The M4 benchmarks require three full cycles before testing for seasonality. */
export const MIN_CYCLES_FOR_SEASONALITY = 3;

export function integerPeriod(seasonLength: number): number {
  return Math.max(1, Math.round(seasonLength));
}

/**
 * M4's test: seasonal when |r_m| > 1.645·√((1 + 2 Σ_{k<m} r_k²) / n). The autocorrelations are
 * computed up to lag m itself; a smaller default maximum lag would silently answer "no".
 */
export function isSeasonal(values: readonly number[], seasonLength: number): boolean {
  const m = integerPeriod(seasonLength);
  const n = values.length;
  if (m <= 1 || n < MIN_CYCLES_FOR_SEASONALITY * m) return false;
  const r = autocorrelations(values, m);
  let sumSquares = 0;
  for (let k = 0; k < m - 1; k++) sumSquares += r[k]! ** 2;
  const limit = SEASONALITY_CRITICAL_VALUE * Math.sqrt((1 + 2 * sumSquares) / n);
  return Math.abs(r[m - 1]!) > limit;
}

/** Centred moving average of order m (2×m for even m); NaN where the window does not fit. */
export function centredMovingAverage(values: readonly number[], m: number): number[] {
  const n = values.length;
  const result = new Array<number>(n).fill(Number.NaN);
  const half = m >> 1;
  for (let t = half; t < n - half; t++) {
    let total = 0;
    if (m % 2 === 1) {
      for (let k = t - half; k <= t + half; k++) total += values[k]!;
      result[t] = total / m;
    } else {
      total = (values[t - half]! + values[t + half]!) / 2;
      for (let k = t - half + 1; k < t + half; k++) total += values[k]!;
      result[t] = total / m;
    }
  }
  return result;
}

/**
 * Classical decomposition's seasonal indices: ratios (or differences) to the centred moving
 * average, averaged per position in the cycle and normalised to mean 1 (or 0).
 */
export function classicalSeasonalIndices(
  values: readonly number[],
  seasonLength: number,
  kind: 'multiplicative' | 'additive',
): number[] {
  const m = integerPeriod(seasonLength);
  const trend = centredMovingAverage(values, m);
  const totals = new Array<number>(m).fill(0);
  const counts = new Array<number>(m).fill(0);
  for (let t = 0; t < values.length; t++) {
    const level = trend[t]!;
    if (Number.isNaN(level)) continue;
    const detrended = kind === 'multiplicative' ? values[t]! / level : values[t]! - level;
    totals[t % m] = totals[t % m]! + detrended;
    counts[t % m] = counts[t % m]! + 1;
  }
  const neutral = kind === 'multiplicative' ? 1 : 0;
  const indices = totals.map((total, i) => (counts[i]! > 0 ? total / counts[i]! : neutral));
  const average = indices.reduce((a, b) => a + b, 0) / m;
  return kind === 'multiplicative' ? indices.map((s) => s / average) : indices.map((s) => s - average);
}

/**
 * Test, then decompose: multiplicative when every value is positive (the M4 benchmarks' choice),
 * additive otherwise, none when the test says the series is not seasonal. With `harmonics` > 0
 * the detrended values are smoothed by a Fourier regression on the exact period instead of being
 * averaged per position: fewer parameters than 52 indices estimated from a few noisy cycles.
 */
export function seasonalAdjustment(
  values: readonly number[],
  seasonLength: number,
  method: SeasonalMethod = { harmonics: 0 },
): SeasonalAdjustment {
  const period = integerPeriod(seasonLength);
  if (!isSeasonal(values, period)) return { kind: 'none', period: 1, indices: [0] };
  const isPositive = values.every((v) => v > 0);
  const kind = isPositive ? 'multiplicative' : 'additive';
  if (method.harmonics > 0) {
    const harmonics = Math.min(method.harmonics, Math.floor(seasonLength / 2));
    return {
      kind,
      period: seasonLength,
      indices: [],
      fourier: fourierSeason(values, seasonLength, harmonics, kind),
    };
  }
  return { kind, period, indices: classicalSeasonalIndices(values, period, kind) };
}

/** Least-squares Fourier fit of the ratios (differences) to the centred moving average. */
export function fourierSeason(
  values: readonly number[],
  seasonLength: number,
  harmonics: number,
  kind: 'multiplicative' | 'additive',
): { cos: number[]; sin: number[] } {
  const trend = centredMovingAverage(values, integerPeriod(seasonLength));
  const size = 2 * harmonics;
  const normal = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const rhs = new Array<number>(size).fill(0);
  const row = new Array<number>(size).fill(0);
  for (let t = 0; t < values.length; t++) {
    const level = trend[t]!;
    if (Number.isNaN(level)) continue;
    const target = kind === 'multiplicative' ? values[t]! / level - 1 : values[t]! - level;
    for (let k = 0; k < harmonics; k++) {
      const angle = (2 * Math.PI * (k + 1) * t) / seasonLength;
      row[2 * k] = Math.cos(angle);
      row[2 * k + 1] = Math.sin(angle);
    }
    for (let i = 0; i < size; i++) {
      rhs[i] = rhs[i]! + row[i]! * target;
      const normalRow = normal[i]!;
      for (let j = 0; j < size; j++) normalRow[j] = normalRow[j]! + row[i]! * row[j]!;
    }
  }
  const solution = solveLinearSystem(normal, rhs);
  return {
    cos: Array.from({ length: harmonics }, (_, k) => solution[2 * k]!),
    sin: Array.from({ length: harmonics }, (_, k) => solution[2 * k + 1]!),
  };
}

/** Removes the seasonal component; `offset` is the time of values[0] in the adjustment's clock. */
export function deseasonalize(
  values: readonly number[],
  adjustment: SeasonalAdjustment,
  offset = 0,
): number[] {
  return values.map((v, t) => removeSeason(v, adjustment, offset + t));
}

/** Puts the seasonal component back on a forecast that starts at time `start`. */
export function reseasonalize(
  values: readonly number[],
  adjustment: SeasonalAdjustment,
  start: number,
): number[] {
  return values.map((v, j) => addSeason(v, adjustment, start + j));
}

/** Scales a spread (standard deviation) into the seasonal series' units at each step. */
export function reseasonalizeSpread(
  spread: readonly number[],
  adjustment: SeasonalAdjustment,
  start: number,
): number[] {
  if (adjustment.kind !== 'multiplicative') return [...spread];
  return spread.map((s, j) => s * seasonalIndexAt(adjustment, start + j));
}

/** Lowest multiplicative factor allowed: a Fourier fit can dip towards zero on spiky data. */
const MIN_FACTOR = 0.05;

function seasonalIndexAt(adjustment: SeasonalAdjustment, t: number): number {
  const { fourier } = adjustment;
  if (!fourier) return adjustment.indices[t % adjustment.period]!;
  let component = 0;
  for (let k = 0; k < fourier.cos.length; k++) {
    const angle = (2 * Math.PI * (k + 1) * t) / adjustment.period;
    component += fourier.cos[k]! * Math.cos(angle) + fourier.sin[k]! * Math.sin(angle);
  }
  return adjustment.kind === 'multiplicative' ? Math.max(MIN_FACTOR, 1 + component) : component;
}

function removeSeason(value: number, adjustment: SeasonalAdjustment, t: number): number {
  switch (adjustment.kind) {
    case 'none':
      return value;
    case 'multiplicative':
      return value / seasonalIndexAt(adjustment, t);
    case 'additive':
      return value - seasonalIndexAt(adjustment, t);
  }
}

function addSeason(value: number, adjustment: SeasonalAdjustment, t: number): number {
  switch (adjustment.kind) {
    case 'none':
      return value;
    case 'multiplicative':
      return value * seasonalIndexAt(adjustment, t);
    case 'additive':
      return value + seasonalIndexAt(adjustment, t);
  }
}
