/**
 * Bounded Nelder–Mead minimiser, the one statsforecast uses for ETS, Theta and CES: bounds are
 * enforced by clamping every trial point, the coefficients adapt to the dimension (Gao & Han 2012)
 * and the start simplex steps 5% along each coordinate. It is deterministic: no random restarts.
 */

export type NelderMeadOptions = {
  lower: readonly number[];
  upper: readonly number[];
  /** Relative size of the first simplex's steps. */
  initialStep?: number;
  /** Stop when the simplex's function values agree to this relative tolerance… */
  tolerance?: number;
  /** …and its vertices to this one (relative to max(1, |x|)); Infinity checks values only. */
  parameterTolerance?: number;
  maxIterations?: number;
};

export type NelderMeadResult = { x: number[]; value: number; iterations: number };

/** Default tolerance: parameters of smoothing models matter to about 1e-4, finer search buys nothing. */
const DEFAULT_TOLERANCE = 1e-4;
const DEFAULT_MAX_ITERATIONS = 1000;

export function nelderMead(
  objective: (x: readonly number[]) => number,
  start: readonly number[],
  options: NelderMeadOptions,
): NelderMeadResult {
  const { lower, upper } = options;
  const step = options.initialStep ?? 0.05;
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const parameterTolerance = options.parameterTolerance ?? tolerance;
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const n = start.length;
  const clamp = (x: number[]): number[] => {
    for (let i = 0; i < n; i++) x[i] = Math.min(upper[i]!, Math.max(lower[i]!, x[i]!));
    return x;
  };
  // NaN compares as "worse than anything" so a failed evaluation never wins.
  const evaluate = (x: readonly number[]): number => {
    const value = objective(x);
    return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
  };

  const reflectCoef = 1;
  const expandCoef = 1 + 2 / n;
  const contractCoef = 0.75 - 1 / (2 * n);
  const shrinkCoef = 1 - 1 / n;

  const simplex: number[][] = [clamp([...start])];
  for (let i = 0; i < n; i++) {
    const vertex = [...start];
    const delta = vertex[i] === 0 ? 0.00025 : step * vertex[i]!;
    vertex[i] = vertex[i]! + delta;
    // Step inward when the start sits on the upper bound, so the simplex keeps full dimension.
    if (vertex[i]! > upper[i]!) vertex[i] = start[i]! - delta;
    simplex.push(clamp(vertex));
  }
  const values = simplex.map(evaluate);
  const order = simplex.map((_, i) => i);
  const byValue = (a: number, b: number): number => values[a]! - values[b]!;
  const centroid = new Array<number>(n).fill(0);
  // Scratch points, reused every iteration: this loop runs thousands of times per series.
  const reflected = new Array<number>(n).fill(0);
  const candidate = new Array<number>(n).fill(0);
  const pointAlong = (coef: number, worstVertex: readonly number[], out: number[]): void => {
    for (let i = 0; i < n; i++) {
      const value = centroid[i]! + coef * (centroid[i]! - worstVertex[i]!);
      out[i] = Math.min(upper[i]!, Math.max(lower[i]!, value));
    }
  };
  const accept = (index: number, point: readonly number[], value: number): void => {
    const vertex = simplex[index]!;
    for (let i = 0; i < n; i++) vertex[i] = point[i]!;
    values[index] = value;
  };

  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    order.sort(byValue);
    const best = order[0]!;
    const worst = order[n]!;
    const secondWorst = order[n - 1]!;

    if (hasConverged(simplex, values, best, tolerance, parameterTolerance)) break;

    centroid.fill(0);
    for (let k = 0; k < n; k++) {
      const vertex = simplex[order[k]!]!;
      for (let i = 0; i < n; i++) centroid[i] = centroid[i]! + vertex[i]! / n;
    }
    const worstVertex = simplex[worst]!;

    pointAlong(reflectCoef, worstVertex, reflected);
    const reflectedValue = evaluate(reflected);
    if (reflectedValue < values[best]!) {
      pointAlong(reflectCoef * expandCoef, worstVertex, candidate);
      const expandedValue = evaluate(candidate);
      if (expandedValue < reflectedValue) accept(worst, candidate, expandedValue);
      else accept(worst, reflected, reflectedValue);
      continue;
    }
    if (reflectedValue < values[secondWorst]!) {
      accept(worst, reflected, reflectedValue);
      continue;
    }
    const isOutside = reflectedValue < values[worst]!;
    pointAlong(isOutside ? reflectCoef * contractCoef : -contractCoef, worstVertex, candidate);
    const contractedValue = evaluate(candidate);
    if (contractedValue < (isOutside ? reflectedValue : values[worst]!)) {
      accept(worst, candidate, contractedValue);
      continue;
    }
    const bestVertex = simplex[best]!;
    for (let k = 1; k <= n; k++) {
      const index = order[k]!;
      const vertex = simplex[index]!;
      for (let i = 0; i < n; i++) vertex[i] = bestVertex[i]! + shrinkCoef * (vertex[i]! - bestVertex[i]!);
      clamp(vertex);
      values[index] = evaluate(vertex);
    }
  }

  let bestIndex = 0;
  for (let k = 1; k <= n; k++) if (values[k]! < values[bestIndex]!) bestIndex = k;
  return { x: simplex[bestIndex]!, value: values[bestIndex]!, iterations };
}

/** Converged when every vertex is within `tolerance` of the best in value (relative) and position. */
function hasConverged(
  simplex: readonly (readonly number[])[],
  values: readonly number[],
  best: number,
  tolerance: number,
  xTolerance: number,
): boolean {
  const bestValue = values[best]!;
  const bestVertex = simplex[best]!;
  const valueScale = Math.abs(bestValue) + 1e-10;
  for (let k = 0; k < simplex.length; k++) {
    if (k === best) continue;
    const gap = Math.abs(values[k]! - bestValue);
    if (!(gap <= tolerance * valueScale)) return false;
    const vertex = simplex[k]!;
    for (let i = 0; i < vertex.length; i++) {
      const scale = Math.max(1, Math.abs(bestVertex[i]!));
      if (Math.abs(vertex[i]! - bestVertex[i]!) > xTolerance * scale) return false;
    }
  }
  return true;
}
