import { readFileSync } from 'node:fs';
import { CONTINUOUS_MODELS } from '../candidates';
import {
  coverage,
  formatTable,
  scoreHoldout,
  splitHoldout,
  type HoldoutCase,
  type HoldoutSplit,
} from '../evaluation';
import type { ForecastTuning } from '../forecast-series';
import { parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { parseArgs, positiveNumber, progressReporter } from './args';

/**
 * npm run forecast:eval [-- --input FILE --horizon 13 --season-length 52 --split test|dev --tuning JSON]
 * Holds out each series' last `horizon` values (two horizons back with --split dev), forecasts
 * from the rest and prints sMAPE, MASE and OWA per model and for the ensemble. `--tuning` overrides
 * fields of DEFAULT_TUNING (e.g. '{"windows":[156]}') to compare variants on the dev split.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'horizon',
    'season-length',
    'split',
    'concurrency',
    'tuning',
  ]);
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  const seasonLength = positiveNumber(args, 'season-length', 52);
  const split = (args.get('split') ?? 'test') as HoldoutSplit;
  if (split !== 'test' && split !== 'dev') throw new Error('--split must be test or dev');
  const concurrency = args.has('concurrency') ? Math.round(positiveNumber(args, 'concurrency')) : undefined;

  const tuning = JSON.parse(args.get('tuning') ?? '{}') as Partial<ForecastTuning>;
  const series = parseM4Csv(readFileSync(input, 'utf8')).map((s) => splitHoldout(s.values, horizon, split));
  const started = performance.now();
  const forecasts = await forecastMany(
    series.map((s) => s.train),
    {
      horizon,
      seasonLength,
      concurrency,
      tuning: { reportModels: CONTINUOUS_MODELS, ...tuning },
      onProgress: progressReporter('evaluate'),
    },
  );
  const seconds = (performance.now() - started) / 1000;

  const cases: HoldoutCase[] = series.map((s, i) => {
    const result = forecasts[i]!;
    const methods = new Map<string, number[]>([['naive', result.naive]]);
    for (const member of result.members) methods.set(member.model, member.mean);
    methods.set('ensemble', result.ensemble);
    return { train: s.train, actual: s.actual, forecasts: methods };
  });
  const rows = scoreHoldout(cases).map((r) => [
    r.method,
    r.smape.toFixed(3),
    r.mase.toFixed(3),
    r.owa.toFixed(3),
  ]);
  const actuals = series.map((s) => s.actual);
  const cover80 = coverage(
    actuals,
    forecasts.map((f) => f.lower80),
    forecasts.map((f) => f.upper80),
  );
  const cover95 = coverage(
    actuals,
    forecasts.map((f) => f.lower95),
    forecasts.map((f) => f.upper95),
  );
  const chosen = new Map<string, number>();
  for (const f of forecasts) chosen.set(f.model, (chosen.get(f.model) ?? 0) + 1);

  console.log(`${series.length} series, horizon ${horizon}, split ${split}, ${seconds.toFixed(1)} s\n`);
  console.log(formatTable(['method', 'sMAPE', 'MASE', 'OWA'], rows));
  console.log(`\nensemble interval coverage: 80% → ${cover80.toFixed(1)}%, 95% → ${cover95.toFixed(1)}%`);
  console.log('ensemble configurations chosen:');
  for (const [model, count] of [...chosen.entries()].sort((a, b) => b[1] - a[1]))
    console.log(`  ${count}× ${model}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`evaluate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
