/**
 * The learned global member's inputs: for a series cut at origin t (its last observed index),
 * values scaled by a robust level, and for horizon step h the scaled value at t + h as target.
 *
 * The M4 file and a product's history carry no calendar dates that line up across series, so the
 * yearly pattern enters as the values 52 weeks before the target week (and its neighbours) and as
 * what followed the same point one year earlier, all on the series' own scale.
 */

/** Recent scaled values r_k = y[t − k] / level for k = 0 … RECENT − 1. */
const RECENT = 13;
/** Weeks in a (rounded) year: the yearly lags. */
const YEAR = 52;
/** Values a series needs up to its origin: the yearly lags of the target week reach back 52. */
export const MIN_HISTORY = YEAR + RECENT;

/** Feature names, in the order of `features`; the documentation lists the same. */
export const FEATURE_NAMES = [
  ...Array.from({ length: RECENT }, (_, k) => `y[t-${k}]/L`),
  'mean(y[t-25..t-13])/L',
  'mean(y[t-51..t-26])/L',
  'y[t+h-53]/L',
  'y[t+h-52]/L',
  'y[t+h-51]/L',
  'y[t+h-52]/level at t-52',
  'y[t+h-104]/level at t-104',
  'mean|Δy| over the last 13 / L',
] as const;

export const FEATURE_COUNT = FEATURE_NAMES.length;

/** Limit on scaled values: one wild week must not dominate a squared-error fit. */
const CLIP = 10;

const clip = (v: number): number => (v > CLIP ? CLIP : v < -CLIP ? -CLIP : v);

/**
 * The robust level at origin t: the mean of the 13 values up to t. Null when it is not positive
 * (scaling by it would flip or blow up the series) or the history is shorter than MIN_HISTORY.
 */
export function levelAt(values: readonly number[], t: number): number | null {
  if (t + 1 < MIN_HISTORY || t >= values.length) return null;
  return meanOf(values, t - RECENT + 1, t);
}

function meanOf(values: readonly number[], from: number, to: number): number | null {
  if (from < 0) return null;
  let total = 0;
  for (let i = from; i <= to; i++) total += values[i]!;
  const mean = total / (to - from + 1);
  return mean > 0 ? mean : null;
}

/**
 * Writes the features of origin t, step h (1-based) into `out` at `offset`; returns the level L,
 * or null when the series has no usable level at t (nothing is written then). Reads only
 * values[0 … t].
 */
export function features(
  values: readonly number[],
  t: number,
  h: number,
  out: Float64Array,
  offset: number,
): number | null {
  const level = levelAt(values, t);
  if (level === null) return null;
  let k = offset;
  for (let lag = 0; lag < RECENT; lag++) out[k++] = clip(values[t - lag]! / level);
  out[k++] = clip((meanOf(values, t - 25, t - 13) ?? Number.NaN) / level);
  out[k++] = clip((meanOf(values, t - 51, t - 26) ?? Number.NaN) / level);
  for (const d of [-1, 0, 1]) out[k++] = clip(values[t + h - YEAR + d]! / level);
  out[k++] = yearAgo(values, t, h, YEAR);
  out[k++] = yearAgo(values, t, h, 2 * YEAR);
  let change = 0;
  for (let i = t - RECENT + 1; i <= t; i++) change += Math.abs(values[i]! - values[i - 1]!);
  out[k++] = clip(change / RECENT / level);
  return level;
}

/** y[t + h − back] over the level of the 13 weeks up to t − back: what followed the same point then. */
function yearAgo(values: readonly number[], t: number, h: number, back: number): number {
  const then = t - back;
  const level = then - RECENT + 1 >= 0 ? meanOf(values, then - RECENT + 1, then) : null;
  return level === null ? Number.NaN : clip(values[then + h]! / level);
}

export type WindowOptions = {
  /** Steps ahead (1 … horizon). */
  step: number;
  /**
   * Number of values of each series the rows may read, targets included: the training part.
   * The evaluation weeks, and for the back-test the inner hold-out, lie beyond it.
   */
  usable: readonly number[];
  /** Most origins taken per series, the newest first. */
  originsPerSeries: number;
  /** Weeks between consecutive origins of a series. */
  stride: number;
};

/**
 * Training rows of one step: for each series, origins t = usable − 1 − step, then `stride` weeks
 * earlier, … (at most `originsPerSeries`), each with its features and target y[t + step] / L.
 * Every value a row reads — features and target — has an index below `usable[i]`, so nothing
 * after the training part is ever seen.
 */
export function trainingRows(
  series: readonly (readonly number[])[],
  options: WindowOptions,
): { x: Float64Array; y: Float64Array; rows: number; features: number } {
  const { step, usable, originsPerSeries, stride } = options;
  const capacity = series.length * originsPerSeries;
  const x = new Float64Array(capacity * FEATURE_COUNT);
  const y = new Float64Array(capacity);
  let rows = 0;
  series.forEach((values, i) => {
    const end = Math.min(values.length, usable[i]!);
    for (let s = 0; s < originsPerSeries; s++) {
      const t = end - 1 - step - s * stride;
      if (t + 1 < MIN_HISTORY) break;
      const level = features(values, t, step, x, rows * FEATURE_COUNT);
      if (level === null) continue;
      y[rows] = clip(values[t + step]! / level);
      rows++;
    }
  });
  return { x: x.subarray(0, rows * FEATURE_COUNT), y: y.subarray(0, rows), rows, features: FEATURE_COUNT };
}
