import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { ContinuousModel } from '../candidates';
import { formatTable, scoreHoldout, splitOrigin, type HoldoutCase } from '../evaluation';
import type { ForecastTuning, SeriesForecast } from '../forecast-series';
import { parseM4Csv } from '../m4-csv';
import { forecastMany } from '../pool';
import { parseArgs, progressReporter } from './args';

/**
 * node --import tsx packages/forecast/src/cli/compare-members.ts [--members a,b,c --origins 1,2,3,4,5
 *   --cache DIR --input FILE --variants JSON]
 *
 * Compares member lists of the ensemble on the design origins (1 = the dev split, 2–5 the 13-week
 * windows before it; never the scored test weeks). Each origin is forecast once with every member
 * in `--members`; the configurations' weights w_i = exp(−(s_i − s_min)/s_min) give back each one's
 * inner-hold-out error relative to the best, s_i / s_min = 1 − ln(w_i / w_max), so the ensemble of
 * any subset of members is re-weighted exactly as the engine would, without refitting. Prints the
 * OWA of every variant per origin and the mean, and the CPU seconds of each origin's run.
 */
/** Members fitted on the last 156 weeks only: each costs several times the current members. */
const RECENT_ONLY: readonly string[] = ['arima', 'arima-log', 'adida', 'mapa'];

type Variant = { name: string; members: readonly string[]; windows?: readonly (number | null)[] };

const DEFAULT_VARIANTS: Variant[] = [
  { name: 'ets-log, ces, dotm-log (current)', members: ['ets-log', 'ces', 'dotm-log'] },
  { name: '+ arima', members: ['ets-log', 'ces', 'dotm-log', 'arima'] },
  { name: '+ adida', members: ['ets-log', 'ces', 'dotm-log', 'adida'] },
  { name: '+ mapa', members: ['ets-log', 'ces', 'dotm-log', 'mapa'] },
  { name: '+ arima, mapa', members: ['ets-log', 'ces', 'dotm-log', 'arima', 'mapa'] },
  { name: '+ arima, adida, mapa', members: ['ets-log', 'ces', 'dotm-log', 'arima', 'adida', 'mapa'] },
  { name: '+ arima-log', members: ['ets-log', 'ces', 'dotm-log', 'arima-log'] },
  { name: '+ arima, arima-log', members: ['ets-log', 'ces', 'dotm-log', 'arima', 'arima-log'] },
  { name: 'arima alone', members: ['arima'] },
  { name: 'arima-log alone', members: ['arima-log'] },
  { name: 'adida alone', members: ['adida'] },
  { name: 'mapa alone', members: ['mapa'] },
  { name: 'ets-log alone on the last 156', members: ['ets-log'], windows: [156] },
];

type Cached = {
  seconds: number;
  cpuSeconds: number;
  results: SeriesForecast[];
  cases: { train: number[]; actual: number[] }[];
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), ['members', 'origins', 'cache', 'input', 'variants']);
  const members = (args.get('members') ?? 'ets-log,ces,dotm-log,arima,arima-log,adida,mapa').split(
    ',',
  ) as ContinuousModel[];
  const origins = (args.get('origins') ?? '1,2,3,4,5').split(',').map(Number);
  if (origins.some((o) => !Number.isInteger(o) || o < 1))
    throw new Error('--origins are design origins, 1 or more');
  const cacheDir = args.get('cache') ?? '/tmp/compare-members';
  const variants = args.has('variants') ? (JSON.parse(args.get('variants')!) as Variant[]) : DEFAULT_VARIANTS;
  const data = parseM4Csv(readFileSync(args.get('input') ?? '../shared/data/m4-weekly-train.csv', 'utf8'));
  mkdirSync(cacheDir, { recursive: true });
  const horizon = 13;

  const owas = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const times: string[] = [];
  for (const origin of origins) {
    const file = join(cacheDir, `origin-${origin}-${members.join('+')}.json`);
    let cached: Cached;
    if (existsSync(file)) cached = JSON.parse(readFileSync(file, 'utf8')) as Cached;
    else {
      // Origins past 1 skip series left with fewer than 52 weeks, as the design set does.
      const cases = data
        .map((s) => splitOrigin(s.values, horizon, origin))
        .filter((c) => origin === 1 || c.train.length >= 52);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const memberWindows = Object.fromEntries(
        members.filter((m) => RECENT_ONLY.includes(m)).map((m) => [m, [156]]),
      ) as ForecastTuning['memberWindows'];
      const results = await forecastMany(
        cases.map((c) => c.train),
        {
          horizon,
          seasonLength: 52.18,
          tuning: { members, memberWindows, reportModels: [] },
          onProgress: progressReporter(`origin ${origin}`),
        },
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      cached = { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, results, cases };
      writeFileSync(file, JSON.stringify(cached));
    }
    times.push(
      `origin ${origin}: ${cached.cases.length} series, wall ${cached.seconds.toFixed(1)} s, CPU ${cached.cpuSeconds.toFixed(1)} s`,
    );
    const holdout: HoldoutCase[] = cached.cases.map((c, i) => {
      const result = cached.results[i]!;
      const forecasts = new Map<string, number[]>([['naive', result.naive]]);
      for (const variant of variants) forecasts.set(variant.name, combine(result, variant));
      return { train: c.train, actual: c.actual, forecasts };
    });
    const rows = scoreHoldout(holdout);
    for (const variant of variants)
      owas.get(variant.name)!.push(rows.find((r) => r.method === variant.name)!.owa);
  }
  const header = ['variant', ...origins.map((o) => (o === 1 ? 'dev' : `b${o}`)), 'mean'];
  const table = variants.map((v) => {
    const values = owas.get(v.name)!;
    return [
      v.name,
      ...values.map((x) => x.toFixed(3)),
      (values.reduce((a, b) => a + b, 0) / values.length).toFixed(3),
    ];
  });
  console.log(formatTable(header, table));
  console.log(`\n${times.join('\n')}\n(${cpus().length} cores; CPU includes the worker threads)`);
}

/** The engine's weighted combination restricted to a variant's members (and windows). */
function combine(result: SeriesForecast, variant: Variant): number[] {
  if (result.demandClass === 'intermittent' || result.demandClass === 'lumpy') return result.ensemble;
  const maxWeight = Math.max(...result.members.map((m) => m.weight));
  const ofModel = result.members.filter((m) => variant.members.includes(m.model));
  let chosen = variant.windows ? ofModel.filter((m) => variant.windows!.includes(m.window)) : ofModel;
  // A series shorter than the window has it collapsed into "all".
  if (chosen.length === 0) chosen = ofModel.filter((m) => m.window === null);
  if (chosen.length === 0) return result.ensemble;
  const ratios = chosen.map((m) =>
    m.weight > 0 ? 1 - Math.log(m.weight / maxWeight) : Number.POSITIVE_INFINITY,
  );
  const best = Math.min(...ratios);
  const raw = ratios.map((r) => (Number.isFinite(r) ? Math.exp(-(r - best) / best) : 0));
  // No configuration of the variant was validated: equal weights, as softmaxWeights gives.
  if (!raw.some((w) => w > 0)) raw.fill(1);
  const total = raw.reduce((a, b) => a + b, 0);
  const horizon = result.ensemble.length;
  const path = new Array<number>(horizon).fill(0);
  chosen.forEach((m, i) => {
    for (let j = 0; j < horizon; j++) path[j] = path[j]! + (raw[i]! / total) * m.mean[j]!;
  });
  return path;
}

main().catch((error: unknown) => {
  process.stderr.write(`compare-members: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
