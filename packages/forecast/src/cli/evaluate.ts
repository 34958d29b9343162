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
import { DEFAULT_TUNING, type ForecastTuning } from '../forecast-series';
import { parseM4Csv } from '../m4-csv';
import { msis } from '../metrics';
import { forecastMany } from '../pool';
import { parseArgs, positiveNumber, progressReporter, tuningArg } from './args';

/**
 * npm run forecast:eval [-- --input FILE --horizon 13 --season-length 52.18 --split both|test|dev --tuning JSON]
 * Holds out each series' last `horizon` values (two horizons back with --split dev), forecasts
 * from the rest and prints sMAPE, MASE and OWA per model and for the ensemble, with the
 * ensemble's interval coverage and MSIS; both splits by default. `--tuning` overrides fields of
 * DEFAULT_TUNING (e.g. '{"windows":[156]}') to compare variants on the dev split.
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
  // Weeks in a year (365.25 / 7): the Fourier seasonal component keeps its phase across years.
  const seasonLength = positiveNumber(args, 'season-length', 52.18);
  const splitArg = args.get('split') ?? 'both';
  if (splitArg !== 'test' && splitArg !== 'dev' && splitArg !== 'both')
    throw new Error('--split must be both, test or dev');
  const splits: HoldoutSplit[] = splitArg === 'both' ? ['dev', 'test'] : [splitArg];
  const concurrency = args.has('concurrency') ? Math.round(positiveNumber(args, 'concurrency')) : undefined;
  // JSON has no Infinity: "all" stands for the whole history in `windows`.
  const tuning = tuningArg(args);
  const data = parseM4Csv(readFileSync(input, 'utf8'));
  for (const split of splits) {
    await evaluateSplit(
      data.map((s) => splitHoldout(s.values, horizon, split)),
      split,
      { horizon, seasonLength, concurrency, tuning },
    );
  }
}

async function evaluateSplit(
  series: { train: number[]; actual: number[] }[],
  split: HoldoutSplit,
  options: { horizon: number; seasonLength: number; concurrency?: number; tuning: Partial<ForecastTuning> },
): Promise<void> {
  const started = performance.now();
  const forecasts = await forecastMany(
    series.map((s) => s.train),
    {
      horizon: options.horizon,
      seasonLength: options.seasonLength,
      concurrency: options.concurrency,
      tuning: { reportModels: CONTINUOUS_MODELS, ...options.tuning },
      onProgress: progressReporter(`evaluate ${split}`),
    },
  );
  const seconds = (performance.now() - started) / 1000;

  const cases: HoldoutCase[] = series.map((s, i) => {
    const result = forecasts[i]!;
    const methods = new Map<string, number[]>([['naive', result.naive]]);
    // A model's own row: its fit on the window that carries the most weight for this series.
    const byWindow = new Map<number | null, number>();
    for (const m of result.members) byWindow.set(m.window, (byWindow.get(m.window) ?? 0) + m.weight);
    const top = [...byWindow.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    for (const member of result.members) if (member.window === top) methods.set(member.model, member.mean);
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
  const meanMsis = (alpha: number, lower: 'lower80' | 'lower95', upper: 'upper80' | 'upper95'): number =>
    series.reduce(
      (t, s, i) => t + msis(s.train, s.actual, forecasts[i]![lower], forecasts[i]![upper], alpha),
      0,
    ) / series.length;
  const fixedWindows = options.tuning.windows ?? DEFAULT_TUNING.windows;
  const weights = new Map<string, number>();
  for (const f of forecasts)
    for (const m of f.members) {
      const window =
        m.window === null
          ? 'all'
          : fixedWindows.includes(m.window)
            ? `last ${m.window}`
            : 'the weeks since a level shift';
      const key = `${m.model} on ${window}`;
      weights.set(key, (weights.get(key) ?? 0) + m.weight / forecasts.length);
    }

  console.log(
    `\n== split ${split}: ${series.length} series, horizon ${options.horizon}, ${seconds.toFixed(1)} s\n`,
  );
  console.log(formatTable(['method', 'sMAPE', 'MASE', 'OWA'], rows));
  console.log(
    `\nensemble intervals: 80% coverage ${cover80.toFixed(1)}% (MSIS ${meanMsis(0.2, 'lower80', 'upper80').toFixed(3)}), ` +
      `95% coverage ${cover95.toFixed(1)}% (MSIS ${meanMsis(0.05, 'lower95', 'upper95').toFixed(3)})`,
  );
  console.log('mean weight per configuration:');
  for (const [key, weight] of [...weights.entries()].filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1]))
    console.log(`  ${weight.toFixed(3)}  ${key}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`evaluate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
