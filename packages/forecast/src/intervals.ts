/**
 * Prediction intervals of the combination. The members' analytic spreads come from residuals over
 * their whole fitting window (up to 50 years), so a series that has been quiet lately keeps the
 * width of its noisy past and one that has just turned volatile keeps the calm past's width. On
 * the design origins, scaling the spread by the recent volatility relative to the whole history
 * (to a small power) made the coverage of a left-out origin closer to nominal and the interval
 * score lower at both levels (docs/forecasting.md, Interval calibration).
 */

/** How the combined spread is adjusted before the calibrated factors apply. */
export type SpreadAdjustment = {
  /** Recent period changes compared with the whole history's (13 = a quarter of weekly data). */
  recentPeriods: number;
  /** Power of the volatility ratio; 0 leaves the model spread as it is. */
  exponent: number;
};

/**
 * The ratio is clamped so that a run of identical values (no recent change at all) or one
 * outlier in the last weeks cannot collapse or blow up an interval; on the M4 weekly design
 * origins fewer than 1.5% of the series reach a bound.
 */
const RATIO_BOUNDS = [0.1, 10] as const;

/**
 * Mean |y_t − y_{t−1}| over the last `recentPeriods` changes divided by the mean over the whole
 * history, clamped to [0.1, 10]. 1 when the history has no more changes than the recent span, or
 * none at all (a constant series).
 */
export function recentVolatilityRatio(values: readonly number[], recentPeriods: number): number {
  const changes = values.length - 1;
  if (changes <= recentPeriods || recentPeriods < 1) return 1;
  let total = 0;
  let recent = 0;
  for (let t = 1; t < values.length; t++) {
    const change = Math.abs(values[t]! - values[t - 1]!);
    total += change;
    if (t >= values.length - recentPeriods) recent += change;
  }
  if (!(total > 0)) return 1;
  const ratio = recent / recentPeriods / (total / changes);
  return Math.min(RATIO_BOUNDS[1], Math.max(RATIO_BOUNDS[0], ratio));
}

/** The factor the combined spread is multiplied by: recentVolatilityRatio ^ exponent. */
export function spreadMultiplier(values: readonly number[], adjustment: SpreadAdjustment): number {
  if (adjustment.exponent === 0) return 1;
  return recentVolatilityRatio(values, adjustment.recentPeriods) ** adjustment.exponent;
}

/**
 * mean ± z·sd at each step; both bounds clipped at 0 when the history has no negative value (as
 * the forecast itself is).
 */
export function intervalBounds(
  mean: readonly number[],
  sd: readonly number[],
  z: number,
  isNonNegative: boolean,
): { lower: number[]; upper: number[] } {
  const clip = (v: number): number => (isNonNegative ? Math.max(0, v) : v);
  return {
    lower: mean.map((v, j) => clip(v - z * sd[j]!)),
    upper: mean.map((v, j) => clip(v + z * sd[j]!)),
  };
}
