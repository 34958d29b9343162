import { nelderMead } from '../optimize/nelder-mead';
import type { ModelForecast } from '../types';

/**
 * Complex Exponential Smoothing, non-seasonal, from Svetunkov, Kourentzes & Ord, "Complex
 * exponential smoothing", Naval Research Logistics 69 (2022), eq. (11): a level ℓ and an
 * "information potential" c smoothed with the complex parameter a0 + i·a1.
 *
 *   ŷ_t = ℓ_{t−1},  e_t = y_t − ŷ_t
 *   ℓ_t = ℓ_{t−1} − (1 − a1)·c_{t−1} + (a0 − a1)·e_t
 *   c_t = ℓ_{t−1} + (1 − a0)·c_{t−1} + (a0 + a1)·e_t
 *
 * Without choosing a trend type, it moves between level and trend behaviour as the data ask.
 * Weekly seasonality is removed beforehand, so the seasonal CES variants are not needed here.
 */

export type CesFit = { a0: number; a1: number; sigma2: number; level: number; potential: number };

/** The paper's bounds (also statsforecast's). */
const A0_BOUNDS = [0.01, 1.8] as const;
const A1_BOUNDS = [0.01, 1.9] as const;
/** Start values used by statsforecast's auto_ces. */
const START = [1.3, 1] as const;

/**
 * True when the discount matrix D = F − g·w' has both eigenvalues inside the unit circle, the
 * stability condition of the paper (§3): otherwise old errors would grow instead of fading.
 */
export function isCesStable(a0: number, a1: number): boolean {
  const d11 = 1 - (a0 - a1);
  const d12 = -(1 - a1);
  const d21 = 1 - (a0 + a1);
  const d22 = 1 - a0;
  const trace = d11 + d22;
  const det = d11 * d22 - d12 * d21;
  const discriminant = (trace * trace) / 4 - det;
  if (discriminant < 0) return det < 1; // complex pair, |λ|² = det
  const root = Math.sqrt(discriminant);
  return Math.max(Math.abs(trace / 2 + root), Math.abs(trace / 2 - root)) < 1;
}

function cesSse(
  values: readonly number[],
  a0: number,
  a1: number,
  start: { level: number; potential: number },
  out?: CesFit,
): number {
  let level = start.level;
  let potential = start.potential;
  let sse = 0;
  for (const y of values) {
    const e = y - level;
    sse += e * e;
    const newLevel = level - (1 - a1) * potential + (a0 - a1) * e;
    potential = level + (1 - a0) * potential + (a0 + a1) * e;
    level = newLevel;
  }
  if (out) {
    out.level = level;
    out.potential = potential;
  }
  return Number.isFinite(sse) ? sse : Number.POSITIVE_INFINITY;
}

/** Fits a0 and a1 by least squares (the Gaussian likelihood), the start states from the first values. */
export function fitCes(values: readonly number[]): CesFit {
  const count = Math.min(10, values.length);
  let total = 0;
  for (let t = 0; t < count; t++) total += values[t]!;
  // statsforecast's seed: the potential starts at the level / 1.1.
  const start = { level: total / count, potential: total / count / 1.1 };
  const objective = (x: readonly number[]): number =>
    isCesStable(x[0]!, x[1]!) ? cesSse(values, x[0]!, x[1]!, start) : Number.POSITIVE_INFINITY;
  const result = nelderMead(objective, [...START], {
    lower: [A0_BOUNDS[0], A1_BOUNDS[0]],
    upper: [A0_BOUNDS[1], A1_BOUNDS[1]],
  });
  const fit: CesFit = { a0: result.x[0]!, a1: result.x[1]!, sigma2: 0, level: 0, potential: 0 };
  const sse = cesSse(values, fit.a0, fit.a1, start, fit);
  fit.sigma2 = sse / Math.max(1, values.length - 2);
  return fit;
}

/**
 * Point forecasts run the transition without errors; the spread is the linear state-space one,
 * var_h = σ²·(1 + Σ_{j=1}^{h−1} (w'F^{j−1}g)²) (Hyndman et al. 2008, §6.1).
 */
export function forecastCes(fit: CesFit, horizon: number): ModelForecast {
  const { a0, a1 } = fit;
  let level = fit.level;
  let potential = fit.potential;
  // F^{j−1}·g, starting from g.
  let gLevel = a0 - a1;
  let gPotential = a0 + a1;
  let varianceMultiplier = 1;
  const mean: number[] = [];
  const sd: number[] = [];
  for (let j = 0; j < horizon; j++) {
    mean.push(level);
    sd.push(Math.sqrt(fit.sigma2 * varianceMultiplier));
    const nextLevel = level - (1 - a1) * potential;
    potential = level + (1 - a0) * potential;
    level = nextLevel;
    varianceMultiplier += gLevel * gLevel;
    const nextG = gLevel - (1 - a1) * gPotential;
    gPotential = gLevel + (1 - a0) * gPotential;
    gLevel = nextG;
  }
  return { model: 'ces', mean, sd };
}
