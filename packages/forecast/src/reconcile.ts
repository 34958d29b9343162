/**
 * Forecast reconciliation across a hierarchy (products → families → business units → total), so
 * that every level's forecast is the sum of its children's (Hyndman & Athanasopoulos, FPP3 ch. 11).
 *
 * A hierarchy is its summing matrix S (n nodes × m bottom series, 0/1): row i says which bottom
 * series node i adds up. A coherent forecast of all nodes is S·b for bottom forecasts b.
 * - bottom-up: b = the bottom series' own forecasts;
 * - top-down: b = the top forecast split by the bottom series' historical shares;
 * - MinT (Wickramasuriya, Athanasopoulos & Hyndman 2019): b = (S'W⁻¹S)⁻¹ S'W⁻¹ ŷ, ŷ every node's
 *   own forecast and W the covariance of their errors: W = I is OLS, W = diag(σ²) is WLS, and
 *   `shrunkCovariance` is MinT-shrink. The reconciled forecast is the coherent one closest to the
 *   base forecasts in the metric W⁻¹, which minimises the trace of the reconciled errors'
 *   covariance when W is the true one.
 */

export type Matrix = readonly (readonly number[])[];

/**
 * The summing matrix of a hierarchy given, for each bottom series, the chain of its ancestors'
 * keys from the top (e.g. ['total', 'BU1', 'FAM3']). Rows: every distinct ancestor in order of
 * first appearance (the top first), then the bottom series themselves.
 */
export function summingMatrix(paths: readonly (readonly string[])[]): {
  nodes: string[];
  summing: number[][];
} {
  const nodes: string[] = [];
  const index = new Map<string, number>();
  for (const path of paths)
    for (const key of path)
      if (!index.has(key)) {
        index.set(key, nodes.length);
        nodes.push(key);
      }
  const m = paths.length;
  const summing = nodes.map((key) => paths.map((path) => (path.includes(key) ? 1 : 0)));
  paths.forEach((_, j) => {
    nodes.push(`#${j}`);
    summing.push(Array.from({ length: m }, (_, k) => (k === j ? 1 : 0)));
  });
  return { nodes, summing };
}

/** S·b: every node's value from the bottom series'. */
export function aggregate(summing: Matrix, bottom: readonly number[]): number[] {
  return summing.map((row) => row.reduce((t, s, j) => t + s * bottom[j]!, 0));
}

/** Bottom-up: the bottom forecasts summed up the hierarchy. */
export function bottomUp(summing: Matrix, bottom: readonly number[]): number[] {
  return aggregate(summing, bottom);
}

/**
 * Top-down: the top node's forecast split by the bottom series' shares (e.g. their share of the
 * top's history, Gross & Sohl's average of proportions), then summed up. Shares are normalised.
 */
export function topDown(summing: Matrix, top: number, shares: readonly number[]): number[] {
  const total = shares.reduce((t, s) => t + s, 0);
  const bottom = shares.map((s) => (total > 0 ? (top * s) / total : top / shares.length));
  return aggregate(summing, bottom);
}

/**
 * MinT: S (S'W⁻¹S)⁻¹ S'W⁻¹ ŷ for every node's base forecast ŷ (one horizon step). W is n × n,
 * symmetric positive definite.
 */
export function minTrace(summing: Matrix, base: readonly number[], covariance: Matrix): number[] {
  return minTraceProjection(summing, covariance)(base);
}

/**
 * The MinT map ŷ ↦ S (S'W⁻¹S)⁻¹ S'W⁻¹ ŷ, with G = (S'W⁻¹S)⁻¹ S'W⁻¹ (m × n) computed once, for
 * reconciling every step of a horizon with the same W.
 */
export function minTraceProjection(
  summing: Matrix,
  covariance: Matrix,
): (base: readonly number[]) => number[] {
  const n = summing.length;
  const m = summing[0]?.length ?? 0;
  const inverseW = invert(covariance);
  // X = W⁻¹S (n × m).
  const x = inverseW.map((row) =>
    Array.from({ length: m }, (_, j) => {
      let total = 0;
      for (let k = 0; k < n; k++) total += row[k]! * summing[k]![j]!;
      return total;
    }),
  );
  // A = S'W⁻¹S (m × m); G = A⁻¹ X' (W symmetric, so S'W⁻¹ = X').
  const a = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (_, j) => {
      let total = 0;
      for (let k = 0; k < n; k++) total += summing[k]![i]! * x[k]![j]!;
      return total;
    }),
  );
  const inverseA = invert(a);
  const g = inverseA.map((row) =>
    Array.from({ length: n }, (_, k) => {
      let total = 0;
      for (let j = 0; j < m; j++) total += row[j]! * x[k]![j]!;
      return total;
    }),
  );
  return (base) => {
    const bottom = g.map((row) => row.reduce((t, v, k) => t + v * base[k]!, 0));
    return aggregate(summing, bottom);
  };
}

/** Inverse of a square matrix by Gauss–Jordan elimination with partial pivoting. */
export function invert(matrix: Matrix): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-14) throw new Error('Singular matrix in reconciliation');
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const pivotRow = a[col]!;
    const scale = pivotRow[col]!;
    for (let k = 0; k < 2 * n; k++) pivotRow[k] = pivotRow[k]! / scale;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const target = a[row]!;
      const factor = target[col]!;
      if (factor === 0) continue;
      for (let k = 0; k < 2 * n; k++) target[k] = target[k]! - factor * pivotRow[k]!;
    }
  }
  return a.map((row) => row.slice(n));
}

/** W = I: ordinary least squares reconciliation. */
export function identity(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}

/**
 * MinT-shrink's W from in-sample one-step errors (T rows × n nodes): the sample covariance shrunk
 * towards its diagonal, λ from Schäfer & Strimmer (2005) on the correlations, as in
 * Wickramasuriya et al. (2019): λ = Σ_{i≠j} Var(r_ij) / Σ_{i≠j} r_ij², clamped to [0, 1], with
 * r_ij the correlations and Var(r_ij) = T/(T−1)³ Σ_t (w_tij − w̄_ij)², w_tij the products of the
 * standardised errors.
 */
export function shrunkCovariance(errors: Matrix): { covariance: number[][]; lambda: number } {
  const t = errors.length;
  const n = errors[0]?.length ?? 0;
  const means = Array.from({ length: n }, (_, i) => errors.reduce((s, row) => s + row[i]!, 0) / t);
  const centred = errors.map((row) => row.map((v, i) => v - means[i]!));
  const sample = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => centred.reduce((s, row) => s + row[i]! * row[j]!, 0) / t),
  );
  const sd = sample.map((row, i) => Math.sqrt(row[i]!));
  const standard = centred.map((row) => row.map((v, i) => (sd[i]! > 0 ? v / sd[i]! : 0)));
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const products = standard.map((row) => row[i]! * row[j]!);
      const mean = products.reduce((s, v) => s + v, 0) / t;
      const r = (t / (t - 1)) * mean;
      const variance = (t / (t - 1) ** 3) * products.reduce((s, v) => s + (v - mean) ** 2, 0);
      numerator += variance;
      denominator += r * r;
    }
  const lambda = denominator > 0 ? Math.min(1, Math.max(0, numerator / denominator)) : 1;
  const covariance = sample.map((row, i) => row.map((v, j) => (i === j ? v : (1 - lambda) * v)));
  return { covariance, lambda };
}
