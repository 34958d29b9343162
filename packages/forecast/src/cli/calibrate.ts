import { readFileSync } from 'node:fs';
import { intervalScaleFor, splitOrigin } from '../evaluation';
import { intervalBounds } from '../intervals';
import { parseM4Csv } from '../m4-csv';
import { msis } from '../metrics';
import { forecastMany } from '../pool';
import { Z_80, Z_95 } from '../stats';
import { parseArgs, positiveNumber, progressReporter, tuningArg } from './args';

/** Origins of the design set: the dev split (1) and the four 13-week windows before it. */
const DESIGN_ORIGINS = [1, 2, 3, 4, 5];
/** A series needs a year of training weeks at an origin to be scored there. */
const MIN_TRAIN = 52;

/** One series at one origin, forecast with unscaled intervals. */
type Scored = {
  train: readonly number[];
  actual: readonly number[];
  mean: readonly number[];
  /** The adjusted combined spread per step; null for intermittent series (their own bands stay). */
  spread: number[] | null;
  isNonNegative: boolean;
  own: Record<'80' | '95', { lower: number[]; upper: number[] }>;
};

/**
 * npm run forecast:calibrate [-- --input FILE --horizon 13 --season-length 52.18
 *   --tuning JSON --check-origins 6,7,8]
 * Derives `intervalScale80` and `intervalScale95` from the design origins only: forecasts every
 * series at each origin with unscaled factors (the spread adjustment of `intervalSpread` applied),
 * pools |error| / spread of the continuous series over all five origins and prints, per level, the
 * factor that covers the nominal share of them; then, per origin, its own factor, the coverage and
 * MSIS the pooled factor gives there and the coverage with a factor calibrated on the other four
 * origins only (leave one out). `--tuning` compares variants (e.g. the previous rule:
 * '{"intervalSpread":{"recentPeriods":13,"exponent":0}}'); `--check-origins` scores earlier
 * origins with the design factor. The scored test weeks (origin 0) are never forecast.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'horizon',
    'season-length',
    'tuning',
    'check-origins',
  ]);
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  const seasonLength = positiveNumber(args, 'season-length', 52.18);
  const tuning = tuningArg(args);
  const checkOrigins = parseOrigins(args.get('check-origins') ?? '');
  const data = parseM4Csv(readFileSync(input, 'utf8'));

  const byOrigin = new Map<number, Scored[]>();
  for (const origin of [...DESIGN_ORIGINS, ...checkOrigins]) {
    const cases = data
      .map((s) => splitOrigin(s.values, horizon, origin))
      .filter((c) => c.train.length >= MIN_TRAIN);
    const forecasts = await forecastMany(
      cases.map((c) => c.train),
      {
        horizon,
        seasonLength,
        tuning: { ...tuning, intervalScale80: 1, intervalScale95: 1 },
        onProgress: progressReporter(`origin ${origin}`),
      },
    );
    byOrigin.set(
      origin,
      forecasts.map((f, i) => {
        const isIntermittent = f.demandClass === 'intermittent' || f.demandClass === 'lumpy';
        return {
          train: cases[i]!.train,
          actual: cases[i]!.actual,
          mean: f.ensemble,
          // The upper bound is clipped only where the whole band is below 0: (upper95 − mean) / z95
          // is the spread itself.
          spread: isIntermittent ? null : f.upper95.map((u, j) => (u - f.ensemble[j]!) / Z_95),
          isNonNegative: cases[i]!.train.every((v) => v >= 0),
          own: { '80': { lower: f.lower80, upper: f.upper80 }, '95': { lower: f.lower95, upper: f.upper95 } },
        };
      }),
    );
  }

  for (const [level, z] of [
    [0.8, Z_80],
    [0.95, Z_95],
  ] as const) {
    const factorOver = (origins: readonly number[]): number =>
      intervalScaleFor(
        origins.flatMap((o) => ratios(byOrigin.get(o)!)),
        level,
        z,
      );
    const pooled = factorOver(DESIGN_ORIGINS);
    const count = DESIGN_ORIGINS.reduce((t, o) => t + ratios(byOrigin.get(o)!).length, 0);
    console.log(`\n${level * 100}% interval: pooled factor ${pooled.toFixed(3)} over ${count} errors`);
    const deviations: number[] = [];
    for (const origin of [...DESIGN_ORIGINS, ...checkOrigins]) {
      const scored = byOrigin.get(origin)!;
      const isDesign = DESIGN_ORIGINS.includes(origin);
      const withPooled = score(scored, pooled * z, level);
      let line =
        `  origin ${origin}${isDesign ? '' : ' (check)'}: own factor ` +
        `${intervalScaleFor(ratios(scored), level, z).toFixed(3)}, with the pooled factor coverage ` +
        `${withPooled.coverage.toFixed(1)}% MSIS ${withPooled.msis.toFixed(3)}`;
      if (isDesign) {
        const left = score(scored, factorOver(DESIGN_ORIGINS.filter((o) => o !== origin)) * z, level);
        deviations.push(Math.abs(left.coverage - 100 * level));
        line += `, left out ${left.coverage.toFixed(1)}%`;
      }
      console.log(line);
    }
    const meanDeviation = deviations.reduce((a, b) => a + b, 0) / deviations.length;
    console.log(`  mean |left-out coverage − ${level * 100}| = ${meanDeviation.toFixed(2)} points`);
  }
}

/** |error| / spread of the continuous series' steps with a positive spread and forecast. */
function ratios(scored: readonly Scored[]): number[] {
  const result: number[] = [];
  for (const s of scored) {
    if (!s.spread) continue;
    s.actual.forEach((y, j) => {
      if (s.spread![j]! > 0 && s.mean[j]! > 0) result.push(Math.abs(y - s.mean[j]!) / s.spread![j]!);
    });
  }
  return result;
}

/** Coverage (%) and mean MSIS of the bands mean ± zScaled·spread (intermittent: their own). */
function score(
  scored: readonly Scored[],
  zScaled: number,
  level: 0.8 | 0.95,
): { coverage: number; msis: number } {
  let inside = 0;
  let total = 0;
  let msisTotal = 0;
  for (const s of scored) {
    const band = s.spread
      ? intervalBounds(s.mean, s.spread, zScaled, s.isNonNegative)
      : s.own[level === 0.8 ? '80' : '95'];
    s.actual.forEach((y, j) => {
      total++;
      if (y >= band.lower[j]! && y <= band.upper[j]!) inside++;
    });
    msisTotal += msis(s.train, s.actual, band.lower, band.upper, 1 - level);
  }
  return { coverage: (100 * inside) / total, msis: msisTotal / scored.length };
}

function parseOrigins(text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const origin = Number(part);
    if (!Number.isInteger(origin) || origin <= DESIGN_ORIGINS.length)
      throw new Error(`--check-origins takes origins after the design set (6, 7, …), got "${part}"`);
    return origin;
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`calibrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
