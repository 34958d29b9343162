import { readFileSync } from 'node:fs';
import { intervalScaleFor, splitOrigin } from '../evaluation';
import { parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { Z_80, Z_95 } from '../stats';
import { parseArgs, positiveNumber, progressReporter } from './args';

/** Origins of the design set: the dev split (1) and the four 13-week windows before it. */
const DESIGN_ORIGINS = [1, 2, 3, 4, 5];
/** A series needs a year of training weeks at an origin to be scored there. */
const MIN_TRAIN = 52;

/**
 * npm run forecast:calibrate [-- --input FILE --horizon 13 --season-length 52.18]
 * Derives `intervalScale80` and `intervalScale95` from the design origins only: forecasts every
 * continuous series at each origin with unscaled spreads, pools |error| / spread over all five
 * origins and prints, per level, the factor that covers the nominal share of them, with each
 * origin's own factor and the coverage the pooled factor gives there. The scored test weeks are
 * never forecast.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), ['input', 'horizon', 'season-length']);
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  const seasonLength = positiveNumber(args, 'season-length', 52.18);
  const data = parseM4Csv(readFileSync(input, 'utf8'));

  const perOrigin: { origin: number; ratios: number[] }[] = [];
  for (const origin of DESIGN_ORIGINS) {
    const cases = data
      .map((s) => splitOrigin(s.values, horizon, origin))
      .filter((c) => c.train.length >= MIN_TRAIN);
    const forecasts = await forecastMany(
      cases.map((c) => c.train),
      {
        horizon,
        seasonLength,
        tuning: { intervalScale80: 1, intervalScale95: 1 },
        onProgress: progressReporter(`origin ${origin}`),
      },
    );
    const ratios: number[] = [];
    forecasts.forEach((f, i) => {
      // Intermittent series keep their own model's spread; the factors are for the combination.
      if (f.demandClass === 'intermittent' || f.demandClass === 'lumpy') return;
      cases[i]!.actual.forEach((y, j) => {
        // The upper bound is never clipped: (upper95 − mean) / z95 is the spread itself.
        const spread = (f.upper95[j]! - f.ensemble[j]!) / Z_95;
        if (spread > 0 && f.ensemble[j]! > 0) ratios.push(Math.abs(y - f.ensemble[j]!) / spread);
      });
    });
    perOrigin.push({ origin, ratios });
  }
  const pooled = perOrigin.flatMap((o) => o.ratios);
  for (const [level, z] of [
    [0.8, Z_80],
    [0.95, Z_95],
  ] as const) {
    const scale = intervalScaleFor(pooled, level, z);
    console.log(`\n${level * 100}% interval: pooled factor ${scale.toFixed(3)} over ${pooled.length} errors`);
    for (const { origin, ratios } of perOrigin) {
      const covered = ratios.filter((r) => r <= scale * z).length;
      console.log(
        `  origin ${origin}: own factor ${intervalScaleFor(ratios, level, z).toFixed(3)}, ` +
          `coverage with the pooled factor ${((100 * covered) / ratios.length).toFixed(1)}% (${ratios.length} errors)`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`calibrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
