import { intervalScaleFor } from './evaluation';
import { intervalBounds } from './intervals';
import { msis } from './metrics';

/**
 * Calibrating the interval factors on rolling origins (npm run forecast:calibrate). Each series is
 * forecast once per origin with the raw combined spread; a candidate recent-volatility exponent
 * then only rescales that spread, so every exponent is scored on the same forecasts.
 */

/** One series at one origin. */
export type CalibrationCase = {
  train: readonly number[];
  actual: readonly number[];
  mean: readonly number[];
  /** The raw combined spread per step; null for intermittent series (their own bands stay). */
  spread: readonly number[] | null;
  /** recentVolatilityRatio of the training values (intervals.ts). */
  volatilityRatio: number;
  isNonNegative: boolean;
  own: Record<'80' | '95', { lower: readonly number[]; upper: readonly number[] }>;
};

export type Level = 0.8 | 0.95;

/** The spread after the recent-volatility adjustment: spread × ratio^exponent. */
function adjustedSpread(c: CalibrationCase, exponent: number): number[] {
  const multiplier = exponent === 0 ? 1 : c.volatilityRatio ** exponent;
  return c.spread!.map((s) => s * multiplier);
}

/** |error| / adjusted spread of the continuous series' steps with a positive spread and forecast. */
export function spreadRatios(cases: readonly CalibrationCase[], exponent: number): number[] {
  const result: number[] = [];
  for (const c of cases) {
    if (!c.spread) continue;
    const spread = adjustedSpread(c, exponent);
    c.actual.forEach((y, j) => {
      if (spread[j]! > 0 && c.mean[j]! > 0) result.push(Math.abs(y - c.mean[j]!) / spread[j]!);
    });
  }
  return result;
}

/** The factor pooled over the given origins' cases (intervalScaleFor of all their ratios). */
export function pooledFactor(
  origins: readonly (readonly CalibrationCase[])[],
  exponent: number,
  level: Level,
  z: number,
): number {
  return intervalScaleFor(
    origins.flatMap((cases) => spreadRatios(cases, exponent)),
    level,
    z,
  );
}

/**
 * Coverage (%) of all steps and mean MSIS per series of the bands mean ± zScaled·adjusted spread
 * (intermittent series: their own bands).
 */
export function scoreBands(
  cases: readonly CalibrationCase[],
  exponent: number,
  zScaled: number,
  level: Level,
): { coverage: number; msis: number } {
  let inside = 0;
  let total = 0;
  let msisTotal = 0;
  for (const c of cases) {
    const band = c.spread
      ? intervalBounds(c.mean, adjustedSpread(c, exponent), zScaled, c.isNonNegative)
      : c.own[level === 0.8 ? '80' : '95'];
    c.actual.forEach((y, j) => {
      total++;
      if (y >= band.lower[j]! && y <= band.upper[j]!) inside++;
    });
    msisTotal += msis(c.train, c.actual, band.lower, band.upper, 1 - level);
  }
  return { coverage: (100 * inside) / total, msis: msisTotal / cases.length };
}

/**
 * Leave one origin out: each origin scored with the factor pooled over the others. The coverage
 * of an origin no factor was fitted on is what a forecast's user gets, so its distance from
 * nominal is the measure that variants are compared by.
 */
export function leftOutCoverages(
  origins: readonly (readonly CalibrationCase[])[],
  exponent: number,
  level: Level,
  z: number,
): number[] {
  return origins.map((cases, i) => {
    const factor = pooledFactor(
      origins.filter((_, k) => k !== i),
      exponent,
      level,
      z,
    );
    return scoreBands(cases, exponent, factor * z, level).coverage;
  });
}
