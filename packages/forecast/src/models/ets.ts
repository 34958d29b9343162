import { nelderMead } from '../optimize/nelder-mead';
import { classicalSeasonalIndices } from '../seasonality';
import type { ModelForecast, ModelName } from '../types';

/**
 * Exponential smoothing state-space models, ETS(error, trend, season), in the error-correction
 * form of Hyndman, Koehler, Ord & Snyder, *Forecasting with Exponential Smoothing* (2008),
 * Tables 2.2–2.3. Point recursions are the same for additive and multiplicative errors; only the
 * likelihood differs. SES, Holt and damped trend are ETS(A,N,N), ETS(A,A,N) and ETS(A,Ad,N).
 */

export type ErrorType = 'A' | 'M';
export type TrendType = 'N' | 'A' | 'Ad' | 'M' | 'Md';
export type SeasonType = 'N' | 'A' | 'M';
export type EtsSpec = { error: ErrorType; trend: TrendType; season: SeasonType; period: number };

/** Smoothing parameters and initial states. `seasonal[i]` is the state for times t ≡ i (mod m). */
export type EtsParameters = {
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
  level: number;
  slope: number;
  seasonal: number[];
};

export type EtsFit = {
  spec: EtsSpec;
  parameters: EtsParameters;
  /** −2·log-likelihood up to a constant: n·ln Σe² (+ 2 Σ ln|ŷ| for multiplicative errors). */
  likelihood: number;
  aicc: number;
  /** Variance of the one-step errors (relative errors for a multiplicative-error model). */
  sigma2: number;
  /** Final states after the last observation. */
  final: { level: number; slope: number; seasonal: number[]; n: number };
};

/** Hyndman et al.'s "usual" bounds; φ ≤ 0.98 keeps damped trends from acting as straight lines. */
const ALPHA_BOUNDS = [1e-4, 0.9999] as const;
const PHI_BOUNDS = [0.8, 0.98] as const;
const BETA_LOWER = 1e-4;
/**
 * Relative tolerance on −2·log-likelihood (≈ n·ln SSE, in the thousands): 1e-5 of it is a
 * relative change in SSE of about 1e-4, which moves no forecast (same dev-split OWA as 1e-7)
 * and fits in a third of the evaluations of a coordinate-wise 1e-4 test.
 */
const LIKELIHOOD_TOLERANCE = 1e-5;
const GAMMA_LOWER = 1e-4;

const isDamped = (trend: TrendType): boolean => trend === 'Ad' || trend === 'Md';
const isMultiplicativeTrend = (trend: TrendType): boolean => trend === 'M' || trend === 'Md';

/**
 * Runs the recursions over `values` and returns −2·log-likelihood (Infinity when the path is
 * inadmissible: a non-positive forecast for a multiplicative component). The states of the last
 * step are written to `out` when it is given.
 */
export function etsLikelihood(
  values: readonly number[],
  spec: EtsSpec,
  p: EtsParameters,
  out?: EtsFit['final'] & { sse: number },
): number {
  const { error, trend, season } = spec;
  // Booleans hoisted out of the loop: this function is the inner loop of every ETS fit.
  const hasSeason = season !== 'N';
  const isAddSeason = season === 'A';
  const isMulError = error === 'M';
  const hasTrend = trend !== 'N';
  const isMulTrend = isMultiplicativeTrend(trend);
  const needsPositive = isMulError || isMulTrend || season === 'M';
  const m = hasSeason ? spec.period : 1;
  const seasonal = hasSeason ? [...p.seasonal] : [];
  const phi = isDamped(trend) ? p.phi : 1;
  const alpha = p.alpha;
  const betaOverAlpha = p.beta / p.alpha;
  const gamma = p.gamma;
  let level = p.level;
  let slope = hasTrend ? p.slope : 0;
  let sse = 0;
  let sumLog = 0;
  const n = values.length;
  for (let t = 0; t < n; t++) {
    const y = values[t]!;
    const phiB = !hasTrend ? 0 : isMulTrend ? Math.pow(slope, phi) : phi * slope;
    const q = !hasTrend ? level : isMulTrend ? level * phiB : level + phiB;
    const s = hasSeason ? seasonal[t % m]! : 0;
    const forecast = !hasSeason ? q : isAddSeason ? q + s : q * s;
    if (needsPositive && (!(forecast > 0) || !(q > 0))) return Number.POSITIVE_INFINITY;
    const e = isMulError ? (y - forecast) / forecast : y - forecast;
    sse += e * e;
    if (isMulError) sumLog += Math.log(forecast);
    const target = !hasSeason ? y : isAddSeason ? y - s : y / s;
    const newLevel = q + alpha * (target - q);
    if (hasTrend) {
      const growth = isMulTrend ? newLevel / level : newLevel - level;
      slope = phiB + betaOverAlpha * (growth - phiB);
    }
    if (hasSeason) seasonal[t % m] = s + gamma * ((isAddSeason ? y - q : y / q) - s);
    level = newLevel;
  }
  if (!Number.isFinite(sse)) return Number.POSITIVE_INFINITY;
  if (out) {
    out.level = level;
    out.slope = slope;
    out.seasonal = seasonal;
    out.n = n;
    out.sse = sse;
  }
  return n * Math.log(Math.max(sse, 1e-300)) + 2 * sumLog;
}

/**
 * Fits one ETS model by maximum likelihood (Nelder–Mead over the smoothing parameters and the
 * initial level and slope; initial seasonal states come from classical decomposition). Returns
 * undefined when the model is not admissible for these data.
 */
export function fitEts(values: readonly number[], spec: EtsSpec): EtsFit | undefined {
  const n = values.length;
  const needsPositive = spec.error === 'M' || isMultiplicativeTrend(spec.trend) || spec.season === 'M';
  if (needsPositive && !values.every((v) => v > 0)) return undefined;
  if (spec.season !== 'N' && (spec.period < 2 || n < 2 * spec.period)) return undefined;
  const init = initialStates(values, spec);
  const hasTrend = spec.trend !== 'N';
  const hasSeason = spec.season !== 'N';
  const damped = isDamped(spec.trend);
  const m = hasSeason ? spec.period : 1;

  // Parameter vector: α, [β], [γ], [φ], ℓ0, [b0].
  const start: number[] = [ALPHA_BOUNDS[0] + (0.2 * (ALPHA_BOUNDS[1] - ALPHA_BOUNDS[0])) / m];
  const lower: number[] = [ALPHA_BOUNDS[0]];
  const upper: number[] = [ALPHA_BOUNDS[1]];
  if (hasTrend) pushParam(BETA_LOWER + 0.1 * (start[0]! - BETA_LOWER), BETA_LOWER, ALPHA_BOUNDS[1]);
  if (hasSeason) pushParam(GAMMA_LOWER + 0.05 * (1 - start[0]! - GAMMA_LOWER), GAMMA_LOWER, ALPHA_BOUNDS[1]);
  if (damped) pushParam(PHI_BOUNDS[0] + 0.99 * (PHI_BOUNDS[1] - PHI_BOUNDS[0]), PHI_BOUNDS[0], PHI_BOUNDS[1]);
  const scale = Math.max(...values.map(Math.abs), 1);
  pushParam(init.level, -10 * scale, 10 * scale);
  if (hasTrend) {
    if (isMultiplicativeTrend(spec.trend)) pushParam(init.slope, 1e-3, 10);
    else pushParam(init.slope, -scale, scale);
  }

  const unpack = (x: readonly number[]): EtsParameters => {
    let i = 0;
    const alpha = x[i++]!;
    const beta = hasTrend ? x[i++]! : 0;
    const gamma = hasSeason ? x[i++]! : 0;
    const phi = damped ? x[i++]! : 1;
    const level = x[i++]!;
    const slope = hasTrend ? x[i++]! : 0;
    return { alpha, beta, gamma, phi, level, slope, seasonal: init.seasonal };
  };
  const objective = (x: readonly number[]): number => {
    const p = unpack(x);
    // The usual region: β ≤ α and γ ≤ 1 − α.
    if (p.beta > p.alpha || p.gamma > 1 - p.alpha) return Number.POSITIVE_INFINITY;
    return etsLikelihood(values, spec, p);
  };
  const result = nelderMead(objective, start, {
    lower,
    upper,
    maxIterations: 2000,
    tolerance: LIKELIHOOD_TOLERANCE,
    parameterTolerance: Number.POSITIVE_INFINITY,
  });
  if (!Number.isFinite(result.value)) return undefined;
  const parameters = unpack(result.x);
  const final = { level: 0, slope: 0, seasonal: [] as number[], n: 0, sse: 0 };
  const likelihood = etsLikelihood(values, spec, parameters, final);
  // Parameters counted as R's ets does: smoothing parameters, initial states and σ².
  const k = result.x.length + (hasSeason ? m - 1 : 0) + 1;
  const aic = likelihood + 2 * k;
  const aicc = n - k - 1 > 0 ? aic + (2 * k * (k + 1)) / (n - k - 1) : Number.POSITIVE_INFINITY;
  const sigma2 = final.sse / Math.max(1, n - k + 1);
  return {
    spec,
    parameters,
    likelihood,
    aicc,
    sigma2,
    final: { level: final.level, slope: final.slope, seasonal: final.seasonal, n },
  };

  function pushParam(value: number, lo: number, hi: number): void {
    start.push(Math.min(hi, Math.max(lo, value)));
    lower.push(lo);
    upper.push(hi);
  }
}

/**
 * Initial states as R's `forecast::ets` seeds them (`initstate`): level and slope from a line
 * through the first max(10, 2m) values (of the seasonally adjusted series for seasonal models).
 */
function initialStates(
  values: readonly number[],
  spec: EtsSpec,
): Pick<EtsParameters, 'level' | 'slope' | 'seasonal'> {
  let adjusted: readonly number[] = values;
  let seasonal: number[] = [];
  if (spec.season !== 'N') {
    const kind = spec.season === 'M' ? 'multiplicative' : 'additive';
    seasonal = classicalSeasonalIndices(
      values.slice(0, Math.min(values.length, 3 * spec.period)),
      spec.period,
      kind,
    );
    adjusted = values.map((v, t) =>
      kind === 'multiplicative' ? v / seasonal[t % spec.period]! : v - seasonal[t % spec.period]!,
    );
  }
  const m = spec.season === 'N' ? 1 : spec.period;
  const count = Math.min(Math.max(10, 2 * m), adjusted.length);
  if (spec.trend === 'N') {
    let total = 0;
    for (let t = 0; t < count; t++) total += adjusted[t]!;
    return { level: total / count, slope: 0, seasonal };
  }
  // Least squares on t = 1…count; the intercept is the fitted value at t = 0.
  let st = 0;
  let sy = 0;
  let stt = 0;
  let sty = 0;
  for (let t = 1; t <= count; t++) {
    const y = adjusted[t - 1]!;
    st += t;
    sy += y;
    stt += t * t;
    sty += t * y;
  }
  const denominator = count * stt - st * st;
  const slope = denominator === 0 ? 0 : (count * sty - st * sy) / denominator;
  const intercept = (sy - slope * st) / count;
  if (!isMultiplicativeTrend(spec.trend)) return { level: intercept, slope, seasonal };
  const first = intercept + slope;
  const ratio = (intercept + 2 * slope) / (Math.abs(first) < 1e-8 ? 1e-7 : first);
  const level = first / ratio;
  if (level < 1e-8 || ratio < 1e-8) {
    return {
      level: Math.max(adjusted[0]!, 1e-3),
      slope: Math.max((adjusted[1] ?? adjusted[0]!) / adjusted[0]!, 1e-3),
      seasonal,
    };
  }
  return { level, slope: Math.min(ratio, 10), seasonal };
}

/**
 * h-step forecasts from a fitted model, with standard deviations from Hyndman et al. (2008)
 * Table 6.1 (class 1): var_h = σ²·(1 + Σ_{j<h} c_j²), c_j = α + β·(φ + … + φ^j) + γ·[j ≡ 0 mod m].
 * For multiplicative components the same multiplier is applied to the relative error, an
 * approximation that is close for the short horizons and small σ we meet.
 */
export function forecastEts(fit: EtsFit, horizon: number, model: ModelName = 'ets'): ModelForecast {
  const { spec, parameters: p, final } = fit;
  const m = spec.season === 'N' ? 1 : spec.period;
  const phi = isDamped(spec.trend) ? p.phi : 1;
  const mean: number[] = [];
  const sd: number[] = [];
  let phiSum = 0;
  let varianceMultiplier = 1;
  for (let j = 1; j <= horizon; j++) {
    phiSum += Math.pow(phi, j);
    let q: number;
    switch (spec.trend) {
      case 'N':
        q = final.level;
        break;
      case 'A':
      case 'Ad':
        q = final.level + phiSum * final.slope;
        break;
      case 'M':
      case 'Md':
        q = final.level * Math.pow(final.slope, phiSum);
        break;
    }
    const s = spec.season === 'N' ? 0 : final.seasonal[(final.n + j - 1) % m]!;
    const point = spec.season === 'N' ? q : spec.season === 'A' ? q + s : q * s;
    mean.push(point);
    const sigma = Math.sqrt(fit.sigma2) * (spec.error === 'M' ? Math.abs(point) : 1);
    sd.push(sigma * Math.sqrt(varianceMultiplier));
    // c_j for the next step's variance.
    const c =
      p.alpha * (1 + (spec.trend === 'N' ? 0 : (p.beta / p.alpha) * phiSum)) +
      (spec.season !== 'N' && j % m === 0 ? p.gamma : 0);
    varianceMultiplier += c * c;
  }
  return { model, mean, sd };
}

/** The models `autoEts` chooses among for a series; R's default set (no multiplicative trend). */
export function candidateSpecs(
  values: readonly number[],
  period: number,
  isSeasonalSeries: boolean,
): EtsSpec[] {
  const isPositive = values.every((v) => v > 0);
  const errors: ErrorType[] = isPositive ? ['A', 'M'] : ['A'];
  const trends: TrendType[] = ['N', 'A', 'Ad'];
  // Seasonal ETS only for short periods, as R does (m ≤ 24): weekly data are adjusted beforehand.
  const seasons: SeasonType[] =
    isSeasonalSeries && period > 1 && period <= 24 ? (isPositive ? ['A', 'M'] : ['A']) : ['N'];
  const specs: EtsSpec[] = [];
  for (const error of errors)
    for (const trend of trends)
      for (const season of seasons) {
        // Additive error with multiplicative season is numerically unstable (Hyndman et al. §2.5.2).
        if (error === 'A' && season === 'M') continue;
        specs.push({ error, trend, season, period });
      }
  return specs;
}

/** ETS with the model chosen by AICc among the admissible candidates. */
export function autoEts(
  values: readonly number[],
  period: number,
  isSeasonalSeries: boolean,
): EtsFit | undefined {
  let best: EtsFit | undefined;
  for (const spec of candidateSpecs(values, period, isSeasonalSeries)) {
    const fit = fitEts(values, spec);
    if (fit && (!best || fit.aicc < best.aicc)) best = fit;
  }
  return best;
}

/** Short names for the textbook members of the family. */
export const SES_SPEC: EtsSpec = { error: 'A', trend: 'N', season: 'N', period: 1 };
export const HOLT_SPEC: EtsSpec = { error: 'A', trend: 'A', season: 'N', period: 1 };
export const DAMPED_SPEC: EtsSpec = { error: 'A', trend: 'Ad', season: 'N', period: 1 };

export function etsName(spec: EtsSpec): string {
  return `ETS(${spec.error},${spec.trend},${spec.season})`;
}
