import { goldenSection } from './optimize/golden-section';
import { nelderMead } from './optimize/nelder-mead';
import type { ModelForecast } from './types';

/**
 * Intermittent demand: the Syntetos–Boylan–Croston classification and the Croston family.
 * Syntetos, Boylan & Croston, "On the categorization of demand patterns", JORS 56 (2005).
 */

export type DemandClass = 'smooth' | 'erratic' | 'intermittent' | 'lumpy';

/** Cut-offs of Syntetos, Boylan & Croston (2005): ADI 1.32 periods, CV² 0.49. */
export const ADI_CUTOFF = 1.32;
export const CV2_CUTOFF = 0.49;

export type DemandProfile = {
  /** Average demand interval: periods per non-zero demand. */
  adi: number;
  /** Squared coefficient of variation of the non-zero demand sizes. */
  cv2: number;
  demandClass: DemandClass;
};

export function classifyDemand(values: readonly number[]): DemandProfile {
  const sizes = values.filter((v) => v !== 0);
  if (sizes.length === 0) return { adi: Number.POSITIVE_INFINITY, cv2: 0, demandClass: 'lumpy' };
  const adi = values.length / sizes.length;
  const meanSize = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  const variance = sizes.reduce((a, b) => a + (b - meanSize) ** 2, 0) / sizes.length;
  const cv2 = meanSize === 0 ? 0 : variance / (meanSize * meanSize);
  const isIntermittent = adi >= ADI_CUTOFF;
  const isErratic = cv2 >= CV2_CUTOFF;
  const demandClass: DemandClass = isIntermittent
    ? isErratic
      ? 'lumpy'
      : 'intermittent'
    : isErratic
      ? 'erratic'
      : 'smooth';
  return { adi, cv2, demandClass };
}

/** Smoothing constants are searched in this range, the one the Croston literature recommends. */
const ALPHA_RANGE = [0.05, 0.3] as const;

type CrostonState = { size: number; interval: number; sse: number; count: number };

/**
 * Croston (1972): SES on the non-zero sizes and on the intervals between them, both updated only
 * when demand occurs; the per-period forecast is size / interval. Returns the states after the
 * last observation and the one-step squared error of `bias · size / interval`.
 */
function crostonRun(values: readonly number[], alpha: number, bias: number): CrostonState {
  const first = values.findIndex((v) => v !== 0);
  if (first < 0) return { size: 0, interval: 1, sse: 0, count: 0 };
  let size = values[first]!;
  let interval = first + 1;
  let sinceLast = 0;
  let sse = 0;
  let count = 0;
  for (let t = first + 1; t < values.length; t++) {
    const y = values[t]!;
    const e = y - (bias * size) / interval;
    sse += e * e;
    count++;
    sinceLast++;
    if (y !== 0) {
      size += alpha * (y - size);
      interval += alpha * (sinceLast - interval);
      sinceLast = 0;
    }
  }
  return { size, interval, sse, count };
}

function crostonFamily(values: readonly number[], horizon: number, model: 'croston' | 'sba'): ModelForecast {
  const biasOf = (alpha: number): number => (model === 'sba' ? 1 - alpha / 2 : 1);
  const { x: alpha } = goldenSection(
    (a) => crostonRun(values, a, biasOf(a)).sse,
    ALPHA_RANGE[0],
    ALPHA_RANGE[1],
  );
  return crostonWithAlpha(values, horizon, alpha, model);
}

/**
 * Croston or SBA with a given smoothing constant. SBA (Syntetos & Boylan, IJF 21, 2005) removes
 * Croston's upward bias with the factor 1 − α/2.
 */
export function crostonWithAlpha(
  values: readonly number[],
  horizon: number,
  alpha: number,
  model: 'croston' | 'sba',
): ModelForecast {
  const bias = model === 'sba' ? 1 - alpha / 2 : 1;
  const state = crostonRun(values, alpha, bias);
  const level = (bias * state.size) / state.interval;
  return flatForecast(model, level, state.count > 0 ? state.sse / state.count : 0, alpha, horizon);
}

export function croston(values: readonly number[], horizon: number): ModelForecast {
  return crostonFamily(values, horizon, 'croston');
}

export function sba(values: readonly number[], horizon: number): ModelForecast {
  return crostonFamily(values, horizon, 'sba');
}

/**
 * TSB (Teunter, Syntetos & Babai, EJOR 214, 2011): the demand probability is smoothed every
 * period (so it decays while no demand occurs: obsolescence), the size only when demand occurs;
 * the forecast is probability × size.
 */
export function tsb(values: readonly number[], horizon: number): ModelForecast {
  const result = nelderMead((x) => tsbRun(values, x[0]!, x[1]!).sse, [0.1, 0.1], {
    lower: [ALPHA_RANGE[0], ALPHA_RANGE[0]],
    upper: [ALPHA_RANGE[1], ALPHA_RANGE[1]],
  });
  return tsbWithAlphas(values, horizon, result.x[0]!, result.x[1]!);
}

/** TSB with given smoothing constants for the size and for the demand probability. */
export function tsbWithAlphas(
  values: readonly number[],
  horizon: number,
  alphaSize: number,
  alphaProbability: number,
): ModelForecast {
  const fit = tsbRun(values, alphaSize, alphaProbability);
  return flatForecast(
    'tsb',
    fit.forecast,
    fit.count > 0 ? fit.sse / fit.count : 0,
    alphaProbability,
    horizon,
  );
}

function tsbRun(
  values: readonly number[],
  alphaSize: number,
  alphaProbability: number,
): { forecast: number; sse: number; count: number } {
  const first = values.findIndex((v) => v !== 0);
  if (first < 0) return { forecast: 0, sse: 0, count: 0 };
  let size = values[first]!;
  // The probability starts at one demand in the periods up to and including the first one.
  let probability = 1 / (first + 1);
  let sse = 0;
  let count = 0;
  for (let t = first + 1; t < values.length; t++) {
    const y = values[t]!;
    const e = y - probability * size;
    sse += e * e;
    count++;
    probability += alphaProbability * ((y !== 0 ? 1 : 0) - probability);
    if (y !== 0) size += alphaSize * (y - size);
  }
  return { forecast: probability * size, sse, count };
}

/** A flat path with an SES-like spread, σ²·(1 + (h − 1)·α²). */
function flatForecast(
  model: ModelForecast['model'],
  level: number,
  mse: number,
  alpha: number,
  horizon: number,
): ModelForecast {
  return {
    model,
    mean: new Array<number>(horizon).fill(level),
    sd: Array.from({ length: horizon }, (_, j) => Math.sqrt(mse * (1 + j * alpha * alpha))),
  };
}
