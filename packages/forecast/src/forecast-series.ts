import { forecastCandidates, type ContinuousModel } from './candidates';
import { medianCombination } from './ensemble';
import { classifyDemand, croston, sba, tsb, type DemandClass } from './intermittent';
import { bias, mape } from './metrics';
import { naive } from './models/naive';
import { integerPeriod } from './seasonality';
import { Z_80, Z_95 } from './stats';
import type { ModelForecast, ModelName } from './types';

/** Tuning that the evaluation compares; the defaults are the ones chosen on inner validation. */
export type ForecastTuning = {
  /** Recent-history lengths to choose among (in periods); `Infinity` means the whole series. */
  windows: readonly number[];
  /** Models whose median is the ensemble. */
  members: readonly ContinuousModel[];
  /** Periods of history used for the seasonal indices, in seasons (indices need several cycles). */
  seasonalCycles: number;
  /** Fourier harmonics for the seasonal indices (exact period, e.g. 52.18); 0 = classical. */
  seasonalHarmonics: number;
  /** Extra models to fit and report (for the evaluation table); they do not enter the ensemble. */
  reportModels: readonly ContinuousModel[];
};

export type ForecastOptions = { horizon: number; seasonLength: number; tuning?: Partial<ForecastTuning> };

/** The backtest on the inner hold-out: the last `horizon` values of the input. */
export type Backtest = { mape: number; bias: number; model: string };

export type SeriesForecast = {
  /** What produced the ensemble, e.g. "median(ets,ces,dotm) on last 156". */
  model: string;
  demandClass: DemandClass;
  /** Ensemble_Fcst_Units. */
  ensemble: number[];
  /** Naïve_Rev_Mfg_Fcst_Bk_Units. */
  naive: number[];
  lower80: number[];
  upper80: number[];
  lower95: number[];
  upper95: number[];
  backtest: Backtest;
  /** Every member's (and reported model's) own forecast, refitted on the chosen window. */
  members: { model: ModelName; mean: number[] }[];
};

/**
 * Defaults chosen on the M4 weekly training data with the `dev` split only (the last 13 weeks
 * never seen; see docs/forecasting.md): the window is picked per series among the last three
 * years, five years and everything; the seasonal component is 13 Fourier harmonics of the exact
 * period fitted on five years; the ensemble is the median of naïve, ETS and CES.
 */
export const DEFAULT_TUNING: ForecastTuning = {
  windows: [156, 260, Infinity],
  members: ['naive', 'ets', 'ces'],
  seasonalCycles: 5,
  seasonalHarmonics: 13,
  reportModels: [],
};

/** Below this many values there is nothing to validate on; forecast from the whole history. */
const MIN_VALIDATION_TRAIN = 26;

/**
 * Forecasts one series: classify the demand, pick the history window on an inner hold-out (the
 * last `horizon` values), refit on the chosen window and combine. Nothing after the input's last
 * value is ever looked at, so evaluating on a later hold-out is honest.
 */
export function forecastSeries(values: readonly number[], options: ForecastOptions): SeriesForecast {
  const { horizon, seasonLength } = options;
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const clean = values.filter(Number.isFinite);
  const isNonNegative = clean.every((v) => v >= 0);
  const naivePath = naive(clean, horizon).mean;
  if (clean.length < 3) return constantForecast(naivePath);

  const profile = classifyDemand(clean);
  const isIntermittent = profile.demandClass === 'intermittent' || profile.demandClass === 'lumpy';
  const result = isIntermittent
    ? forecastIntermittent(clean, horizon)
    : forecastContinuous(clean, horizon, seasonLength, tuning);
  const clampLow = (path: number[]): number[] => (isNonNegative ? path.map((v) => Math.max(0, v)) : path);
  const { mean, sd } = result;
  return {
    model: result.model,
    demandClass: profile.demandClass,
    ensemble: clampLow(mean),
    naive: naivePath,
    lower80: clampLow(mean.map((v, j) => v - Z_80 * sd[j]!)),
    upper80: clampLow(mean.map((v, j) => v + Z_80 * sd[j]!)),
    lower95: clampLow(mean.map((v, j) => v - Z_95 * sd[j]!)),
    upper95: clampLow(mean.map((v, j) => v + Z_95 * sd[j]!)),
    backtest: result.backtest,
    members: result.members.map((f) => ({ model: f.model, mean: clampLow(f.mean) })),
  };
}

type PathResult = {
  model: string;
  mean: number[];
  sd: number[];
  backtest: Backtest;
  members: ModelForecast[];
};

function forecastContinuous(
  values: readonly number[],
  horizon: number,
  seasonLength: number,
  tuning: ForecastTuning,
): PathResult {
  const n = values.length;
  const period = integerPeriod(seasonLength);
  const seasonalSpan = tuning.seasonalCycles * period;
  const run = (
    history: readonly number[],
    window: number,
    models: readonly ContinuousModel[],
  ): ModelForecast[] => {
    const fitted = history.slice(-window);
    const before = history.slice(0, history.length - fitted.length);
    return forecastCandidates({
      values: fitted,
      horizon,
      seasonLength: tuning.seasonalHarmonics > 0 ? seasonLength : period,
      seasonalHarmonics: tuning.seasonalHarmonics,
      seasonalHistory: before.slice(Math.max(0, before.length - Math.max(0, seasonalSpan - fitted.length))),
      models,
    });
  };
  const describe = (window: number, fittedLength: number): string =>
    `median(${tuning.members.join(',')}) on ${window >= fittedLength ? 'all' : `last ${window}`}`;

  // Inner hold-out: fit on all but the last `horizon` values, score on those.
  const innerTrain = values.slice(0, n - horizon);
  const innerActual = values.slice(n - horizon);
  const canValidate = innerTrain.length >= MIN_VALIDATION_TRAIN;
  // Windows at least as long as the history are the same choice: keep the first of them.
  const windows = distinctWindows(tuning.windows, canValidate ? innerTrain.length : n);
  let chosen = windows[0]!;
  let backtest: Backtest = { mape: Number.NaN, bias: Number.NaN, model: describe(chosen, n) };
  if (canValidate) {
    let bestScore = Number.POSITIVE_INFINITY;
    for (const window of windows) {
      const combined = medianCombination(run(innerTrain, window, tuning.members));
      const score = meanAbsoluteError(innerActual, combined.mean);
      if (score < bestScore) {
        bestScore = score;
        chosen = window;
        backtest = {
          mape: mape(innerActual, combined.mean),
          bias: bias(innerActual, combined.mean),
          model: describe(window, innerTrain.length),
        };
      }
    }
  }
  const reported = [...tuning.members, ...tuning.reportModels.filter((m) => !tuning.members.includes(m))];
  const forecasts = run(values, chosen, reported);
  const members = forecasts.filter((f) => tuning.members.includes(f.model as ContinuousModel));
  const combined = members.length > 0 ? medianCombination(members) : naive(values, horizon);
  return { model: describe(chosen, n), ...combined, backtest, members: forecasts };
}

/**
 * Intermittent and lumpy demand (ADI ≥ 1.32): Croston, SBA and TSB are fitted; the one with the
 * smallest inner hold-out MAE is used, SBA when the history is too short to validate (it is the
 * least biased of the three for these classes, Syntetos & Boylan 2005).
 */
function forecastIntermittent(values: readonly number[], horizon: number): PathResult {
  const methods = { croston, sba, tsb } as const;
  const n = values.length;
  let chosen: keyof typeof methods = 'sba';
  let backtest: Backtest = { mape: Number.NaN, bias: Number.NaN, model: chosen };
  if (n - horizon >= MIN_VALIDATION_TRAIN) {
    const innerTrain = values.slice(0, n - horizon);
    const innerActual = values.slice(n - horizon);
    let best = Number.POSITIVE_INFINITY;
    for (const name of ['sba', 'croston', 'tsb'] as const) {
      const forecast = methods[name](innerTrain, horizon).mean;
      const score = meanAbsoluteError(innerActual, forecast);
      if (score < best) {
        best = score;
        chosen = name;
        backtest = { mape: mape(innerActual, forecast), bias: bias(innerActual, forecast), model: name };
      }
    }
  }
  const members = [croston(values, horizon), sba(values, horizon), tsb(values, horizon)];
  const picked = members.find((f) => f.model === chosen)!;
  return { model: chosen, mean: picked.mean, sd: picked.sd, backtest, members };
}

/** Fewer than three values: repeat the last one (0 for an empty series). */
function constantForecast(naivePath: number[]): SeriesForecast {
  return {
    model: 'naive',
    demandClass: 'smooth',
    ensemble: naivePath,
    naive: naivePath,
    lower80: naivePath,
    upper80: naivePath,
    lower95: naivePath,
    upper95: naivePath,
    backtest: { mape: Number.NaN, bias: Number.NaN, model: 'naive' },
    members: [{ model: 'naive', mean: naivePath }],
  };
}

export function distinctWindows(windows: readonly number[], length: number): number[] {
  const result: number[] = [];
  let hasAll = false;
  for (const window of [...windows].sort((a, b) => a - b)) {
    if (window >= length) {
      if (!hasAll) result.push(Infinity);
      hasAll = true;
    } else result.push(window);
  }
  return result.length > 0 ? result : [Infinity];
}

function meanAbsoluteError(actual: readonly number[], forecast: readonly number[]): number {
  let total = 0;
  for (let j = 0; j < actual.length; j++) total += Math.abs(actual[j]! - forecast[j]!);
  return total / actual.length;
}
