import { nelderMead } from '../optimize/nelder-mead';
import { solveLinearSystem, sum } from '../stats';
import type { ModelForecast } from '../types';

/**
 * Non-seasonal ARIMA(p, d, q) with an optional constant (the mean when d = 0, the drift when
 * d = 1), and the automatic order selection of Hyndman & Khandakar, "Automatic time series
 * forecasting: the forecast package for R", JSS 27(3) (2008), §3.2 — the `auto.arima` of R's
 * forecast package: d from repeated KPSS tests, then a stepwise search over (p, q) and the
 * constant by AICc. Weekly seasonality is removed before the model sees the series (as for the
 * other members), so the seasonal part of the search is not needed.
 *
 * Estimation is conditional sum of squares (CSS, R's `arima(method = "CSS")`, which auto.arima
 * also uses during its search for series longer than 150): the first p differenced values are
 * conditioned on and earlier errors are 0. The AR and MA coefficients are searched through their
 * partial autocorrelations in (−1, 1) (Barndorff-Nielsen & Schou 1973, R's `partrans`), so every
 * fit is stationary and invertible without a root check.
 */

export type ArimaOrder = { p: number; d: number; q: number; hasConstant: boolean };

export type ArimaFit = {
  order: ArimaOrder;
  /** φ_1…φ_p of (1 − φ_1B − … − φ_pB^p). */
  ar: number[];
  /** θ_1…θ_q of (1 + θ_1B + … + θ_qB^q). */
  ma: number[];
  /** Mean of the d-times differenced series (0 without a constant). */
  constant: number;
  /** CSS residual variance, SSE / (n − d − p). */
  sigma2: number;
  /** −2·log-likelihood of the CSS fit: (n − d)·(ln σ² + 1 + ln 2π), as R reports it. */
  likelihood: number;
  aicc: number;
  /** The original series (needed to undifference the forecasts). */
  values: readonly number[];
  /** The last max(p, q) residuals of the differenced series, oldest first. */
  residuals: number[];
};

/** R's auto.arima defaults: max.p = max.q = 5, max.d = 2; the stepwise search starts at (2, d, 2). */
const MAX_P = 5;
const MAX_Q = 5;
const MAX_D = 2;
/** 5% critical value of the KPSS level-stationarity statistic (Kwiatkowski et al. 1992, Table 1). */
const KPSS_CRITICAL_5 = 0.463;
/** Partial autocorrelations stay inside ±0.99: a unit root belongs to d, not to φ. */
const PACF_BOUND = 0.99;
/**
 * Relative tolerance on the sum of squares: 1e-4 of it moves −2·log L by about n·1e-4 (0.02 for
 * three years), far below the AICc differences that choose an order.
 */
const SSE_TOLERANCE = 1e-4;
/** Smallest modulus allowed for an AR or MA root (R's auto.arima: 1 + 1e-2). */
const MIN_ROOT = 1.01;
/** The stepwise search's own limit (R: 94 models). */
const MAX_MODELS = 94;

/**
 * KPSS statistic for level stationarity (Kwiatkowski, Phillips, Schmidt & Shin 1992) with the
 * Bartlett-weighted long-run variance and the lag truncation ⌊3√n / 13⌋ that forecast's
 * `ndiffs` passes to urca's `ur.kpss` (Hobijn, Franses & Ooms 2004).
 */
export function kpssStatistic(values: readonly number[]): number {
  const n = values.length;
  let mean = 0;
  for (const v of values) mean += v / n;
  const e = values.map((v) => v - mean);
  const lags = Math.floor((3 * Math.sqrt(n)) / 13);
  let variance = 0;
  for (const x of e) variance += x * x;
  for (let k = 1; k <= lags; k++) {
    let cross = 0;
    for (let t = k; t < n; t++) cross += e[t]! * e[t - k]!;
    variance += 2 * (1 - k / (lags + 1)) * cross;
  }
  variance /= n;
  let partial = 0;
  let sumSquares = 0;
  for (const x of e) {
    partial += x;
    sumSquares += partial * partial;
  }
  return variance > 0 ? sumSquares / (n * n * variance) : 0;
}

/** Lag-1 differences. */
export function difference(values: readonly number[]): number[] {
  const result: number[] = [];
  for (let t = 1; t < values.length; t++) result.push(values[t]! - values[t - 1]!);
  return result;
}

/** forecast's `ndiffs`: difference while the KPSS test rejects stationarity at 5%, at most twice. */
export function differencingOrder(values: readonly number[]): number {
  let series = [...values];
  let d = 0;
  while (d < MAX_D && series.length > 2 && !isConstant(series) && kpssStatistic(series) > KPSS_CRITICAL_5) {
    series = difference(series);
    d++;
  }
  return d;
}

function isConstant(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

/**
 * Coefficients of a stationary polynomial 1 − c_1B − … − c_kB^k from its partial
 * autocorrelations (the Durbin–Levinson recursion; R's `partrans` after its tanh).
 */
export function coefficientsFromPacf(pacf: readonly number[]): number[] {
  const coefficients = [...pacf];
  const work = [...pacf];
  for (let j = 1; j < pacf.length; j++) {
    const a = coefficients[j]!;
    for (let k = 0; k < j; k++) work[k] = work[k]! - a * coefficients[j - k - 1]!;
    for (let k = 0; k < j; k++) coefficients[k] = work[k]!;
  }
  return coefficients;
}

/**
 * CSS sum of squares of x (already centred) under ARMA(φ, θ): e_t = x_t − Σφ_i x_{t−i} − Σθ_j e_{t−j}
 * for t ≥ p, earlier errors 0. `errors` is scratch of length ≥ x.length and keeps the residuals.
 */
function cssSum(
  x: readonly number[],
  ar: readonly number[],
  ma: readonly number[],
  errors: Float64Array,
): number {
  const p = ar.length;
  const q = ma.length;
  let sse = 0;
  for (let t = 0; t < p; t++) errors[t] = 0;
  for (let t = p; t < x.length; t++) {
    let e = x[t]!;
    for (let i = 0; i < p; i++) e -= ar[i]! * x[t - i - 1]!;
    for (let j = 0; j < q && j < t; j++) e -= ma[j]! * errors[t - j - 1]!;
    errors[t] = e;
    sse += e * e;
  }
  return sse;
}

/**
 * Start values by Hannan & Rissanen (Biometrika 69, 1982), as in Brockwell & Davis §5.1.4: a long
 * autoregression estimates the errors, then least squares of x_t on its p lags and q lagged error
 * estimates (and 1 for the constant). For a pure AR this is already the CSS optimum. Answered as
 * partial autocorrelations (clipped inside the bounds) and the standardised mean.
 */
function hannanRissanen(z: readonly number[], p: number, q: number, hasConstant: boolean): number[] {
  // The long autoregression's order: enough lags to whiten an ARMA(p, q), at most a quarter of n.
  const m = Math.min(Math.max(p + q, 8), Math.floor(z.length / 4));
  let errors: number[] | undefined;
  if (q > 0) {
    const long = leastSquares(z, m, (t, i) => z[t - i - 1]!, true, m);
    errors = z.map((v, t) => {
      if (t < m) return 0;
      let e = v - long[m]!;
      for (let i = 0; i < m; i++) e -= long[i]! * z[t - i - 1]!;
      return e;
    });
  }
  const first = Math.max(p, errors ? m + q : 0);
  const coefficients = leastSquares(
    z,
    p + q,
    (t, i) => (i < p ? z[t - i - 1]! : errors![t - (i - p) - 1]!),
    hasConstant,
    first,
  );
  const ar = pacfFromCoefficients(coefficients.slice(0, p));
  const ma = pacfFromCoefficients(coefficients.slice(p, p + q).map((c) => -c));
  const clip = (v: number): number => Math.min(PACF_BOUND - 0.01, Math.max(-PACF_BOUND + 0.01, v));
  const shift = hasConstant ? coefficients[p + q]! / Math.max(0.05, 1 - sum(coefficients.slice(0, p))) : 0;
  return [...ar.map(clip), ...ma.map(clip), ...(hasConstant ? [Math.min(1.9, Math.max(-1.9, shift))] : [])];
}

/**
 * Least squares of z_t (t ≥ first) on k regressors `column(t, i)` and, if asked, an intercept
 * (the last coefficient); by the normal equations, which are tiny here.
 */
function leastSquares(
  z: readonly number[],
  k: number,
  column: (t: number, i: number) => number,
  hasIntercept: boolean,
  first: number,
): number[] {
  const size = k + (hasIntercept ? 1 : 0);
  const xtx = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const xty = new Array<number>(size).fill(0);
  const row = new Array<number>(size).fill(1);
  for (let t = first; t < z.length; t++) {
    for (let i = 0; i < k; i++) row[i] = column(t, i);
    for (let i = 0; i < size; i++) {
      xty[i] = xty[i]! + row[i]! * z[t]!;
      for (let j = 0; j < size; j++) xtx[i]![j] = xtx[i]![j]! + row[i]! * row[j]!;
    }
  }
  return solveLinearSystem(xtx, xty);
}

/**
 * The inverse of `coefficientsFromPacf` (the Durbin–Levinson step-down, R's `invpartrans`);
 * a non-stationary polynomial gives 0.1 for every partial autocorrelation, a neutral start.
 */
export function pacfFromCoefficients(coefficients: readonly number[]): number[] {
  return partialAutocorrelations(coefficients) ?? new Array<number>(coefficients.length).fill(0.1);
}

/** The step-down recursion; undefined when a partial autocorrelation reaches ±1 (not stationary). */
function partialAutocorrelations(coefficients: readonly number[]): number[] | undefined {
  const k = coefficients.length;
  let current = [...coefficients];
  const pacf = new Array<number>(k).fill(0);
  for (let j = k - 1; j >= 0; j--) {
    const a = current[j]!;
    if (!(Math.abs(a) < 1)) return undefined;
    pacf[j] = a;
    const previous: number[] = [];
    for (let i = 0; i < j; i++) previous.push((current[i]! + a * current[j - 1 - i]!) / (1 - a * a));
    current = previous;
  }
  return pacf;
}

/**
 * True when every root of 1 − c_1z − … − c_kz^k lies outside the circle of radius r: the roots of
 * the polynomial in r·z, whose coefficients are c_i·r^i, then lie outside the unit circle.
 */
export function hasRootsOutside(coefficients: readonly number[], radius: number): boolean {
  return partialAutocorrelations(coefficients.map((c, i) => c * radius ** (i + 1))) !== undefined;
}

/**
 * Fits one ARIMA order by CSS. The differenced series is standardised first, so that the
 * Nelder–Mead simplex sees parameters of one scale (partial autocorrelations and the mean in
 * standard deviations). Undefined when too few values remain to estimate the parameters.
 */
export function fitArima(values: readonly number[], order: ArimaOrder): ArimaFit | undefined {
  const { p, d, q } = order;
  const hasConstant = order.hasConstant && d < 2;
  let w = [...values];
  for (let k = 0; k < d; k++) w = difference(w);
  const n = w.length;
  const parameterCount = p + q + (hasConstant ? 1 : 0);
  if (n - p <= parameterCount + 2) return undefined;
  let mean = 0;
  for (const v of w) mean += v / n;
  let spread = 0;
  for (const v of w) spread += (v - mean) ** 2;
  spread = Math.sqrt(spread / n);
  if (!(spread > 0)) return undefined;
  // Without a constant the model's mean is 0: scale only, do not centre.
  const centre = hasConstant ? mean : 0;
  const z = w.map((v) => (v - centre) / spread);
  const errors = new Float64Array(n);
  const x = new Array<number>(n);
  const unpack = (theta: readonly number[]): { ar: number[]; ma: number[]; shift: number } => ({
    ar: coefficientsFromPacf(theta.slice(0, p)),
    // Same transform for the MA side: 1 + θ(B) = 1 − c(B) with c stationary ⇒ invertible.
    ma: coefficientsFromPacf(theta.slice(p, p + q)).map((c) => -c),
    shift: hasConstant ? theta[p + q]! : 0,
  });
  const sumOfSquares = (theta: readonly number[]): number => {
    const { ar, ma, shift } = unpack(theta);
    for (let t = 0; t < n; t++) x[t] = z[t]! - shift;
    return cssSum(x, ar, ma, errors);
  };

  let best: number[] = [];
  if (parameterCount > 0) {
    const start = [...hannanRissanen(z, p, q, hasConstant)];
    const lower = [...new Array<number>(p + q).fill(-PACF_BOUND), ...(hasConstant ? [-2] : [])];
    const upper = [...new Array<number>(p + q).fill(PACF_BOUND), ...(hasConstant ? [2] : [])];
    best = nelderMead(sumOfSquares, start, {
      lower,
      upper,
      // The start is close: a simplex of 10% steps (0.00025 from a zero) is wide enough.
      initialStep: 0.1,
      tolerance: SSE_TOLERANCE,
      parameterTolerance: Number.POSITIVE_INFINITY,
    }).x;
  }
  const sse = sumOfSquares(best);
  const { ar, ma, shift } = unpack(best);
  const used = n - p;
  const sigma2 = (sse / used) * spread * spread;
  const likelihood = n * (Math.log(sigma2) + 1 + Math.log(2 * Math.PI));
  // R counts σ² as a parameter: npar = p + q + constant + 1.
  const k = parameterCount + 1;
  const aicc = likelihood + 2 * k + (2 * k * (k + 1)) / Math.max(1, n - k - 1);
  const memory = Math.max(p, q);
  // auto.arima's own guard: a root within 1.01 of the unit circle makes a near-unit-root AR (an
  // extra difference in disguise, which extrapolates wildly) or a barely invertible MA; such a
  // model gets an infinite AICc and is never chosen.
  const isWellInside =
    hasRootsOutside(ar, MIN_ROOT) &&
    hasRootsOutside(
      ma.map((c) => -c),
      MIN_ROOT,
    );
  return {
    order: { p, d, q, hasConstant },
    ar,
    ma,
    constant: centre + shift * spread,
    sigma2,
    likelihood,
    aicc: Number.isFinite(aicc) && isWellInside ? aicc : Number.POSITIVE_INFINITY,
    values,
    residuals: Array.from(errors.subarray(n - memory), (e) => e * spread),
  };
}

/**
 * Hyndman–Khandakar stepwise search (non-seasonal): d by KPSS; the four start models (2,d,2),
 * (0,d,0), (1,d,0), (0,d,1) with a constant when d ≤ 1, and (0,d,0) without; then from the best
 * so far, p ± 1, q ± 1, both ± 1 together and the constant switched, moving to the first
 * neighbour with a lower AICc, until none is lower.
 */
export function autoArima(values: readonly number[]): ArimaFit | undefined {
  const d = differencingOrder(values);
  const canHaveConstant = d < 2;
  const tried = new Map<string, ArimaFit | undefined>();
  const attempt = (p: number, q: number, hasConstant: boolean): ArimaFit | undefined => {
    if (p < 0 || q < 0 || p > MAX_P || q > MAX_Q || (hasConstant && !canHaveConstant)) return undefined;
    const key = `${p},${q},${hasConstant}`;
    if (!tried.has(key)) tried.set(key, fitArima(values, { p, d, q, hasConstant }));
    return tried.get(key);
  };
  let best: ArimaFit | undefined;
  const consider = (fit: ArimaFit | undefined): boolean => {
    if (!fit || !Number.isFinite(fit.aicc) || (best && !(fit.aicc < best.aicc))) return false;
    best = fit;
    return true;
  };
  consider(attempt(2, 2, canHaveConstant));
  consider(attempt(0, 0, canHaveConstant));
  consider(attempt(1, 0, canHaveConstant));
  consider(attempt(0, 1, canHaveConstant));
  if (canHaveConstant) consider(attempt(0, 0, false));
  let isImproving = best !== undefined;
  while (isImproving && tried.size < MAX_MODELS) {
    isImproving = false;
    const { p, q, hasConstant } = best!.order;
    const neighbours: [number, number, boolean][] = [
      [p - 1, q, hasConstant],
      [p + 1, q, hasConstant],
      [p, q - 1, hasConstant],
      [p, q + 1, hasConstant],
      [p - 1, q - 1, hasConstant],
      [p + 1, q + 1, hasConstant],
      [p - 1, q + 1, hasConstant],
      [p + 1, q - 1, hasConstant],
      [p, q, !hasConstant],
    ];
    for (const [np, nq, nc] of neighbours) {
      if (consider(attempt(np, nq, nc))) {
        isImproving = true;
        break;
      }
    }
  }
  return best;
}

/**
 * Point forecasts: the ARMA recursion on the differenced series with future errors 0, then
 * integrated d times. Spread: σ²·Σ_{j<h} ψ_j², ψ the weights of θ(B) / (φ(B)(1 − B)^d)
 * (Box & Jenkins; FPP3 §9.8).
 */
export function forecastArima(fit: ArimaFit, horizon: number): ModelForecast {
  const { ar, ma, constant, order } = fit;
  const p = ar.length;
  const q = ma.length;
  // The last values of each differencing level, to integrate back.
  const levels: number[][] = [[...fit.values]];
  for (let k = 0; k < order.d; k++) levels.push(difference(levels[k]!));
  const w = levels[order.d]!;
  const history = w.slice(w.length - p).map((v) => v - constant);
  const errors = [...fit.residuals];
  const centred: number[] = [];
  for (let j = 0; j < horizon; j++) {
    let value = 0;
    for (let i = 0; i < p; i++) {
      const back = j - i - 1;
      value += ar[i]! * (back >= 0 ? centred[back]! : history[history.length + back]!);
    }
    for (let i = 0; i < q; i++) {
      const back = j - i - 1;
      if (back < 0) value += ma[i]! * (errors[errors.length + back] ?? 0);
    }
    centred.push(value);
  }
  let path = centred.map((v) => v + constant);
  for (let k = order.d - 1; k >= 0; k--) {
    let last = levels[k]![levels[k]!.length - 1]!;
    path = path.map((v) => (last += v));
  }

  // φ*(B) = φ(B)(1 − B)^d as coefficients of 1 − Σ φ*_i B^i.
  let phiStar = [1, ...ar.map((a) => -a)];
  for (let k = 0; k < order.d; k++)
    phiStar = phiStar
      .map((c, i) => c - (i > 0 ? phiStar[i - 1]! : 0))
      .concat([-phiStar[phiStar.length - 1]!]);
  const psi = [1];
  for (let j = 1; j < horizon; j++) {
    let value = j <= q ? ma[j - 1]! : 0;
    for (let i = 1; i < phiStar.length && i <= j; i++) value -= phiStar[i]! * psi[j - i]!;
    psi.push(value);
  }
  const sd: number[] = [];
  let cumulative = 0;
  for (let j = 0; j < horizon; j++) {
    cumulative += psi[j]! * psi[j]!;
    sd.push(Math.sqrt(fit.sigma2 * cumulative));
  }
  return { model: 'arima', mean: path, sd };
}

/** "ARIMA(1,1,0) with drift", as R prints it. */
export function arimaName(order: ArimaOrder): string {
  const base = `ARIMA(${order.p},${order.d},${order.q})`;
  if (!order.hasConstant || order.d >= 2) return base;
  return order.d === 1 ? `${base} with drift` : `${base} with non-zero mean`;
}
