/**
 * Rolling-origin evaluation: the engine's forecasts at many origins, split into design origins
 * (where choices may be made) and reported origins (scored once, never used for a choice), and
 * the gain of each design choice on both. docs/forecasting.md, "Rolling-origin evaluation",
 * states the rule.
 */
import { softmaxWeights } from './ensemble';
import { coverage, scoreHoldout, type HoldoutCase, type OriginSplit } from './evaluation';
import { GLOBAL_MEMBER, type MemberForecast, type SeriesForecast } from './forecast-series';
import type { ExternalMember } from './global/global-member';
import { spreadMultiplier, type SpreadAdjustment } from './intervals';
import { msis, smape } from './metrics';
import { calibrateOffsets, pinballLoss, quantilePaths, type QuantileOffset } from './quantiles';

/** A scored series at one origin and the engine's forecast for it. */
export type OriginCase = OriginSplit & { forecast: SeriesForecast };

/**
 * A design choice and the simpler engine without it, derived from the engine's own forecasts:
 * `keep` drops configurations (the weights are recomputed from their inner-hold-out errors, as
 * the engine does), `temperature` changes the weighting's scale.
 */
export type Variant = {
  name: string;
  keep?: (member: MemberForecast, fixedWindows: readonly number[]) => boolean;
  temperature?: number;
  /** A neighbouring value of a constant rather than the engine without a choice. */
  neighbour?: boolean;
};

/**
 * The ensemble path of the configurations `keep` retains, weighted as forecastSeries weighs them
 * (softmaxWeights over their inner-hold-out sMAPE; equal weights when none has one). Intermittent
 * series and series whose every configuration is dropped keep the engine's ensemble: the variant
 * does not apply to them. Clipped at 0 for non-negative histories, like the engine's ensemble.
 */
export function recombine(
  forecast: SeriesForecast,
  isNonNegative: boolean,
  variant: Variant,
  fixedWindows: readonly number[],
): number[] {
  if (forecast.demandClass === 'intermittent' || forecast.demandClass === 'lumpy') return forecast.ensemble;
  const combined = forecast.members.filter((m) => m.weight > 0 || m.innerSmape !== null);
  const kept = combined.filter((m) => !variant.keep || variant.keep(m, fixedWindows));
  if (kept.length === 0) return forecast.ensemble;
  const validated = kept.every((m) => m.innerSmape !== null);
  const weights = softmaxWeights(
    kept.map((m) => (validated ? m.innerSmape! : 0)),
    variant.temperature ?? 1,
  );
  const path = new Array<number>(forecast.ensemble.length).fill(0);
  kept.forEach((m, i) => m.mean.forEach((v, j) => (path[j] = path[j]! + weights[i]! * v)));
  return isNonNegative ? path.map((v) => Math.max(0, v)) : path;
}

/** Mean over origins of each method's per-origin sMAPE, MASE and OWA (each origin against its naïve). */
export type GroupScore = { method: string; smape: number; mase: number; owa: number; origins: number };

export function scoreOrigins(
  byOrigin: ReadonlyMap<number, HoldoutCase[]>,
  origins: readonly number[],
): GroupScore[] {
  const totals = new Map<string, { smape: number; mase: number; owa: number; origins: number }>();
  for (const origin of origins) {
    const cases = byOrigin.get(origin);
    if (!cases || cases.length === 0) continue;
    for (const row of scoreHoldout(cases)) {
      const total = totals.get(row.method) ?? { smape: 0, mase: 0, owa: 0, origins: 0 };
      total.smape += row.smape;
      total.mase += row.mase;
      total.owa += row.owa;
      total.origins += 1;
      totals.set(row.method, total);
    }
  }
  return [...totals.entries()].map(([method, t]) => ({
    method,
    smape: t.smape / t.origins,
    mase: t.mase / t.origins,
    owa: t.owa / t.origins,
    origins: t.origins,
  }));
}

/** OWA of one origin's method (each origin's OWA is relative to its own naïve). */
export function originOwa(cases: readonly HoldoutCase[], method: string): number {
  return scoreHoldout(cases).find((r) => r.method === method)?.owa ?? Number.NaN;
}

/** MASE's scale: mean absolute one-step change of the training part. */
export function maseScale(train: readonly number[]): number {
  let total = 0;
  for (let t = 1; t < train.length; t++) total += Math.abs(train[t]! - train[t - 1]!);
  return train.length > 1 ? total / (train.length - 1) : Number.NaN;
}

const isContinuous = (c: OriginCase): boolean =>
  c.forecast.demandClass !== 'intermittent' && c.forecast.demandClass !== 'lumpy';

/** The spread a case's quantiles are drawn from (the engine's own, or a variant's). */
export type SpreadOf = (c: OriginCase) => readonly number[];

export const engineSpread: SpreadOf = (c) => c.forecast.spread;

/**
 * The spread with another recent-volatility exponent: the combined spread without the engine's
 * multiplier, times recentVolatilityRatio(train)^exponent.
 */
export function spreadWithExponent(adjustment: SpreadAdjustment): SpreadOf {
  return (c) => {
    const f = c.forecast;
    if (!isContinuous(c)) return f.spread;
    const multiplier = spreadMultiplier(c.train, adjustment);
    return f.spread.map((s) => (f.spreadMultiplier > 0 ? s / f.spreadMultiplier : s) * multiplier);
  };
}

/**
 * Scaled errors (y − f) / spread of the continuous series, every step pooled: what the quantile
 * offsets are calibrated on.
 */
export function scaledErrors(cases: readonly OriginCase[], spreadOf: SpreadOf = engineSpread): number[] {
  const errors: number[] = [];
  for (const c of cases) {
    if (!isContinuous(c)) continue;
    const spread = spreadOf(c);
    c.actual.forEach((y, j) => {
      const s = spread[j]!;
      if (s > 0) errors.push((y - c.forecast.ensemble[j]!) / s);
    });
  }
  return errors;
}

/** What the quantile forecasts score on a set of cases. */
export type QuantileScore = {
  /** Share of actuals inside the 10–90% and 2.5–97.5% bands, percent. */
  coverage80: number;
  coverage95: number;
  msis80: number;
  msis95: number;
  /** Share of actuals at or below each quantile, percent (nominal: the level). */
  below: { level: number; share: number }[];
  /** Pinball loss over MASE's scale at each level, and their mean. */
  pinball: { level: number; loss: number }[];
  meanPinball: number;
};

/**
 * Scores quantile paths built with `offsets` on `spreadOf` (continuous series) on the cases;
 * intermittent series use their own quantiles.
 */
export function scoreQuantiles(
  cases: readonly OriginCase[],
  offsets: readonly QuantileOffset[],
  spreadOf: SpreadOf = engineSpread,
): QuantileScore {
  const levels = offsets.map((o) => o.level).sort((a, b) => a - b);
  const paths = cases.map((c) => {
    const f = c.forecast;
    if (!isContinuous(c)) return f.quantiles;
    return quantilePaths(
      f.ensemble,
      spreadOf(c),
      offsets,
      c.train.every((v) => v >= 0),
    );
  });
  const at = (i: number, level: number): number[] =>
    paths[i]!.find((q) => Math.abs(q.level - level) < 1e-9)?.values ?? cases[i]!.forecast.ensemble;
  const actuals = cases.map((c) => c.actual);
  const band = (lo: number, hi: number): [number[][], number[][]] => [
    cases.map((_, i) => at(i, lo)),
    cases.map((_, i) => at(i, hi)),
  ];
  const [l80, u80] = band(0.1, 0.9);
  const [l95, u95] = band(0.025, 0.975);
  const meanOf = (score: (c: OriginCase, i: number) => number): number => {
    let total = 0;
    let count = 0;
    cases.forEach((c, i) => {
      const value = score(c, i);
      if (Number.isFinite(value)) {
        total += value;
        count++;
      }
    });
    return count === 0 ? Number.NaN : total / count;
  };
  const below = levels.map((level) => {
    let inside = 0;
    let total = 0;
    cases.forEach((c, i) => {
      const q = at(i, level);
      c.actual.forEach((y, j) => {
        total++;
        if (y <= q[j]!) inside++;
      });
    });
    return { level, share: total === 0 ? Number.NaN : (100 * inside) / total };
  });
  const pinball = levels.map((level) => ({
    level,
    loss: meanOf((c, i) => pinballLoss(c.actual, at(i, level), level, maseScale(c.train))),
  }));
  return {
    coverage80: coverage(actuals, l80, u80),
    coverage95: coverage(actuals, l95, u95),
    msis80: meanOf((c, i) => msis(c.train, c.actual, l80[i]!, u80[i]!, 0.2)),
    msis95: meanOf((c, i) => msis(c.train, c.actual, l95[i]!, u95[i]!, 0.05)),
    below,
    pinball,
    meanPinball: pinball.reduce((t, p) => t + p.loss, 0) / Math.max(1, pinball.length),
  };
}

/** Offsets calibrated on the cases' pooled scaled errors (the design origins, by the rule). */
export function calibrateOnCases(
  cases: readonly OriginCase[],
  spreadOf: SpreadOf = engineSpread,
): QuantileOffset[] {
  return calibrateOffsets(scaledErrors(cases, spreadOf));
}

/** The engine's symmetric bands (lower80 … upper95) scored like scoreQuantiles' bands. */
export function scoreEngineBands(cases: readonly OriginCase[]): {
  coverage80: number;
  coverage95: number;
  msis80: number;
  msis95: number;
} {
  const actuals = cases.map((c) => c.actual);
  const pick = (key: 'lower80' | 'upper80' | 'lower95' | 'upper95'): number[][] =>
    cases.map((c) => c.forecast[key]);
  const meanMsis = (lo: 'lower80' | 'lower95', hi: 'upper80' | 'upper95', alpha: number): number =>
    cases.reduce((t, c) => t + msis(c.train, c.actual, c.forecast[lo], c.forecast[hi], alpha), 0) /
    Math.max(1, cases.length);
  return {
    coverage80: coverage(actuals, pick('lower80'), pick('upper80')),
    coverage95: coverage(actuals, pick('lower95'), pick('upper95')),
    msis80: meanMsis('lower80', 'upper80', 0.2),
    msis95: meanMsis('lower95', 'upper95', 0.05),
  };
}

/**
 * The forecast with an external member's configuration added, as forecastSeries would have added
 * it: with its inner-hold-out sMAPE (against the train's last `horizon` values) and weight 0, so
 * `recombine` weighs it with the others. Only continuous series whose configurations were
 * validated take it, as in the engine.
 */
export function withExternalMember(
  forecast: SeriesForecast,
  train: readonly number[],
  external: ExternalMember | null,
): SeriesForecast {
  if (!external?.inner) return forecast;
  if (forecast.demandClass === 'intermittent' || forecast.demandClass === 'lumpy') return forecast;
  const combined = forecast.members.filter((m) => m.weight > 0 || m.innerSmape !== null);
  if (combined.length === 0 || combined.some((m) => m.innerSmape === null)) return forecast;
  const actual = train.slice(train.length - external.inner.length);
  const member: MemberForecast = {
    model: GLOBAL_MEMBER,
    window: null,
    weight: 0,
    mean: external.forecast,
    innerSmape: smape(actual, external.inner),
  };
  return { ...forecast, members: [...forecast.members, member] };
}
