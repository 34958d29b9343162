import { readFileSync, writeFileSync } from 'node:fs';
import { formatM4Csv, parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { parseArgs, positiveNumber, progressReporter } from './args';

/**
 * npm run forecast -- --input TRAIN.csv --horizon H --season-length M --output OUT.csv
 * Reads M4-format series, forecasts each with the ensemble on all cores, writes M4-format output.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'output',
    'horizon',
    'season-length',
    'concurrency',
  ]);
  const input = args.get('input');
  const output = args.get('output');
  if (!input || !output)
    throw new Error('Usage: forecast --input TRAIN.csv --horizon H --season-length M --output OUT.csv');
  const horizon = Math.round(positiveNumber(args, 'horizon'));
  const seasonLength = positiveNumber(args, 'season-length', 1);
  const concurrency = args.has('concurrency') ? Math.round(positiveNumber(args, 'concurrency')) : undefined;

  const series = parseM4Csv(readFileSync(input, 'utf8'));
  const started = performance.now();
  const forecasts = await forecastMany(
    series.map((s) => s.values),
    { horizon, seasonLength, concurrency, onProgress: progressReporter('forecast') },
  );
  writeFileSync(output, formatM4Csv(series.map((s, i) => ({ id: s.id, values: forecasts[i]!.ensemble }))));
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `forecast: ${series.length} series, horizon ${horizon}, in ${seconds.toFixed(1)} s → ${output}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`forecast: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
