/**
 * Accuracy measures as the M4 competition defines them (Makridakis, Spiliotis & Assimakopoulos,
 * "The M4 Competition", IJF 36, 2020, §2.3), plus the MAPE and bias the product shows.
 */

/** Symmetric MAPE in percent: mean of 200·|y − f| / (|y| + |f|); a 0/0 term counts as 0. */
export function smape(actual: readonly number[], forecast: readonly number[]): number {
  let total = 0;
  for (let j = 0; j < actual.length; j++) {
    const y = actual[j]!;
    const f = forecast[j]!;
    const denominator = Math.abs(y) + Math.abs(f);
    total += denominator === 0 ? 0 : (200 * Math.abs(y - f)) / denominator;
  }
  return total / actual.length;
}

/**
 * Mean absolute scaled error: forecast MAE over the in-sample MAE of the seasonal naïve with lag
 * `lag` (M4 uses lag 1 for weekly data).
 */
export function mase(
  insample: readonly number[],
  actual: readonly number[],
  forecast: readonly number[],
  lag = 1,
): number {
  let scale = 0;
  for (let t = lag; t < insample.length; t++) scale += Math.abs(insample[t]! - insample[t - lag]!);
  scale /= insample.length - lag;
  let total = 0;
  for (let j = 0; j < actual.length; j++) total += Math.abs(actual[j]! - forecast[j]!);
  return total / actual.length / scale;
}

/** Overall weighted average relative to a benchmark: ½ (sMAPE / sMAPE_bench + MASE / MASE_bench). */
export function owa(
  scores: { smape: number; mase: number },
  benchmark: { smape: number; mase: number },
): number {
  return (scores.smape / benchmark.smape + scores.mase / benchmark.mase) / 2;
}

/** MAPE in percent, over the periods with non-zero actuals (NaN when there are none). */
export function mape(actual: readonly number[], forecast: readonly number[]): number {
  let total = 0;
  let count = 0;
  for (let j = 0; j < actual.length; j++) {
    const y = actual[j]!;
    if (y === 0) continue;
    total += Math.abs((y - forecast[j]!) / y);
    count++;
  }
  return count === 0 ? Number.NaN : (100 * total) / count;
}

/** Bias in percent of actual volume: 100·Σ(f − y) / Σ|y|; positive means over-forecasting. */
export function bias(actual: readonly number[], forecast: readonly number[]): number {
  let error = 0;
  let volume = 0;
  for (let j = 0; j < actual.length; j++) {
    error += forecast[j]! - actual[j]!;
    volume += Math.abs(actual[j]!);
  }
  return volume === 0 ? (error === 0 ? 0 : Number.NaN) : (100 * error) / volume;
}

/**
 * Mean scaled interval score of a (1 − alpha) interval, as M4 scored its 95% intervals
 * (Makridakis et al. 2020, §2.3; Gneiting & Raftery 2007): the mean over the horizon of
 * (U − L) + (2/alpha)(L − y)·[y < L] + (2/alpha)(y − U)·[y > U], divided by MASE's scale.
 * Lower is better: narrow intervals that still hold the actuals.
 */
export function msis(
  insample: readonly number[],
  actual: readonly number[],
  lower: readonly number[],
  upper: readonly number[],
  alpha = 0.05,
  lag = 1,
): number {
  let scale = 0;
  for (let t = lag; t < insample.length; t++) scale += Math.abs(insample[t]! - insample[t - lag]!);
  scale /= insample.length - lag;
  let total = 0;
  for (let j = 0; j < actual.length; j++) {
    const y = actual[j]!;
    const l = lower[j]!;
    const u = upper[j]!;
    total += u - l;
    if (y < l) total += (2 / alpha) * (l - y);
    if (y > u) total += (2 / alpha) * (y - u);
  }
  return total / actual.length / scale;
}
