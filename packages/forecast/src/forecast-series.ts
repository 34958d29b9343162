import { forecastCandidates, type ContinuousModel } from './candidates';
import { medianCombination, softmaxWeights, weightedCombination } from './ensemble';
import { classifyDemand, croston, sba, tsb, type DemandClass } from './intermittent';
import { bias, mape, smape } from './metrics';
import { naive } from './models/naive';
import { intervalBounds, spreadMultiplier, type SpreadAdjustment } from './intervals';
import { integerPeriod } from './seasonality';
import { QUANTILE_LEVELS, normalOffsets, quantilePaths, type QuantileOffset } from './quantiles';
import { Z_80, Z_95, median } from './stats';
import { DEFAULT_GLOBAL_MEMBER, type ExternalMember, type GlobalMemberTuning } from './global/global-member';
import type { ModelForecast, ModelName } from './types';

/** Tuning that the evaluation compares; the defaults are the ones chosen on the design set. */
export type ForecastTuning = {
  /** Recent-history lengths (in periods) the members are fitted on; `Infinity` = the whole series. */
  windows: readonly number[];
  /** Models combined; each is fitted on every window. */
  members: readonly ContinuousModel[];
  /**
   * `weighted`: every member × window configuration, weighted by its inner-hold-out sMAPE
   * (softmaxWeights). `median-best-window`: the earlier rule, the median of the members on the one
   * window whose median did best on the inner hold-out (kept to compare on the dev split).
   */
  combination: 'weighted' | 'median-best-window';
  /** Periods of history used for the seasonal indices, in seasons (indices need several cycles). */
  seasonalCycles: number;
  /** Fourier harmonics for the seasonal component (exact period, e.g. 52.18); 0 = classical. */
  seasonalHarmonics: number;
  /**
   * With `intervals: 'symmetric'` only: multiply the combined spread before the 80% and 95%
   * intervals are drawn (npm run forecast:calibrate compares them). The default draws the bands
   * from `quantileOffsets`, which play the same part at every level.
   */
  intervalScale80: number;
  intervalScale95: number;
  /**
   * `quantiles`: the 80% and 95% bands are the 10–90% and 2.5–97.5% quantiles (from
   * `quantileOffsets`); `symmetric`: ±z·spread times the two factors above.
   */
  intervals: 'quantiles' | 'symmetric';
  /** c_τ of each QUANTILE_LEVELS level for continuous demand: q_τ = f + c_τ·spread (quantiles.ts). */
  quantileOffsets: readonly QuantileOffset[];
  /**
   * The combined spread of a continuous series is first multiplied by (mean |Δy| over the last
   * `recentPeriods` / mean |Δy| over the whole history) ^ `exponent` (intervals.ts); exponent 0
   * turns it off. The exponent was chosen with the factors above, on the ten design origins.
   */
  intervalSpread: SpreadAdjustment;
  /**
   * Adds a window that starts at the latest level shift of the last three years, so that one
   * configuration ignores the level before a step change (Forecast Pro's level-shift idea).
   */
  levelShiftWindow: boolean;
  /**
   * Members fitted on some of the windows only (e.g. `{ arima: [156] }`): a member that costs
   * several times the others is kept to a recent window. A window longer than the history
   * collapses into "all", as for `windows`.
   */
  memberWindows: Partial<Record<ContinuousModel, readonly number[]>>;
  /** Extra models to fit and report (for the evaluation table); they do not enter the ensemble. */
  reportModels: readonly ContinuousModel[];
  /**
   * The learned global member (global/global-member.ts), trained across the series of one
   * `forecastMany` / `forecastBatch` call; null leaves it out. Where it is trained it joins each
   * continuous series' weighting like any configuration, by its inner-hold-out sMAPE.
   */
  globalMember: GlobalMemberTuning | null;
};

export type ForecastOptions = { horizon: number; seasonLength: number; tuning?: Partial<ForecastTuning> };

/**
 * The backtest on the inner hold-out: the last `horizon` values of the input. `path` is the
 * ensemble's forecast of those values (absent when the history was too short to hold any out):
 * reconciliation across a hierarchy chooses its method per level from these paths, which cost
 * nothing more than the weighting already does.
 */
export type Backtest = { mape: number; bias: number; model: string; path?: number[] };

/**
 * One configuration's forecast and its share of the ensemble. `window` is the number of recent
 * periods it was fitted on, null for the whole history; report-only models have weight 0.
 */
export type MemberForecast = {
  model: ModelName;
  window: number | null;
  weight: number;
  mean: number[];
  /**
   * sMAPE of this configuration on the inner hold-out, the error its weight came from; null when
   * there was none (short history, report-only model). The evaluation recombines subsets from it.
   */
  innerSmape: number | null;
};

/** The forecast's `level` quantile at each step (level 0.9: demand stays below it 90% of the time). */
export type QuantileForecast = { level: number; values: number[] };

export type SeriesForecast = {
  /** What produced the ensemble, e.g. "weighted(naive,ets-log,ces) on all/156/520". */
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
  /** Every configuration combined (with its weight) and every reported model. */
  members: MemberForecast[];
  /**
   * The spread the quantiles are drawn from at each step: the weighted members' standard
   * deviations times `spreadMultiplier` (the recent-volatility adjustment; 1 for intermittent
   * demand, whose model's own spread is used).
   */
  spread: number[];
  spreadMultiplier: number;
  /** QUANTILE_LEVELS, lowest first; clipped at 0 like the forecast. */
  quantiles: QuantileForecast[];
};

/**
 * Defaults that passed the rolling-origin rule on the M4 weekly training file (docs/forecasting.md):
 * each gains on design origins 1–8 and on reported origins 9–12 against the engine without it.
 * DOTM on the log scale fitted on the last ten years, everything and (when there is one) the weeks
 * since the latest level shift, and the learned global member, weighted by their inner-hold-out
 * sMAPE (CES and the three-year window left by the rule once the global member was in); the seasonal component is 13 Fourier harmonics of the exact period fitted
 * on five years; quantiles are the point forecast ± calibrated multiples of the combined spread.
 */
export const DEFAULT_TUNING: ForecastTuning = {
  windows: [520, Infinity],
  members: ['dotm-log'],
  combination: 'weighted',
  seasonalCycles: 5,
  seasonalHarmonics: 13,
  intervalScale80: 0.861,
  intervalScale95: 1.029,
  // No recent-volatility adjustment: with the engine below, the ^0.3 adjustment raised the mean
  // pinball loss on the design and on the reported origins (docs/forecasting.md).
  intervalSpread: { recentPeriods: 13, exponent: 0 },
  intervals: 'quantiles',
  // ±the |2τ − 1| quantile of |y − f| / spread over the design origins 1–8 of this engine
  // (symmetric, spread × volatility ratio^0); asymmetric offsets did better there but worse on
  // the reported origins (docs/forecasting.md).
  quantileOffsets: [
    { level: 0.02, offset: -2.282 },
    { level: 0.025, offset: -2.106 },
    { level: 0.05, offset: -1.586 },
    { level: 0.1, offset: -1.116 },
    { level: 0.2, offset: -0.674 },
    { level: 0.5, offset: 0 },
    { level: 0.8, offset: 0.674 },
    { level: 0.9, offset: 1.116 },
    { level: 0.95, offset: 1.586 },
    { level: 0.975, offset: 2.106 },
    { level: 0.98, offset: 2.282 },
  ],
  levelShiftWindow: true,
  memberWindows: {},
  reportModels: [],
  // Kept by the rolling-origin rule: it gains on the design and on the reported origins.
  globalMember: DEFAULT_GLOBAL_MEMBER,
};

/** The learned global member's name in `members`. */
export const GLOBAL_MEMBER: ModelName = 'gbm-global';

/** Below this many values there is nothing to validate on; forecast from the whole history. */
const MIN_VALIDATION_TRAIN = 26;

/**
 * Forecasts one series: classify the demand, pick the history window on an inner hold-out (the
 * last `horizon` values), refit on the chosen window and combine. Nothing after the input's last
 * value is ever looked at, so evaluating on a later hold-out is honest.
 */
export function forecastSeries(
  values: readonly number[],
  options: ForecastOptions,
  external: ExternalMember | null = null,
): SeriesForecast {
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
    : forecastContinuous({ values: clean, horizon, seasonLength, tuning, external });
  const clampLow = (path: number[]): number[] => (isNonNegative ? path.map((v) => Math.max(0, v)) : path);
  const { mean } = result;
  // The intermittent models' spreads are their own; the adjustment and the factors are
  // calibrated for the combination.
  const multiplier = isIntermittent ? 1 : spreadMultiplier(clean, tuning.intervalSpread);
  const sd = result.sd.map((v) => v * multiplier);
  const offsets = isIntermittent ? normalOffsets() : tuning.quantileOffsets;
  const quantiles = quantilePaths(mean, sd, offsets, isNonNegative);
  const at = (level: number): number[] => quantiles.find((q) => Math.abs(q.level - level) < 1e-9)!.values;
  const symmetric = tuning.intervals === 'symmetric' || isIntermittent;
  const band80 = symmetric
    ? intervalBounds(mean, sd, Z_80 * (isIntermittent ? 1 : tuning.intervalScale80), isNonNegative)
    : { lower: at(0.1), upper: at(0.9) };
  const band95 = symmetric
    ? intervalBounds(mean, sd, Z_95 * (isIntermittent ? 1 : tuning.intervalScale95), isNonNegative)
    : { lower: at(0.025), upper: at(0.975) };
  return {
    model: result.model,
    demandClass: profile.demandClass,
    ensemble: clampLow(mean),
    naive: naivePath,
    lower80: band80.lower,
    upper80: band80.upper,
    lower95: band95.lower,
    upper95: band95.upper,
    backtest: result.backtest.path
      ? { ...result.backtest, path: clampLow(result.backtest.path) }
      : result.backtest,
    members: result.members.map((f) => ({ ...f, mean: clampLow(f.mean) })),
    spread: sd,
    spreadMultiplier: multiplier,
    quantiles,
  };
}

type PathResult = {
  model: string;
  mean: number[];
  sd: number[];
  backtest: Backtest;
  members: MemberForecast[];
};

type ContinuousInput = {
  values: readonly number[];
  horizon: number;
  seasonLength: number;
  tuning: ForecastTuning;
  /** A member computed outside the series (the global one); it joins only with an inner path. */
  external: ExternalMember | null;
};

function forecastContinuous({
  values,
  horizon,
  seasonLength,
  tuning,
  external,
}: ContinuousInput): PathResult {
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
  const windowLabel = (window: number): string => (Number.isFinite(window) ? `last ${window}` : 'all');
  const memberList = tuning.members.join(',');

  // Inner hold-out: fit on all but the last `horizon` values, score on those.
  const innerTrain = values.slice(0, n - horizon);
  const innerActual = values.slice(n - horizon);
  const canValidate = innerTrain.length >= MIN_VALIDATION_TRAIN;
  // Windows at least as long as the history are the same choice: keep one "all".
  const baseWindows = tuning.levelShiftWindow
    ? [...tuning.windows, latestLevelShift(canValidate ? innerTrain : values)]
    : tuning.windows;
  const windows = distinctWindows(baseWindows, canValidate ? innerTrain.length : n);
  const extras = tuning.reportModels.filter((m) => !tuning.members.includes(m));

  if (tuning.combination === 'median-best-window') {
    let chosen = windows[0]!;
    let backtest: Backtest = { mape: Number.NaN, bias: Number.NaN, model: `median(${memberList})` };
    if (canValidate) {
      let bestScore = Number.POSITIVE_INFINITY;
      for (const window of windows) {
        const combined = medianCombination(run(innerTrain, window, tuning.members));
        const score = meanAbsoluteError(innerActual, combined.mean);
        if (score < bestScore) {
          bestScore = score;
          chosen = window;
          backtest = {
            ...scoreBacktest(innerActual, combined.mean),
            model: backtest.model,
            path: combined.mean,
          };
        }
      }
    }
    const forecasts = run(values, chosen, [...tuning.members, ...extras]);
    const members = forecasts.filter((f) => tuning.members.includes(f.model as ContinuousModel));
    const combined = members.length > 0 ? medianCombination(members) : naive(values, horizon);
    const window = Number.isFinite(chosen) ? chosen : null;
    return {
      model: `median(${memberList}) on ${windowLabel(chosen)}`,
      ...combined,
      backtest,
      members: forecasts.map((f) => ({
        model: f.model,
        window,
        weight: members.includes(f) ? 1 / members.length : 0,
        mean: f.mean,
        innerSmape: null,
      })),
    };
  }

  // Every member on each of its windows, at the inner origin (for the weights) and on the full history.
  const fittedLength = canValidate ? innerTrain.length : n;
  const onWindow = (window: number): ContinuousModel[] =>
    tuning.members.filter((m) => {
      const only = tuning.memberWindows[m];
      return !only || distinctWindows(only, fittedLength).includes(window);
    });
  type Config = { window: number; forecast: ModelForecast; error: number; inner: number[] | null };
  const configs: Config[] = [];
  for (const window of windows) {
    const members = onWindow(window);
    if (members.length === 0) continue;
    const inner = canValidate ? run(innerTrain, window, members) : [];
    for (const forecast of run(values, window, members)) {
      const innerPath = inner.find((f) => f.model === forecast.model)?.mean ?? null;
      const error = innerPath ? smape(innerActual, innerPath) : Number.NaN;
      configs.push({ window, forecast, error, inner: innerPath });
    }
  }
  if (configs.length === 0) {
    const fallback = naive(values, horizon);
    return {
      model: 'naive',
      mean: fallback.mean,
      sd: fallback.sd,
      backtest: { mape: Number.NaN, bias: Number.NaN, model: 'naive' },
      members: [{ model: 'naive', window: null, weight: 1, mean: fallback.mean, innerSmape: null }],
    };
  }
  // The external member needs a back-test to earn weight; without one it stays out.
  const externalCount = canValidate && external?.inner ? 1 : 0;
  if (externalCount === 1) {
    const inner = external!.inner!;
    configs.push({
      window: Infinity,
      forecast: { model: GLOBAL_MEMBER, mean: external!.forecast, sd: [] },
      error: smape(innerActual, inner),
      inner,
    });
  }
  // Without an inner hold-out every configuration counts the same.
  const weights = softmaxWeights(configs.map((c) => (canValidate ? c.error : 0)));
  // The global member has no error model of its own: the spread is the statistical
  // configurations' weighted spread, their weights renormalised.
  const statistical = configs.length - externalCount;
  const statWeight = weights.slice(0, statistical).reduce((a, b) => a + b, 0);
  const statSd = new Array<number>(horizon).fill(0);
  for (let i = 0; i < statistical; i++)
    configs[i]!.forecast.sd.forEach((v, j) => (statSd[j] = statSd[j]! + (weights[i]! / statWeight) * v));
  if (externalCount === 1) configs[statistical]!.forecast.sd = statSd;
  const combined = weightedCombination(
    configs.map((c) => c.forecast),
    weights,
  );
  const description =
    `weighted(${memberList}) on ${windows.map(windowLabel).join('/')}` +
    (externalCount === 1 ? ` + ${GLOBAL_MEMBER}` : '');
  let backtest: Backtest = { mape: Number.NaN, bias: Number.NaN, model: description };
  const scored = configs.map((c, i) => ({ forecast: c.inner, weight: weights[i]! }));
  if (canValidate && scored.every((c) => c.forecast !== null || c.weight === 0)) {
    const innerCombined = weightedCombination(
      scored.map((c) => ({ model: 'naive' as const, mean: c.forecast ?? innerActual, sd: [] })),
      scored.map((c) => c.weight),
    ).mean;
    backtest = { ...scoreBacktest(innerActual, innerCombined), model: description, path: innerCombined };
  }
  const members: MemberForecast[] = configs.map((c, i) => ({
    model: c.forecast.model,
    window: Number.isFinite(c.window) ? c.window : null,
    weight: weights[i]!,
    mean: c.forecast.mean,
    innerSmape: Number.isFinite(c.error) ? c.error : null,
  }));
  if (extras.length > 0) {
    // Report-only models go on the window that carries the most weight.
    const heaviest = new Map<number, number>();
    configs.forEach((c, i) => heaviest.set(c.window, (heaviest.get(c.window) ?? 0) + weights[i]!));
    const top = [...heaviest.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    for (const f of run(values, top, extras))
      members.push({
        model: f.model,
        window: Number.isFinite(top) ? top : null,
        weight: 0,
        mean: f.mean,
        innerSmape: null,
      });
  }
  return { model: description, ...combined, backtest, members };
}

/**
 * Length of the window since the latest level shift in the last 156 values: the latest week k
 * (at least 26 from the end) where the median of the 13 weeks from k differs from the median of
 * the 13 before it by more than 6 typical week-to-week changes (median |Δy|); Infinity if none.
 */
export function latestLevelShift(values: readonly number[]): number {
  const n = values.length;
  const start = Math.max(13, n - 156);
  const changes: number[] = [];
  for (let t = Math.max(1, n - 156); t < n; t++) changes.push(Math.abs(values[t]! - values[t - 1]!));
  const noise = median(changes);
  if (!(noise > 0)) return Infinity;
  for (let k = n - 26; k >= start; k--) {
    const after = median(values.slice(k, k + 13));
    const before = median(values.slice(k - 13, k));
    if (Math.abs(after - before) > 6 * noise) return n - k;
  }
  return Infinity;
}

function scoreBacktest(actual: readonly number[], forecast: readonly number[]): Omit<Backtest, 'model'> {
  return { mape: mape(actual, forecast), bias: bias(actual, forecast) };
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
        backtest = {
          mape: mape(innerActual, forecast),
          bias: bias(innerActual, forecast),
          model: name,
          path: forecast,
        };
      }
    }
  }
  const fits = [croston(values, horizon), sba(values, horizon), tsb(values, horizon)];
  const picked = fits.find((f) => f.model === chosen)!;
  const members = fits.map((f) => ({
    model: f.model,
    window: null,
    weight: f === picked ? 1 : 0,
    mean: f.mean,
    innerSmape: null,
  }));
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
    members: [{ model: 'naive', window: null, weight: 1, mean: naivePath, innerSmape: null }],
    spread: naivePath.map(() => 0),
    spreadMultiplier: 1,
    quantiles: QUANTILE_LEVELS.map((level) => ({ level, values: [...naivePath] })),
  };
}

export function distinctWindows(windows: readonly number[], length: number): number[] {
  const result: number[] = [];
  let hasAll = false;
  // A level-shift window may equal a fixed one: fitting it twice would count it twice.
  for (const window of [...new Set(windows)].sort((a, b) => a - b)) {
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
