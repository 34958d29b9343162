import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  RECONCILIATION_LEVELS,
  RECONCILIATION_METHODS,
  evaluateReconciliation,
  m4Hierarchy,
  parseM4Csv,
  levelMeanMase,
  reconciliationRuleLines,
  type LevelScore,
  type SavedReconciliationScores,
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
    const sets = values.load.map(
      (file) => JSON.parse(readFileSync(file, 'utf8')) as SavedReconciliationScores,
    );
    for (const set of sets) printSet(set, designOnly);
    for (const line of reconciliationRuleLines(sets, designOnly)) console.log(line);
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
    { paths, series, levels: [...RECONCILIATION_LEVELS] },
    { horizon: HORIZON, origins, seasonLength: 52.18, minTrain: 52 },
  );
  const set: SavedReconciliationScores = {
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
  for (const line of reconciliationRuleLines([set], designOnly)) console.log(line);
}

function printSet(set: SavedReconciliationScores, designOnly: boolean): void {
  console.log(`\n# ${set.name}: ${set.summary}`);
  const mean = (rows: LevelScore[], pick: (s: LevelScore) => number): string =>
    rows.length === 0 ? '—' : (rows.reduce((t, s) => t + pick(s), 0) / rows.length).toFixed(3);
  const reported = (text: string): string => (designOnly ? '' : ` | ${text}`);
  console.log(`\nmean MASE over the four levels, design${designOnly ? '' : ' | reported'}:`);
  for (const method of RECONCILIATION_METHODS)
    console.log(
      `  ${method.padEnd(16)} ${levelMeanMase(set, method, true).toFixed(3)}${reported(levelMeanMase(set, method, false).toFixed(3))}`,
    );
  for (const level of RECONCILIATION_LEVELS) {
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
