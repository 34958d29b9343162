import { readFileSync } from 'node:fs';
import { splitOrigin } from '../evaluation';
import { DEFAULT_TUNING } from '../forecast-series';
import { leftOutCoverages, pooledFactor, scoreBands, type CalibrationCase } from '../interval-calibration';
import { recentVolatilityRatio } from '../intervals';
import { parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { Z_80, Z_95 } from '../stats';
import { parseArgs, positiveNumber, progressReporter, tuningArg } from './args';

/**
 * Origins of the design set: the dev split (1) and the nine 13-week windows before it. Ten
 * windows rather than five, because the coverage of one rule moves by about 3.4 points from window
 * to window: a factor from five windows followed the five.
 */
const DESIGN_ORIGINS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** Older windows, scored with the design factor only: never used for a choice. */
const DEFAULT_CHECK_ORIGINS = '11,12,13';
/** The recent-volatility exponents compared by default; the tuning's own is added. */
const DEFAULT_EXPONENTS = '0,0.1,0.2,0.3,0.4,0.5';
/** A series needs a year of training weeks at an origin to be scored there. */
const MIN_TRAIN = 52;
/** The ±3-point band around nominal that calibration asks of each hold-out. */
const BAND_POINTS = 3;

/**
 * npm run forecast:calibrate [-- --input FILE --horizon 13 --season-length 52.18
 *   --tuning JSON --check-origins 11,12,13 --exponents 0,0.1,0.2,0.3,0.4,0.5]
 * Derives `intervalScale80` and `intervalScale95` from the design origins only. Every series is
 * forecast once per origin with the raw combined spread; for each recent-volatility exponent it
 * pools |error| / adjusted spread of the continuous series over the ten design origins and prints,
 * per level, the factor that covers the nominal share of them, the coverage that factor gives each
 * design origin, the coverage of each origin with a factor calibrated on the other nine (leave one
 * out), how far those are from nominal on average and how many fall within ±3 points, the mean
 * MSIS, and the coverage and MSIS of the check origins. The scored test weeks (origin 0) are never
 * forecast.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'horizon',
    'season-length',
    'tuning',
    'check-origins',
    'exponents',
  ]);
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  const seasonLength = positiveNumber(args, 'season-length', 52.18);
  const tuning = tuningArg(args);
  const adjustment = tuning.intervalSpread ?? DEFAULT_TUNING.intervalSpread;
  const checkOrigins = parseOrigins(args.get('check-origins') ?? DEFAULT_CHECK_ORIGINS);
  const exponents = [
    ...new Set([...parseExponents(args.get('exponents') ?? DEFAULT_EXPONENTS), adjustment.exponent]),
  ].sort((a, b) => a - b);
  const data = parseM4Csv(readFileSync(input, 'utf8'));

  const byOrigin = new Map<number, CalibrationCase[]>();
  for (const origin of [...DESIGN_ORIGINS, ...checkOrigins]) {
    const cases = data
      .map((s) => splitOrigin(s.values, horizon, origin))
      .filter((c) => c.train.length >= MIN_TRAIN);
    const forecasts = await forecastMany(
      cases.map((c) => c.train),
      {
        horizon,
        seasonLength,
        tuning: {
          ...tuning,
          intervalScale80: 1,
          intervalScale95: 1,
          intervalSpread: { ...adjustment, exponent: 0 },
        },
        onProgress: progressReporter(`origin ${origin}`),
      },
    );
    byOrigin.set(
      origin,
      forecasts.map((f, i) => {
        const { train, actual } = cases[i]!;
        const isIntermittent = f.demandClass === 'intermittent' || f.demandClass === 'lumpy';
        return {
          train,
          actual,
          mean: f.ensemble,
          // The upper bound is clipped only where the whole band is below 0: (upper95 − mean) / z95
          // is the spread itself.
          spread: isIntermittent ? null : f.upper95.map((u, j) => (u - f.ensemble[j]!) / Z_95),
          volatilityRatio: recentVolatilityRatio(train, adjustment.recentPeriods),
          isNonNegative: train.every((v) => v >= 0),
          own: { '80': { lower: f.lower80, upper: f.upper80 }, '95': { lower: f.lower95, upper: f.upper95 } },
        };
      }),
    );
  }

  const design = DESIGN_ORIGINS.map((o) => byOrigin.get(o)!);
  const checks = checkOrigins.map((o) => byOrigin.get(o)!);
  const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const percents = (xs: readonly number[]): string => xs.map((x) => x.toFixed(1)).join(' / ');
  for (const [level, z] of [
    [0.8, Z_80],
    [0.95, Z_95],
  ] as const) {
    const nominal = 100 * level;
    const inBand = (xs: readonly number[]): number =>
      xs.filter((x) => Math.abs(x - nominal) <= BAND_POINTS).length;
    console.log(
      `\n${nominal}% interval; design origins ${DESIGN_ORIGINS.join(',')}` +
        `${checkOrigins.length ? `, check origins ${checkOrigins.join(',')}` : ''}`,
    );
    for (const exponent of exponents) {
      const factor = pooledFactor(design, exponent, level, z);
      const pooled = design.map((cases) => scoreBands(cases, exponent, factor * z, level));
      const leftOut = leftOutCoverages(design, exponent, level, z);
      const checked = checks.map((cases) => scoreBands(cases, exponent, factor * z, level));
      const marker = exponent === adjustment.exponent ? ' (tuning)' : '';
      console.log(
        `  exponent ${exponent}${marker}: factor ${factor.toFixed(3)}; coverage ${percents(pooled.map((s) => s.coverage))}; ` +
          `left out ${percents(leftOut)}, mean |left out − ${nominal}| ${mean(leftOut.map((c) => Math.abs(c - nominal))).toFixed(2)}, ` +
          `${inBand(leftOut)}/${leftOut.length} within ±${BAND_POINTS}; MSIS ${mean(pooled.map((s) => s.msis)).toFixed(2)}` +
          (checked.length
            ? `; check ${percents(checked.map((s) => s.coverage))}, MSIS ${mean(checked.map((s) => s.msis)).toFixed(2)}`
            : ''),
      );
    }
  }
}

function parseExponents(text: string): number[] {
  return text.split(',').map((part) => {
    const exponent = Number(part);
    if (part.trim() === '' || !Number.isFinite(exponent) || exponent < 0)
      throw new Error(`--exponents takes non-negative numbers, got "${part}"`);
    return exponent;
  });
}

function parseOrigins(text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const origin = Number(part);
    if (!Number.isInteger(origin) || origin <= DESIGN_ORIGINS.length)
      throw new Error(
        `--check-origins takes origins after the design set (${DESIGN_ORIGINS.length + 1}, …), got "${part}"`,
      );
    return origin;
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`calibrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
