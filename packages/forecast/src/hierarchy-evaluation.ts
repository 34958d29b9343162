/**
 * Rolling-origin evaluation of reconciliation methods on a hierarchy: every node (total,
 * intermediate levels, bottom series) is forecast by the engine from its own history, then the
 * forecasts are made coherent by each method and scored per level. MinT's W at an origin comes
 * from the errors of the earlier origins' forecasts, whose weeks all lie in this origin's
 * training part, so nothing scored is seen; the first origin only provides errors.
 */
import { rollingOrigins } from './evaluation';
import { smape } from './metrics';
import { forecastMany } from './pool';
import {
  bottomUp,
  identity,
  minTraceProjection,
  shrunkCovariance,
  summingMatrix,
  topDown,
} from './reconcile';
import { planRunHierarchy, reconcileRunHierarchy } from './run-hierarchy';
import { PER_LEVEL, type ReconcileRule } from './reconcile-business-unit';
import { maseScale } from './rolling-origin';

export type HierarchyInput = {
  /** Per bottom series, its ancestors from the top, e.g. ['total', 'BU a', 'BU a/family b']. */
  paths: readonly (readonly string[])[];
  /** Per bottom series, its history (equal lengths, aligned weeks). */
  series: readonly (readonly number[])[];
  /** Level name of each depth of the paths, then the bottom's, e.g. ['total', 'BU', 'family', 'product']. */
  levels: readonly string[];
};

/**
 * A product run's reconciliation (run-hierarchy.ts) at one origin: each business unit (depth 1
 * of the paths) with its families (depth 2) and bottom series, by `rule` (the run's: the method
 * per level chosen on the engine's inner hold-out); the top is their sum. Answers every node's
 * path, step by step.
 */
function runSteps(
  input: HierarchyInput,
  nodes: readonly string[],
  summing: readonly (readonly number[])[],
  trains: readonly (readonly number[])[],
  forecasts: Awaited<ReturnType<typeof forecastMany>>,
  horizon: number,
  rule: ReconcileRule,
): number[][] {
  const n = nodes.length;
  const m = input.paths.length;
  const products = input.paths.map((path, j) => ({
    unit: path[1]!,
    family: path[2]!,
    history: trains[n - m + j]!,
    lastWeek: '',
  }));
  const hierarchy = planRunHierarchy(products);
  // The aggregates' summed histories are the nodes' own, already forecast: look them up.
  const aggregateForecasts = new Array<(typeof forecasts)[number]>(hierarchy.aggregates.length);
  for (const unit of hierarchy.units) {
    aggregateForecasts[unit.node] = forecasts[nodes.indexOf(unit.unit)]!;
    for (const family of unit.families)
      aggregateForecasts[family.node] = forecasts[nodes.indexOf(family.family)]!;
  }
  const { paths } = reconcileRunHierarchy(
    hierarchy,
    products,
    forecasts.slice(n - m),
    aggregateForecasts,
    rule,
  );
  return Array.from({ length: horizon }, (_, j) =>
    bottomUp(
      summing,
      input.paths.map((_, k) => paths.get(k)?.[j] ?? forecasts[n - m + k]!.ensemble[j]!),
    ),
  );
}

export const RECONCILIATION_METHODS = [
  'base',
  'bottom-up',
  'top-down',
  'mint-ols',
  'mint-wls',
  'mint-shrink',
  'per-level',
  'run-mint-wls',
  'run-mint-wls-bt',
] as const;
export type ReconciliationMethod = (typeof RECONCILIATION_METHODS)[number];

/**
 * The methods a product run can apply (per business unit, no forecast of the total), by the rule
 * each stands for: the incumbent choice per level, MinT-WLS at both levels with W from the MASE
 * scale or from the back-test errors. Bottom-up is the same in a run as in the dense evaluation.
 */
export const RUN_RULES: ReadonlyArray<readonly [ReconciliationMethod, ReconcileRule]> = [
  ['per-level', PER_LEVEL],
  ['run-mint-wls', { kind: 'fixed', methods: { family: 'mint-wls', unit: 'mint-wls' }, variance: 'scale' }],
  [
    'run-mint-wls-bt',
    { kind: 'fixed', methods: { family: 'mint-wls', unit: 'mint-wls' }, variance: 'backtest' },
  ],
];

/** Mean MASE and sMAPE of one level's nodes under one method at one origin. */
export type LevelScore = {
  origin: number;
  level: string;
  method: ReconciliationMethod;
  mase: number;
  smape: number;
};

export async function evaluateReconciliation(
  input: HierarchyInput,
  options: { horizon: number; origins: number; seasonLength: number; minTrain: number },
): Promise<LevelScore[]> {
  const { nodes, summing } = summingMatrix(input.paths);
  const m = input.series.length;
  const n = nodes.length;
  const length = input.series[0]?.length ?? 0;
  const nodeSeries = summing.map((row) =>
    Array.from({ length }, (_, t) => row.reduce((total, s, j) => total + s * input.series[j]![t]!, 0)),
  );
  const depth = (i: number): number =>
    i >= n - m ? input.levels.length - 1 : input.paths.find((p) => p.includes(nodes[i]!))!.indexOf(nodes[i]!);
  const splits = nodeSeries.map((values) =>
    rollingOrigins(values, {
      horizon: options.horizon,
      origins: options.origins,
      step: options.horizon,
      minTrain: options.minTrain,
    }),
  );
  const scores: LevelScore[] = [];
  // The errors of every earlier origin's forecasts: their weeks all lie before this origin's scored ones.
  let previousErrors: number[][] | null = null;
  for (let origin = 1; origin <= options.origins; origin++) {
    const at = splits.map((s) => s[origin - 1]);
    if (at.some((s) => s === null)) continue;
    const forecasts = await forecastMany(
      at.map((s) => s!.train),
      { horizon: options.horizon, seasonLength: options.seasonLength },
    );
    const base = forecasts.map((f) => f.ensemble);
    const errors = Array.from({ length: options.horizon }, (_, j) =>
      at.map((s, i) => s!.actual[j]! - base[i]![j]!),
    );
    if (previousErrors) {
      // Shares of the bottom series in the top over the last year of training.
      const shares = at.slice(n - m).map((s) => s!.train.slice(-52).reduce((t, v) => t + v, 0));
      const variances = previousErrors[0]!.map((_, i) =>
        Math.max(1e-9, previousErrors!.reduce((t, row) => t + row[i]! ** 2, 0) / previousErrors!.length),
      );
      const wls = variances.map((v, i) => variances.map((_, k) => (i === k ? v : 0)));
      const shrink = shrunkCovariance(previousErrors).covariance.map((row, i) =>
        row.map((v, k) => (i === k ? Math.max(v, 1e-9) : v)),
      );
      const mintOls = minTraceProjection(summing, identity(n));
      const mintWls = minTraceProjection(summing, wls);
      const mintShrink = minTraceProjection(summing, shrink);
      const paths = new Map<ReconciliationMethod, number[][]>();
      for (const method of RECONCILIATION_METHODS) paths.set(method, []);
      for (let j = 0; j < options.horizon; j++) {
        const step = base.map((b) => b[j]!);
        paths.get('base')!.push(step);
        paths.get('bottom-up')!.push(bottomUp(summing, step.slice(n - m)));
        paths.get('top-down')!.push(topDown(summing, step[0]!, shares));
        paths.get('mint-ols')!.push(mintOls(step));
        paths.get('mint-wls')!.push(mintWls(step));
        paths.get('mint-shrink')!.push(mintShrink(step));
      }
      for (const [method, rule] of RUN_RULES)
        paths.set(
          method,
          runSteps(
            input,
            nodes,
            summing,
            at.map((s) => s!.train),
            forecasts,
            options.horizon,
            rule,
          ),
        );
      for (const [method, steps] of paths) {
        const byLevel = new Map<string, { mase: number; smape: number; count: number }>();
        for (let i = 0; i < n; i++) {
          const split = at[i]!;
          const path = steps.map((row) => Math.max(0, row[i]!));
          const scale = maseScale(split.train);
          if (!(scale > 0)) continue;
          const level = input.levels[depth(i)]!;
          const total = byLevel.get(level) ?? { mase: 0, smape: 0, count: 0 };
          total.mase +=
            split.actual.reduce((t, y, j) => t + Math.abs(y - path[j]!), 0) / split.actual.length / scale;
          total.smape += smape(split.actual, path);
          total.count += 1;
          byLevel.set(level, total);
        }
        for (const [level, t] of byLevel)
          scores.push({ origin, level, method, mase: t.mase / t.count, smape: t.smape / t.count });
      }
    }
    previousErrors = [...(previousErrors ?? []), ...errors];
  }
  return scores;
}

/** The levels of the reconciliation evaluation's hierarchies, top first. */
export const RECONCILIATION_LEVELS = ['total', 'business unit', 'family', 'product'] as const;

/** One data set's scores, as `forecast:reconcile-eval --save` writes them. */
export type SavedReconciliationScores = {
  name: string;
  summary: string;
  design: number[];
  scores: LevelScore[];
};

/**
 * The reconciliation rule's candidates, simplest first (ties go to the simpler). The incumbent is
 * what runs did when the rule was applied (they are bottom-up since: docs/forecasting.md).
 */
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

/** Mean over the four levels (each counting once) of the level's mean MASE over a group's origins. */
export function levelMeanMase(
  set: SavedReconciliationScores,
  method: ReconciliationMethod,
  inDesign: boolean,
): number {
  const rows = set.scores.filter((s) => s.method === method && set.design.includes(s.origin) === inDesign);
  if (rows.length === 0) return Number.NaN;
  return RECONCILIATION_LEVELS.reduce((t, level) => {
    const at = rows.filter((s) => s.level === level);
    return t + at.reduce((u, s) => u + s.mase, 0) / Math.max(1, at.length) / RECONCILIATION_LEVELS.length;
  }, 0);
}

/**
 * The rule: each candidate's score over the data sets relative to the incumbent's, the decision on
 * the design origins, then (unless design only) the reported origins and whether the change is kept.
 */
export function reconciliationRuleLines(
  sets: readonly SavedReconciliationScores[],
  designOnly: boolean,
): string[] {
  const lines: string[] = [];
  const ratio = (method: ReconciliationMethod, inDesign: boolean): number =>
    sets.reduce(
      (t, set) => t + levelMeanMase(set, method, inDesign) / levelMeanMase(set, INCUMBENT, inDesign),
      0,
    ) / sets.length;
  // Candidates the saved scores hold (an older file may lack some).
  const candidates = CANDIDATES.filter((m) => Number.isFinite(ratio(m, true)));
  lines.push(
    `\nthe rule (${sets.map((s) => s.name).join(' and ')}): four-level mean MASE, and its ratio to ` +
      `${INCUMBENT}'s averaged over the data sets`,
  );
  for (const inDesign of designOnly ? [true] : [true, false]) {
    lines.push(`  ${inDesign ? 'design' : 'reported'} origins:`);
    for (const method of candidates)
      lines.push(
        `    ${method.padEnd(16)} ${sets.map((set) => `${set.name} ${levelMeanMase(set, method, inDesign).toFixed(4)}`).join(', ')}; ` +
          `mean ratio ${ratio(method, inDesign).toFixed(4)}`,
      );
  }
  const best = Math.min(...candidates.map((m) => ratio(m, true)));
  const winner = candidates.find((m) => ratio(m, true) <= best + TIE)!;
  const decided = winner !== INCUMBENT && ratio(winner, true) < CHANGE_THRESHOLD ? winner : INCUMBENT;
  lines.push(
    `decided on the design origins: ${decided}` +
      (decided === INCUMBENT ? ' (no candidate gains 0.5 %)' : ` (gain ${gain(ratio(decided, true))})`),
  );
  if (designOnly) return lines;
  let kept = decided;
  if (decided !== INCUMBENT) {
    const reportedRatio = ratio(decided, false);
    if (!(reportedRatio < 1)) kept = INCUMBENT;
    lines.push(
      `reported once: ${decided} against ${INCUMBENT}, gain ${gain(reportedRatio)} → ` +
        (kept === decided
          ? `${decided} kept (gains on both)`
          : `${INCUMBENT} stays (no gain on the reported origins)`),
    );
  }
  if (kept === 'bottom-up') {
    lines.push('kept: bottom-up (the products as the engine made them, every level their sum)');
    return lines;
  }
  // What the kept method gains over no reconciliation at all, per group (rule 3 of the rolling origins).
  const overBottomUp = (inDesign: boolean): number =>
    sets.reduce(
      (t, set) => t + levelMeanMase(set, kept, inDesign) / levelMeanMase(set, 'bottom-up', inDesign),
      0,
    ) / sets.length;
  lines.push(
    `kept: ${kept}; its gain over bottom-up, mean over the data sets: design ${gain(overBottomUp(true))}, ` +
      `reported ${gain(overBottomUp(false))}`,
  );
  return lines;
}

const gain = (ratio: number): string => `${((1 - ratio) * 100).toFixed(2)} %`;
