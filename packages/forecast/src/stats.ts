/** Small numeric helpers shared by the models. Plain loops: these run millions of times in a batch. */

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : sum(values) / values.length;
}

/** Median of the values; NaN for an empty list. Does not modify its argument. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Sample autocorrelations r_1 … r_maxLag (index 0 holds r_1), as in R's `acf`. */
export function autocorrelations(values: readonly number[], maxLag: number): number[] {
  const n = values.length;
  const m = mean(values);
  let denominator = 0;
  for (const v of values) denominator += (v - m) * (v - m);
  const result: number[] = [];
  for (let lag = 1; lag <= maxLag; lag++) {
    if (lag >= n || denominator === 0) {
      result.push(0);
      continue;
    }
    let numerator = 0;
    for (let t = lag; t < n; t++) numerator += (values[t]! - m) * (values[t - lag]! - m);
    result.push(numerator / denominator);
  }
  return result;
}

/** Ordinary least squares line y = intercept + slope·t with t = 1…n (the Theta method's convention). */
export function linearTrend(values: readonly number[]): { intercept: number; slope: number } {
  const n = values.length;
  if (n < 2) return { intercept: values[0] ?? 0, slope: 0 };
  let sumY = 0;
  let sumTY = 0;
  for (let t = 0; t < n; t++) {
    sumY += values[t]!;
    sumTY += (t + 1) * values[t]!;
  }
  const meanY = sumY / n;
  const slope = (6 * ((2 * sumTY) / n - (n + 1) * meanY)) / (n * n - 1);
  return { intercept: meanY - (slope * (n + 1)) / 2, slope };
}

/** Mean absolute lag-`lag` difference: the MASE scale, and a scale for noise in general. */
export function meanAbsoluteDifference(values: readonly number[], lag = 1): number {
  let total = 0;
  let count = 0;
  for (let t = lag; t < values.length; t++) {
    total += Math.abs(values[t]! - values[t - lag]!);
    count++;
  }
  return count === 0 ? Number.NaN : total / count;
}

/** Standard normal quantiles for the interval levels we publish. */
export const Z_80 = 1.2815515655446004;
export const Z_95 = 1.959963984540054;

/**
 * Solves A·x = b by Gaussian elimination with partial pivoting (A is n×n, row-major, copied).
 * Returns zeros for the components of a singular system rather than failing: callers use it for
 * small least-squares problems where a degenerate column simply contributes nothing.
 */
export function solveLinearSystem(matrix: readonly (readonly number[])[], rhs: readonly number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-12) continue;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const pivotRow = a[col]!;
    for (let row = col + 1; row < n; row++) {
      const target = a[row]!;
      const factor = target[col]! / pivotRow[col]!;
      if (factor === 0) continue;
      for (let k = col; k <= n; k++) target[k] = target[k]! - factor * pivotRow[k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    const current = a[row]!;
    if (Math.abs(current[row]!) < 1e-12) continue;
    let total = current[n]!;
    for (let k = row + 1; k < n; k++) total -= current[k]! * x[k]!;
    x[row] = total / current[row]!;
  }
  return x;
}

/**
 * Φ⁻¹(p), the standard normal quantile, by Acklam's rational approximation (relative error
 * below 1.2e-9). ±Infinity at 0 and 1.
 */
export function inverseNormal(p: number): number {
  if (!(p > 0)) return p === 0 ? Number.NEGATIVE_INFINITY : Number.NaN;
  if (!(p < 1)) return p === 1 ? Number.POSITIVE_INFINITY : Number.NaN;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  return x;
}
