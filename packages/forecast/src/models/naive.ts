import type { ModelForecast } from '../types';

/**
 * Naïve: every future value equals the last one (Hyndman & Athanasopoulos, FPP3 §5.2). The error
 * after h steps is a random walk's: sd = σ·√h, σ² the mean squared one-step change.
 */
export function naive(values: readonly number[], horizon: number): ModelForecast {
  const last = values[values.length - 1] ?? 0;
  const sigma = Math.sqrt(meanSquaredChange(values, 1));
  return {
    model: 'naive',
    mean: new Array<number>(horizon).fill(last),
    sd: Array.from({ length: horizon }, (_, j) => sigma * Math.sqrt(j + 1)),
  };
}

/**
 * Seasonal naïve: the value one season earlier (FPP3 §5.2); sd = σ·√(k + 1) with k the number of
 * whole seasons already forecast ahead. Falls back to naïve when there is less than one season.
 */
export function seasonalNaive(values: readonly number[], horizon: number, period: number): ModelForecast {
  const n = values.length;
  if (period <= 1 || n < period) return { ...naive(values, horizon), model: 'seasonal-naive' };
  const sigma = Math.sqrt(meanSquaredChange(values, period));
  return {
    model: 'seasonal-naive',
    mean: Array.from({ length: horizon }, (_, j) => values[n - period + (j % period)]!),
    sd: Array.from({ length: horizon }, (_, j) => sigma * Math.sqrt(Math.floor(j / period) + 1)),
  };
}

function meanSquaredChange(values: readonly number[], lag: number): number {
  let total = 0;
  let count = 0;
  for (let t = lag; t < values.length; t++) {
    total += (values[t]! - values[t - lag]!) ** 2;
    count++;
  }
  return count === 0 ? 0 : total / count;
}
