import {
  DAMPED_SPEC,
  HOLT_SPEC,
  SES_SPEC,
  autoEts,
  candidateSpecs,
  fitEts,
  forecastEts,
  type EtsFit,
  type EtsSpec,
} from './models/ets';
import { autoArima, forecastArima } from './models/arima';
import { fitCes, forecastCes } from './models/ces';
import { naive, seasonalNaive } from './models/naive';
import { adida, mapa, type BaseForecaster } from './models/temporal-aggregation';
import { fitTheta, forecastTheta } from './models/theta';
import {
  deseasonalize,
  integerPeriod,
  reseasonalize,
  reseasonalizeSpread,
  seasonalAdjustment,
} from './seasonality';
import type { ModelForecast, ModelName } from './types';

/** Models for regular (non-intermittent) demand, in the order they are reported. */
export const CONTINUOUS_MODELS = [
  'naive',
  'seasonal-naive',
  'ses',
  'holt',
  'damped',
  'ets',
  'ets-log',
  'theta',
  'otm',
  'dstm',
  'dotm',
  'dotm-log',
  'ces',
  'arima',
  'arima-log',
  'adida',
  'mapa',
] as const satisfies readonly ModelName[];
export type ContinuousModel = (typeof CONTINUOUS_MODELS)[number];

/** ADIDA's bucket: four weeks, about a month. */
const ADIDA_LEVEL = 4;
/** MAPA's levels: every bucket length from one week to a quarter (13 weeks). */
const MAPA_LEVELS = Array.from({ length: 13 }, (_, i) => i + 1);
/** An aggregation level is used only with at least this many buckets to fit on. */
const MIN_AGGREGATE_BUCKETS = 12;

/** Automatic non-seasonal ETS on aggregated buckets (seasonality was removed before summing). */
const aggregateEts: BaseForecaster = (buckets, steps) => {
  if (buckets.length < MIN_AGGREGATE_BUCKETS) return undefined;
  const fit = autoEts(buckets, 1, false);
  return fit && forecastEts(fit, steps);
};

export type CandidateRequest = {
  /** The history the models are fitted on. */
  values: readonly number[];
  horizon: number;
  seasonLength: number;
  /**
   * Values before `values` that may be used to estimate the seasonal indices (which need several
   * cycles even when the models see only a short recent window). May be empty.
   */
  seasonalHistory?: readonly number[];
  models: readonly ContinuousModel[];
  /** Fourier harmonics for the seasonal component; 0 means classical decomposition. */
  seasonalHarmonics?: number;
};

/**
 * Fits the requested models on one history and forecasts `horizon` steps. Seasonal series are
 * adjusted first (classical decomposition, see seasonality.ts) and the forecasts re-seasonalised,
 * as in the M4 benchmarks; the naïve models work on the raw values.
 */
export function forecastCandidates(request: CandidateRequest): ModelForecast[] {
  const { values, horizon, seasonLength, models } = request;
  const period = integerPeriod(seasonLength);
  const history = request.seasonalHistory ?? [];
  const adjustmentBasis = history.length > 0 ? [...history, ...values] : values;
  const adjustment = seasonalAdjustment(adjustmentBasis, request.seasonalHarmonics ? seasonLength : period, {
    harmonics: request.seasonalHarmonics ?? 0,
  });
  const offset = history.length;
  const adjusted = deseasonalize(values, adjustment, offset);
  const start = offset + values.length;
  const finish = (forecast: ModelForecast): ModelForecast => ({
    model: forecast.model,
    mean: reseasonalize(forecast.mean, adjustment, start),
    sd: reseasonalizeSpread(forecast.sd, adjustment, start),
  });

  const etsFits = new Map<string, EtsFit | undefined>();
  const etsFit = (spec: EtsSpec): EtsFit | undefined => {
    const key = `${spec.error}${spec.trend}${spec.season}`;
    if (!etsFits.has(key)) etsFits.set(key, fitEts(adjusted, spec));
    return etsFits.get(key);
  };

  const results: ModelForecast[] = [];
  for (const model of models) {
    const forecast = forecastOne(model);
    if (forecast && forecast.mean.every(Number.isFinite)) results.push(forecast);
  }
  return results;

  function forecastOne(model: ContinuousModel): ModelForecast | undefined {
    switch (model) {
      case 'naive':
        return naive(values, horizon);
      case 'seasonal-naive':
        return seasonalNaive(values, horizon, period);
      case 'ses':
      case 'holt':
      case 'damped': {
        const spec = model === 'ses' ? SES_SPEC : model === 'holt' ? HOLT_SPEC : DAMPED_SPEC;
        const fit = etsFit(spec);
        return fit && finish(forecastEts(fit, horizon, model));
      }
      case 'ets': {
        // Short periods get seasonal ETS on the raw values, as R's ets does (m ≤ 24).
        if (period > 1 && period <= 24 && adjustment.kind !== 'none') {
          const fit = autoEts(values, period, true);
          return fit && forecastEts(fit, horizon, 'ets');
        }
        // Otherwise seasonality was removed above and the choice is among non-seasonal models.
        let best: EtsFit | undefined;
        for (const spec of candidateSpecs(adjusted, 1, false)) {
          const fit = etsFit(spec);
          if (fit && (!best || fit.aicc < best.aicc)) best = fit;
        }
        return best && finish(forecastEts(best, horizon, 'ets'));
      }
      case 'ets-log':
      case 'dotm-log':
      case 'arima-log':
        return onLogScale(model);
      case 'theta':
      case 'otm':
      case 'dstm':
      case 'dotm':
        return finish(forecastTheta(fitTheta(adjusted, model), horizon));
      case 'ces':
        return finish(forecastCes(fitCes(adjusted), horizon));
      case 'arima': {
        const fit = autoArima(adjusted);
        return fit && finish(forecastArima(fit, horizon));
      }
      case 'adida': {
        const forecast = adida(adjusted, horizon, ADIDA_LEVEL, aggregateEts, model);
        return forecast && finish(forecast);
      }
      case 'mapa': {
        const forecast = mapa(adjusted, horizon, MAPA_LEVELS, aggregateEts, MIN_AGGREGATE_BUCKETS, model);
        return forecast && finish(forecast);
      }
    }
  }

  /**
   * The model on the log of the seasonally adjusted series: multiplicative changes become
   * additive and spikes weigh less (the log alternative Forecast Pro validated in M4). Only for
   * positive data; answers the median exp(μ) and the delta-method spread exp(μ)·σ.
   */
  function onLogScale(model: 'ets-log' | 'dotm-log' | 'arima-log'): ModelForecast | undefined {
    if (!adjusted.every((v) => v > 0)) return undefined;
    const logs = adjusted.map(Math.log);
    let onLog: ModelForecast | undefined;
    if (model === 'ets-log') {
      const fit = autoEts(logs, 1, false);
      onLog = fit && forecastEts(fit, horizon, model);
    } else if (model === 'arima-log') {
      const fit = autoArima(logs);
      onLog = fit && forecastArima(fit, horizon);
    } else onLog = forecastTheta(fitTheta(logs, 'dotm'), horizon);
    if (!onLog) return undefined;
    const mean = onLog.mean.map(Math.exp);
    return finish({ model, mean, sd: onLog.sd.map((sd, j) => sd * mean[j]!) });
  }
}
