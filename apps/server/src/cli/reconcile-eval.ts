import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  RECONCILIATION_METHODS,
  evaluateReconciliation,
  m4Hierarchy,
  parseM4Csv,
  type LevelScore,
  type ReconciliationMethod,
} from '@ps/forecast';
import { DEFAULT_SEED } from '../seed/seed-demo-data';
import { generateProductWeeks, planDemoProducts, type DemoOptions } from '../seed/generate-demo-data';

const USAGE = `Usage: npm run forecast:reconcile-eval -- [--products N] [--seed S] [--origins K] [--m4 FILE]
       [--save FILE] [--load FILE ...] [--design-only]
Forecasts every node of the demo hierarchy (total, business unit, family, product) from its own
sales history at K rolling origins 13 weeks apart (default 6; the first only gives MinT its errors),
reconciles with each method and prints the mean MASE and sMAPE per level. The older half of the
origins after the first are design origins, the rest reported. 'per-level' is what a product
forecast run does (a method per level per business unit, chosen on the engine's inner hold-out);
'run-mint-wls' and 'run-mint-wls-bt' are MinT-WLS at both levels in the run's form (W from the
MASE scale, or from the back-test errors). The rule's table (docs/forecasting.md, "The
reconciliation method, decided by the rolling-origin rule") compares the run's candidates.
With --m4, the M4 weekly training file instead, grouped by m4Hierarchy: the series of at least
260 weeks cut to their last 260, dealt with a fixed seed into 6 units of 4 families.
--save writes the scores to FILE; --load (repeatable) prints saved scores instead of computing,
the rule's table over every loaded data set; --design-only leaves the reported origins out.`;

const HORIZON = 13;
/** M4 weekly series kept (and cut to) this length: five years, for six origins after a year of training. */
const M4_WEEKS = 260;
/** The M4 grouping's seed: fixed, so every run groups the series alike. */
const M4_SEED = 35;
const LEVELS = ['total', 'business unit', 'family', 'product'];

/** One data set's scores, as --save writes them. */
type SavedScores = { name: string; summary: string; design: number[]; scores: LevelScore[] };

/** The rule's candidates, simplest first (ties go to the simpler); the incumbent is what runs do. */
const CANDIDATES: readonly ReconciliationMethod[] = [
  'bottom-up',
  'run-mint-wls',
  'run-mint-wls-bt',
  'per-level',
];
const INCUMBENT: ReconciliationMethod = 'per-level';
/** A change must lower the mean ratio to the incumbent below this on the design origins. */
const CHANGE_THRESHOLD = 0.995;
/** Candidates this close in mean ratio tie; the simpler wins. */
const TIE = 0.001;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      products: { type: 'string' },
      seed: { type: 'string' },
      origins: { type: 'string' },
      m4: { type: 'string' },
      save: { type: 'string' },
      load: { type: 'string', multiple: true },
      'design-only': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const designOnly = values['design-only'] === true;
  if (values.load && values.load.length > 0) {
    const sets = values.load.map((file) => JSON.parse(readFileSync(file, 'utf8')) as SavedScores);
    for (const set of sets) printSet(set, designOnly);
    printRule(sets, designOnly);
    return;
  }
  const count = (name: string, text: string | undefined, fallback: number): number => {
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`--${name} must be a whole number of at least 1`);
    return value;
  };
  const origins = count('origins', values.origins, 6);
  const { paths, series } = values.m4 ? m4Input(values.m4) : demoInput(count, values);
  const started = performance.now();
  const scores = await evaluateReconciliation(
    { paths, series, levels: LEVELS },
    { horizon: HORIZON, origins, seasonLength: 52.18, minTrain: 52 },
  );
  const set: SavedScores = {
    name: values.m4 ? 'M4 weekly' : 'demo',
    summary:
      `${series.length} series, ${new Set(paths.map((p) => p[1])).size} business units, ` +
      `${new Set(paths.map((p) => p[2])).size} families, ${series[0]!.length} weeks; ${origins} origins in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
    design: Array.from({ length: Math.ceil((origins - 1) / 2) }, (_, i) => i + 2),
    scores,
  };
  if (values.save) writeFileSync(values.save, JSON.stringify(set));
  printSet(set, designOnly);
  printRule([set], designOnly);
}

/** Mean over the four levels (each counting once) of the level's mean MASE over a group's origins. */
function overall(set: SavedScores, method: ReconciliationMethod, inDesign: boolean): number {
  const rows = set.scores.filter((s) => s.method === method && set.design.includes(s.origin) === inDesign);
  return LEVELS.reduce((t, level) => {
    const at = rows.filter((s) => s.level === level);
    return t + at.reduce((u, s) => u + s.mase, 0) / Math.max(1, at.length) / LEVELS.length;
  }, 0);
}

function printSet(set: SavedScores, designOnly: boolean): void {
  console.log(`\n# ${set.name}: ${set.summary}`);
  const mean = (rows: LevelScore[], pick: (s: LevelScore) => number): string =>
    rows.length === 0 ? '—' : (rows.reduce((t, s) => t + pick(s), 0) / rows.length).toFixed(3);
  const reported = (text: string): string => (designOnly ? '' : ` | ${text}`);
  console.log(`\nmean MASE over the four levels, design${designOnly ? '' : ' | reported'}:`);
  for (const method of RECONCILIATION_METHODS)
    console.log(
      `  ${method.padEnd(16)} ${overall(set, method, true).toFixed(3)}${reported(overall(set, method, false).toFixed(3))}`,
    );
  for (const level of LEVELS) {
    console.log(
      `\n${level}: mean MASE (sMAPE), design origins ${set.design.join(', ')}${designOnly ? '' : ' | reported'}`,
    );
    for (const method of RECONCILIATION_METHODS) {
      const rows = set.scores.filter((s) => s.level === level && s.method === method);
      const d = rows.filter((s) => set.design.includes(s.origin));
      const r = rows.filter((s) => !set.design.includes(s.origin));
      console.log(
        `  ${method.padEnd(16)} ${mean(d, (s) => s.mase)} (${mean(d, (s) => s.smape)})` +
          reported(`${mean(r, (s) => s.mase)} (${mean(r, (s) => s.smape)})`),
      );
    }
  }
}

/**
 * The rule: each candidate's score over the data sets relative to the incumbent's, the decision on
 * the design origins, then (unless design only) the reported origins and whether the change is kept.
 */
function printRule(sets: readonly SavedScores[], designOnly: boolean): void {
  const ratio = (method: ReconciliationMethod, inDesign: boolean): number =>
    sets.reduce((t, set) => t + overall(set, method, inDesign) / overall(set, INCUMBENT, inDesign), 0) /
    sets.length;
  console.log(
    `\nthe rule (${sets.map((s) => s.name).join(' and ')}): four-level mean MASE, and its ratio to ` +
      `${INCUMBENT}'s averaged over the data sets`,
  );
  for (const inDesign of designOnly ? [true] : [true, false]) {
    console.log(`  ${inDesign ? 'design' : 'reported'} origins:`);
    for (const method of CANDIDATES)
      console.log(
        `    ${method.padEnd(16)} ${sets.map((set) => `${set.name} ${overall(set, method, inDesign).toFixed(4)}`).join(', ')}; ` +
          `mean ratio ${ratio(method, inDesign).toFixed(4)}`,
      );
  }
  const best = Math.min(...CANDIDATES.map((m) => ratio(m, true)));
  const winner = CANDIDATES.find((m) => ratio(m, true) <= best + TIE)!;
  const decided = winner !== INCUMBENT && ratio(winner, true) < CHANGE_THRESHOLD ? winner : INCUMBENT;
  console.log(
    `decided on the design origins: ${decided}` +
      (decided === INCUMBENT ? ' (no candidate gains 0.5 %)' : ` (gain ${gain(ratio(decided, true))})`),
  );
  if (designOnly) return;
  let kept = decided;
  if (decided !== INCUMBENT) {
    const reportedRatio = ratio(decided, false);
    if (!(reportedRatio < 1)) kept = INCUMBENT;
    console.log(
      `reported once: ${decided} against ${INCUMBENT}, gain ${gain(reportedRatio)} → ` +
        (kept === decided
          ? `${decided} kept (gains on both)`
          : `${INCUMBENT} stays (no gain on the reported origins)`),
    );
  }
  if (kept === 'bottom-up') {
    console.log('kept: bottom-up (the products as the engine made them, every level their sum)');
    return;
  }
  // What the kept method gains over no reconciliation at all, per group (rule 3 of the rolling origins).
  const overBottomUp = (inDesign: boolean): number =>
    sets.reduce((t, set) => t + overall(set, kept, inDesign) / overall(set, 'bottom-up', inDesign), 0) /
    sets.length;
  console.log(
    `kept: ${kept}; its gain over bottom-up, mean over the data sets: design ${gain(overBottomUp(true))}, ` +
      `reported ${gain(overBottomUp(false))}`,
  );
}

const gain = (ratio: number): string => `${((1 - ratio) * 100).toFixed(2)} %`;

/** The demo data's hierarchy: client and business unit, family, product. */
function demoInput(
  count: (name: string, text: string | undefined, fallback: number) => number,
  values: { products?: string; seed?: string },
): { paths: string[][]; series: number[][] } {
  const options: DemoOptions = {
    products: count('products', values.products, 300),
    weeks: 26,
    seed: count('seed', values.seed, DEFAULT_SEED),
    anchor: new Date('2026-11-15T00:00:00Z'),
  };
  const products = planDemoProducts(options);
  return {
    series: products.map((p, i) => generateProductWeeks(p, i, options).history.map((h) => h.units)),
    paths: products.map((p) => ['total', `${p.client_id}/${p.bu}`, `${p.client_id}/${p.bu}/${p.pf}`]),
  };
}

function m4Input(file: string): { paths: string[][]; series: number[][] } {
  return m4Hierarchy(parseM4Csv(readFileSync(file, 'utf8')), {
    weeks: M4_WEEKS,
    units: 6,
    familiesPerUnit: 4,
    seed: M4_SEED,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`reconcile-eval: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
