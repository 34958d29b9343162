/**
 * Quantile forecasts of the ensemble and the scores that judge them.
 *
 * A quantile at step j is the point forecast plus an offset times the combined spread:
 * q_τ,j = f_j + c_τ·s_j. For continuous demand c_τ is the empirical τ-quantile of the scaled
 * errors (y − f) / s pooled over the design origins of the rolling-origin evaluation (split
 * conformal calibration with one score per level): the members' spreads overstate a
 * combination's error, and its errors are skewed (members on the log scale) and heavier-tailed
 * than normal, which a normal quantile times one factor cannot follow. Intermittent demand keeps
 * the normal quantile of its own model's spread.
 */
import { inverseNormal } from './stats';

/** Levels every forecast carries: the 80% and 95% bands, the median, and the inventory's 90/95/98%. */
export const QUANTILE_LEVELS = [0.02, 0.025, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95, 0.975, 0.98] as const;

export type QuantileOffset = { level: number; offset: number };
export type QuantilePath = { level: number; values: number[] };

/** c_τ = Φ⁻¹(τ): the offsets of a normal forecast distribution with standard deviation s. */
export function normalOffsets(levels: readonly number[] = QUANTILE_LEVELS): QuantileOffset[] {
  return levels.map((level) => ({ level, offset: inverseNormal(level) }));
}

/**
 * f + c_τ·s at each step for each level, clipped at 0 for non-negative data. Offsets are sorted
 * first, so the paths never cross (s ≥ 0).
 */
export function quantilePaths(
  mean: readonly number[],
  spread: readonly number[],
  offsets: readonly QuantileOffset[],
  isNonNegative: boolean,
): QuantilePath[] {
  const sorted = [...offsets].sort((a, b) => a.level - b.level);
  let floor = Number.NEGATIVE_INFINITY;
  return sorted.map(({ level, offset }) => {
    floor = Math.max(floor, offset);
    const c = floor;
    return {
      level,
      values: mean.map((f, j) => {
        const value = f + c * Math.max(0, spread[j] ?? 0);
        return isNonNegative ? Math.max(0, value) : value;
      }),
    };
  });
}

/**
 * The empirical `level` quantile of a sample, interpolated between order statistics (R's type 7,
 * the default of quantile()); NaN for an empty sample.
 */
export function empiricalQuantile(sample: readonly number[], level: number): number {
  if (sample.length === 0) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, level));
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

/** Offsets from scaled errors (y − f) / s: their empirical quantile at each level. */
export function calibrateOffsets(
  scaledErrors: readonly number[],
  levels: readonly number[] = QUANTILE_LEVELS,
): QuantileOffset[] {
  const finite = scaledErrors.filter(Number.isFinite);
  return levels.map((level) => ({ level, offset: empiricalQuantile(finite, level) }));
}

/**
 * Symmetric offsets from the same errors: ±(the |2τ − 1| quantile of |error|), the ±z·factor band
 * the engine drew before quantiles, calibrated the same way (compared by the evaluation).
 */
export function symmetricOffsets(
  scaledErrors: readonly number[],
  levels: readonly number[] = QUANTILE_LEVELS,
): QuantileOffset[] {
  const absolute = scaledErrors.filter(Number.isFinite).map(Math.abs);
  return levels.map((level) => ({
    level,
    offset: Math.sign(level - 0.5) * empiricalQuantile(absolute, Math.abs(2 * level - 1)),
  }));
}

/**
 * Pinball (quantile) loss of a τ-quantile path: mean over the steps of τ·(y − q) when y ≥ q and
 * (1 − τ)·(q − y) otherwise. Divided by `scale` (e.g. MASE's in-sample mean absolute change) so
 * that series of different sizes can be averaged.
 */
export function pinballLoss(
  actual: readonly number[],
  quantile: readonly number[],
  level: number,
  scale = 1,
): number {
  let total = 0;
  for (let j = 0; j < actual.length; j++) {
    const y = actual[j]!;
    const q = quantile[j]!;
    total += y >= q ? level * (y - q) : (1 - level) * (q - y);
  }
  return total / actual.length / scale;
}
