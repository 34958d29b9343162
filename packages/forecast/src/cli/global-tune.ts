import { readFileSync } from 'node:fs';
import { softmaxWeights } from '../ensemble';
import { formatTable, rollingOrigins, type HoldoutCase, type OriginSplit } from '../evaluation';
import { GLOBAL_MEMBER, type SeriesForecast } from '../forecast-series';
import { DEFAULT_GLOBAL_MEMBER, globalMemberPaths, type GlobalMemberTuning } from '../global/global-member';
import { parseM4Csv } from '../m4-csv';
import { trainGlobalMany } from '../pool';
import { recombine, scoreOrigins, withExternalMember, type OriginCase } from '../rolling-origin';
import { parseArgs, positiveNumber } from './args';

/**
 * npm run forecast:global-tune -- --load FILE [--input FILE --horizon 13 --origins 12 --design 8
 *   --min-train 52 --concurrency N]
 *
 * Chooses the learned global member's hyper-parameters on the design origins only, from the
 * statistical engine's forecasts saved by `npm run forecast:eval -- --save FILE` (run with the
 * member off). The rule, written down before any figure was computed:
 *
 * 1. Fixed, not tuned: learning rate 0.1, leaves of at least 20 rows, 32 bins, half the rows per
 *    tree, the newest 40 origins of each series 2 weeks apart, the features of global/windows.ts.
 * 2. Candidates (trees × depth): 50 × 3, 100 × 4, 150 × 5 — all within the speed budget.
 * 3. For each candidate and each design origin, the member is trained on that origin's training
 *    parts only and joins each series' weighting by its inner-hold-out sMAPE; the candidate with
 *    the lowest mean ensemble OWA over the design origins wins; within 0.0005 of the best, the
 *    cheapest (fewest trees × depth) wins.
 * 4. Only the winner is then scored on the reported origins, once. The member enters the default
 *    engine only if its ensemble gains over the engine without it on the design AND the reported
 *    origins.
 */
const CANDIDATES: { trees: number; depth: number }[] = [
  { trees: 50, depth: 3 },
  { trees: 100, depth: 4 },
  { trees: 150, depth: 5 },
];
const TIE = 0.0005;

type SavedRun = { origins: { origin: number; forecasts: SeriesForecast[] }[] };

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), [
    'input',
    'load',
    'horizon',
    'origins',
    'design',
    'min-train',
    'concurrency',
  ]);
  const input = args.get('input') ?? '../shared/data/m4-weekly-train.csv';
  const loadPath = args.get('load');
  if (!loadPath) throw new Error('--load FILE is required (a run saved by forecast:eval --save)');
  const horizon = Math.round(positiveNumber(args, 'horizon', 13));
  const originCount = Math.round(positiveNumber(args, 'origins', 12));
  const designCount = Math.round(positiveNumber(args, 'design', 8));
  const minTrain = Math.round(positiveNumber(args, 'min-train', 52));
  const threads = args.has('concurrency') ? Math.round(positiveNumber(args, 'concurrency')) : undefined;

  const data = parseM4Csv(readFileSync(input, 'utf8'));
  const splits = data.map((s) =>
    rollingOrigins(s.values, { horizon, origins: originCount, step: horizon, minTrain }),
  );
  const saved = JSON.parse(readFileSync(loadPath, 'utf8')) as SavedRun;
  const byOrigin = new Map<number, OriginCase[]>();
  for (const o of saved.origins) {
    const at = splits.map((s) => s[o.origin - 1]).filter((s): s is OriginSplit => s !== null);
    if (at.length !== o.forecasts.length)
      throw new Error(`origin ${o.origin}: saved run does not match --input`);
    byOrigin.set(
      o.origin,
      at.map((s, i) => ({ ...s, forecast: o.forecasts[i]! })),
    );
  }
  const origins = Array.from({ length: originCount }, (_, i) => i + 1);
  const design = origins.slice(0, designCount);
  const reported = origins.slice(designCount);

  /** Ensemble OWA with and without the member, per group of origins, and its mean weight. */
  const score = async (tuning: GlobalMemberTuning, group: readonly number[]) => {
    const cases = new Map<number, HoldoutCase[]>();
    let weight = 0;
    let count = 0;
    let seconds = 0;
    for (const origin of group) {
      const list = byOrigin.get(origin) ?? [];
      const started = performance.now();
      const models = await trainGlobalMany(
        list.map((c) => c.train),
        horizon,
        tuning,
        { threads },
      );
      seconds += (performance.now() - started) / 1000;
      cases.set(
        origin,
        list.map((c) => {
          const nonNegative = c.train.every((v) => v >= 0);
          const forecast = withExternalMember(c.forecast, c.train, globalMemberPaths(c.train, models));
          const withMember = recombine(forecast, nonNegative, { name: 'with' }, []);
          const kept = forecast.members.filter((m) => m.weight > 0 || m.innerSmape !== null);
          const index = kept.findIndex((m) => m.model === GLOBAL_MEMBER);
          if (index >= 0) weight += softmaxWeights(kept.map((m) => m.innerSmape!))[index]!;
          count++;
          return {
            train: c.train,
            actual: c.actual,
            forecasts: new Map([
              ['naive', c.forecast.naive],
              ['without', c.forecast.ensemble],
              ['with', withMember],
            ]),
          };
        }),
      );
    }
    const scores = scoreOrigins(cases, group);
    const owa = (method: string): number => scores.find((s) => s.method === method)!.owa;
    return { with: owa('with'), without: owa('without'), weight: weight / count, seconds };
  };

  const rows: string[][] = [];
  const results: { tuning: GlobalMemberTuning; owa: number; cost: number }[] = [];
  for (const candidate of CANDIDATES) {
    const tuning: GlobalMemberTuning = {
      ...DEFAULT_GLOBAL_MEMBER,
      params: { ...DEFAULT_GLOBAL_MEMBER.params, ...candidate },
    };
    const s = await score(tuning, design);
    results.push({ tuning, owa: s.with, cost: candidate.trees * candidate.depth });
    rows.push([
      `${candidate.trees} trees × depth ${candidate.depth}`,
      s.with.toFixed(4),
      s.without.toFixed(4),
      signed(s.without - s.with),
      s.weight.toFixed(3),
      s.seconds.toFixed(1),
    ]);
  }
  const best = Math.min(...results.map((r) => r.owa));
  const winner = results.filter((r) => r.owa <= best + TIE).sort((a, b) => a.cost - b.cost)[0]!;
  console.log('design origins: ensemble OWA with the member (each candidate) and without it\n');
  console.log(
    formatTable(['candidate', 'design with', 'without', 'gain', 'member weight', 'training s (wall)'], rows),
  );
  const p = winner.tuning.params;
  console.log(`\nchosen by the rule: ${p.trees} trees × depth ${p.depth}`);
  const r = await score(winner.tuning, reported);
  const d = results.find((x) => x === winner)!;
  console.log(
    formatTable(
      ['chosen', 'design with', 'reported with', 'reported without', 'reported gain', 'member weight'],
      [
        [
          `${p.trees} × ${p.depth}`,
          d.owa.toFixed(4),
          r.with.toFixed(4),
          r.without.toFixed(4),
          signed(r.without - r.with),
          r.weight.toFixed(3),
        ],
      ],
    ),
  );
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`global-tune: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
