import { nelderMead } from '../optimize/nelder-mead';
import type { ModelForecast } from '../types';

/**
 * The Theta method in the state-space form of Fiorucci, Pellegrini, Louzada, Petropoulos &
 * Koehler, "Models for optimising the theta method and their relationship to state space models",
 * IJF 32 (2016). With θ = 2 and a static trend line it is the classic Theta of Assimakopoulos &
 * Nikolopoulos (2000), i.e. SES with drift half the OLS slope (Hyndman & Billah 2003).
 *
 *   μ_t = ℓ_{t−1} + (1 − 1/θ)·[A_{t−1}(1 − α)^t + B_{t−1}(1 − (1 − α)^{t+1})/α]
 *   ℓ_t = α·y_t + (1 − α)·ℓ_{t−1}
 *
 * A and B are the intercept and slope of the OLS line: over the whole sample for the standard
 * models (STM, OTM), updated recursively with each observation for the dynamic ones (DSTM, DOTM).
 * "Optimised" variants fit θ ≥ 1; standard ones fix θ = 2.
 */

export type ThetaVariant = 'theta' | 'otm' | 'dstm' | 'dotm';

export type ThetaFit = {
  variant: ThetaVariant;
  alpha: number;
  theta: number;
  initialLevel: number;
  /** Mean squared one-step error. */
  mse: number;
  final: ThetaState;
  n: number;
};

/** Level, running mean, line intercept A and slope B after the last observation. */
type ThetaState = { level: number; meanY: number; a: number; b: number };

const isDynamic = (variant: ThetaVariant): boolean => variant === 'dstm' || variant === 'dotm';
const isOptimised = (variant: ThetaVariant): boolean => variant === 'otm' || variant === 'dotm';

/** Bounds from Fiorucci et al. and statsforecast: α ∈ [0.1, 0.99], θ ≥ 1. */
const ALPHA_BOUNDS = [0.1, 0.99] as const;
const THETA_BOUNDS = [1, 1e4] as const;
/** The first few one-step errors depend mostly on the start state; leave them out of the fit. */
const BURN_IN = 3;

function initialState(values: readonly number[], variant: ThetaVariant): ThetaState {
  const y0 = values[0]!;
  if (isDynamic(variant)) return { level: 0, meanY: y0, a: y0, b: 0 };
  const n = values.length;
  let sumY = 0;
  let sumTY = 0;
  for (let t = 0; t < n; t++) {
    sumY += values[t]!;
    sumTY += (t + 1) * values[t]!;
  }
  const meanY = sumY / n;
  const b = n > 1 ? (6 * ((2 * sumTY) / n - (n + 1) * meanY)) / (n * n - 1) : 0;
  return { level: 0, meanY: y0, a: meanY - (b * (n + 1)) / 2, b };
}

/**
 * One step: the forecast μ for time t, then the state update with observation y (μ when
 * undefined). `decay` is (1 − α)^t, carried by the caller to avoid a power per step.
 */
function step(
  state: ThetaState,
  t: number,
  decay: number,
  variant: ThetaVariant,
  alpha: number,
  theta: number,
  y: number | undefined,
): number {
  const mu =
    state.level + (1 - 1 / theta) * (state.a * decay + (state.b * (1 - decay * (1 - alpha))) / alpha);
  const observed = y ?? mu;
  state.level = alpha * observed + (1 - alpha) * state.level;
  const previousMean = state.meanY;
  state.meanY = (t * previousMean + observed) / (t + 1);
  if (isDynamic(variant)) {
    state.b = ((t - 1) * state.b + (6 * (observed - previousMean)) / (t + 1)) / (t + 2);
    state.a = state.meanY - (state.b * (t + 2)) / 2;
  }
  return mu;
}

/** Sum of squared one-step errors after the burn-in, for given (ℓ0, α, θ). */
function thetaSse(
  values: readonly number[],
  variant: ThetaVariant,
  initialLevel: number,
  alpha: number,
  theta: number,
  final?: ThetaState,
): number {
  const state = initialState(values, variant);
  // ℓ_0 combines the first observation with the free initial level, as in the paper's recursion.
  state.level = alpha * values[0]! + (1 - alpha) * initialLevel;
  let sse = 0;
  let decay = 1;
  for (let t = 1; t < values.length; t++) {
    decay *= 1 - alpha;
    const mu = step(state, t, decay, variant, alpha, theta, values[t]);
    const e = values[t]! - mu;
    if (t >= BURN_IN) sse += e * e;
  }
  if (final) Object.assign(final, state);
  return Number.isFinite(sse) ? sse : Number.POSITIVE_INFINITY;
}

/** Fits a Theta variant by least squares on the one-step errors (Fiorucci et al. §3). */
export function fitTheta(values: readonly number[], variant: ThetaVariant): ThetaFit {
  const optimiseTheta = isOptimised(variant);
  const y0 = values[0]!;
  const scale = Math.max(...values.map(Math.abs), 1);
  const start = optimiseTheta ? [y0 / 2, 0.5, 2] : [y0 / 2, 0.5];
  const lower = optimiseTheta
    ? [-10 * scale, ALPHA_BOUNDS[0], THETA_BOUNDS[0]]
    : [-10 * scale, ALPHA_BOUNDS[0]];
  const upper = optimiseTheta
    ? [10 * scale, ALPHA_BOUNDS[1], THETA_BOUNDS[1]]
    : [10 * scale, ALPHA_BOUNDS[1]];
  const result = nelderMead(
    (x) => thetaSse(values, variant, x[0]!, x[1]!, optimiseTheta ? x[2]! : 2),
    start,
    // Values-only convergence: the level's scale makes a coordinate test needlessly strict.
    { lower, upper, tolerance: 1e-7, parameterTolerance: Number.POSITIVE_INFINITY },
  );
  const [initialLevel, alpha] = [result.x[0]!, result.x[1]!];
  const theta = optimiseTheta ? result.x[2]! : 2;
  const final: ThetaState = { level: 0, meanY: 0, a: 0, b: 0 };
  const sse = thetaSse(values, variant, initialLevel, alpha, theta, final);
  const count = Math.max(1, values.length - BURN_IN);
  return { variant, alpha, theta, initialLevel, mse: sse / count, final, n: values.length };
}

/**
 * Forecasts by running the recursion on its own predictions (the dynamic line keeps updating).
 * Spread: the SES equivalent's, σ²·(1 + (h − 1)·α²).
 */
export function forecastTheta(fit: ThetaFit, horizon: number): ModelForecast {
  const state = { ...fit.final };
  const mean: number[] = [];
  const sd: number[] = [];
  const sigma = Math.sqrt(fit.mse);
  let decay = Math.pow(1 - fit.alpha, fit.n);
  for (let j = 0; j < horizon; j++) {
    mean.push(step(state, fit.n + j, decay, fit.variant, fit.alpha, fit.theta, undefined));
    decay *= 1 - fit.alpha;
    sd.push(sigma * Math.sqrt(1 + j * fit.alpha * fit.alpha));
  }
  return { model: fit.variant, mean, sd };
}
