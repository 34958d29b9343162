import type { ModelForecast, ModelName } from '../types';

/**
 * Temporal aggregation for noisy series: forecast the sums of k consecutive periods, where the
 * noise partly cancels, and spread each bucket's forecast evenly over its k periods.
 *
 * - ADIDA (Nikolopoulos, Syntetos, Boylan, Petropoulos & Assimakopoulos, "An aggregate–
 *   disaggregate intermittent demand approach (ADIDA)", JORS 62 (2011)): one aggregation level.
 * - MAPA (Kourentzes, Petropoulos & Trapero, "Improving forecasting by estimating time series
 *   structural components across multiple frequencies", IJF 30 (2014)), in its forecast-
 *   combination form: a model per level k = 1…K, the disaggregated forecasts averaged.
 */

/** Forecasts `horizon` steps of a series; undefined when the model cannot be fitted. */
export type BaseForecaster = (values: readonly number[], horizon: number) => ModelForecast | undefined;

/**
 * Sums of k consecutive values, aligned to the end of the series so that the last bucket is
 * complete and the first forecast bucket starts right after the last value (the oldest n mod k
 * values are dropped).
 */
export function aggregate(values: readonly number[], k: number): number[] {
  const buckets: number[] = [];
  for (let end = values.length; end - k >= 0; end -= k) {
    let total = 0;
    for (let t = end - k; t < end; t++) total += values[t]!;
    buckets.push(total);
  }
  return buckets.reverse();
}

/**
 * Forecast at aggregation level k, brought back to the original periods: bucket forecast / k
 * for each of its k periods. The spread per period is the bucket's over √k, as if the k periods'
 * errors were independent (the bucket's variance is then k times a period's).
 */
export function aggregateForecast(
  values: readonly number[],
  horizon: number,
  k: number,
  base: BaseForecaster,
): { mean: number[]; sd: number[] } | undefined {
  const buckets = aggregate(values, k);
  const forecast = base(buckets, Math.ceil(horizon / k));
  if (!forecast) return undefined;
  const mean: number[] = [];
  const sd: number[] = [];
  for (let j = 0; j < horizon; j++) {
    const b = Math.floor(j / k);
    mean.push(forecast.mean[b]! / k);
    sd.push(forecast.sd[b]! / Math.sqrt(k));
  }
  return { mean, sd };
}

/** ADIDA at one aggregation level. */
export function adida(
  values: readonly number[],
  horizon: number,
  k: number,
  base: BaseForecaster,
  model: ModelName = 'adida',
): ModelForecast | undefined {
  const result = aggregateForecast(values, horizon, k, base);
  return result && { model, ...result };
}

/**
 * MAPA, combining forecasts: the mean over the levels that have at least `minBuckets` buckets
 * and a fitted model, step by step (spreads averaged the same way).
 */
export function mapa(
  values: readonly number[],
  horizon: number,
  levels: readonly number[],
  base: BaseForecaster,
  minBuckets: number,
  model: ModelName = 'mapa',
): ModelForecast | undefined {
  const paths: { mean: number[]; sd: number[] }[] = [];
  for (const k of levels) {
    if (Math.floor(values.length / k) < minBuckets) continue;
    const path = aggregateForecast(values, horizon, k, base);
    if (path && path.mean.every(Number.isFinite)) paths.push(path);
  }
  if (paths.length === 0) return undefined;
  const mean = new Array<number>(horizon).fill(0);
  const sd = new Array<number>(horizon).fill(0);
  for (const path of paths)
    for (let j = 0; j < horizon; j++) {
      mean[j] = mean[j]! + path.mean[j]! / paths.length;
      sd[j] = sd[j]! + path.sd[j]! / paths.length;
    }
  return { model, mean, sd };
}
