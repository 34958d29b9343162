/**
 * Reconciling a business unit's subtree (the unit, its families, their products) the way a product
 * forecast run does, with the method of each level chosen by back-test (docs/forecasting.md,
 * "Reconciliation in forecast runs", states the rule):
 *
 * 1. Family level: each family is reconciled with its products by the family level's method.
 * 2. Business-unit level: the unit is reconciled with its families (their sums after step 1) by
 *    the unit level's method; each family's change is passed to its products in proportion to
 *    their forecasts, so the mix step 1 chose is kept.
 *
 * Each level's method is the one with the lowest mean MASE on the back-test (the engine's inner
 * hold-out, `Backtest.path`) over that level and the levels below it, so a level never buys its
 * own accuracy with its products'. Bottom-up stays unless another method beats it by
 * TIE_MARGIN, and is used where the history is too short to back-test. Only the subtree is read,
 * so the result does not depend on which other units share a chunk.
 */
import { LEVEL_METHODS, reconcileLevel, type LevelMethod, type LevelNode } from './reconcile-level';
import { maseScale } from './rolling-origin';

export type HierarchyNode = {
  /** Weekly history, oldest first; an aggregate's is the sum of its products' (aligned at the end). */
  history: readonly number[];
  /** The engine's forecast from the whole history. */
  forecast: readonly number[];
  /** The engine's forecast of the history's last weeks from the weeks before them; null when none. */
  backtest: readonly number[] | null;
};

export type BusinessUnitTree = {
  unit: HierarchyNode;
  families: readonly HierarchyNode[];
  /** Each product with the index of its family in `families`. */
  products: readonly (HierarchyNode & { family: number })[];
};

export type LevelMethods = { family: LevelMethod; unit: LevelMethod };

/** A level's choice: the method and the back-test score of each method tried (absent: not tried). */
export type LevelChoice = { method: LevelMethod; scores: Partial<Record<LevelMethod, number>> };

export type BusinessUnitReconciliation = {
  /** Each product's reconciled forecast, in `products` order, never below zero. */
  products: number[][];
  family: LevelChoice;
  unit: LevelChoice;
};

/**
 * A method other than bottom-up must lower the back-test MASE by this share to be chosen: one
 * origin of a few hundred products is a noisy judge, and bottom-up leaves every product's own
 * forecast as the engine made it.
 */
export const TIE_MARGIN = 0.01;
/** Weeks of history the top-down shares are taken over. */
const SHARE_WEEKS = 52;

/**
 * How a unit is reconciled: each level's method chosen on the back-test (what runs do), or fixed
 * methods, MinT-WLS's variances from the nodes' MASE scale or from their back-test errors
 * (the candidates docs/forecasting.md's reconciliation rule compares).
 */
export type ReconcileRule =
  { kind: 'per-level' } | { kind: 'fixed'; methods: LevelMethods; variance: VarianceSource };

/** MinT-WLS's W: the squared MASE scale of the history, or the mean squared back-test error. */
export type VarianceSource = 'scale' | 'backtest';

export const PER_LEVEL: ReconcileRule = { kind: 'per-level' };

/** The methods chosen on the subtree's back-test (or fixed), and its products' forecasts reconciled by them. */
export function reconcileBusinessUnit(
  tree: BusinessUnitTree,
  rule: ReconcileRule = PER_LEVEL,
): BusinessUnitReconciliation {
  if (rule.kind === 'fixed') {
    const products = reconcileTree(
      levelTree(tree, (node) => node.forecast, 0, rule.variance),
      rule.methods,
    );
    return {
      products,
      family: { method: rule.methods.family, scores: {} },
      unit: { method: rule.methods.unit, scores: {} },
    };
  }
  const { family, unit } = chooseLevelMethods(tree);
  const products = reconcileTree(
    levelTree(tree, (node) => node.forecast, 0),
    {
      family: family.method,
      unit: unit.method,
    },
  );
  return { products, family, unit };
}

/** The subtree as the level methods see it, from `pathOf` each node and its history minus `heldOut` weeks. */
type LevelTree = {
  unit: LevelNode;
  families: LevelNode[];
  products: (LevelNode & { family: number })[];
};

function levelTree(
  tree: BusinessUnitTree,
  pathOf: (node: HierarchyNode) => readonly number[],
  heldOut: number,
  variance: VarianceSource = 'scale',
): LevelTree {
  const node = (n: HierarchyNode): LevelNode => {
    const history = n.history.slice(0, n.history.length - heldOut);
    // One-step naive errors stand in for the forecast's error variance: they need no fitted
    // residuals and scale with the node, which is what MinT-WLS weighs by.
    const scale = maseScale(history);
    const scaleSquared = Number.isFinite(scale) ? scale * scale : 0;
    const backtestError = variance === 'backtest' ? meanSquaredBacktestError(n, history) : null;
    return {
      forecast: pathOf(n),
      variance: backtestError ?? scaleSquared,
      share: history.slice(-SHARE_WEEKS).reduce((t, v) => t + v, 0),
    };
  };
  return {
    unit: node(tree.unit),
    families: tree.families.map(node),
    products: tree.products.map((p) => ({ ...node(p), family: p.family })),
  };
}

/**
 * Mean squared error of the node's back-test on the last weeks of `history` (those it forecast
 * from the weeks before); null without a back-test or with a zero error.
 */
function meanSquaredBacktestError(node: HierarchyNode, history: readonly number[]): number | null {
  const path = node.backtest;
  if (!path || path.length === 0 || path.length > history.length) return null;
  const actual = history.slice(history.length - path.length);
  const mse = actual.reduce((t, y, j) => t + (y - path[j]!) ** 2, 0) / actual.length;
  return Number.isFinite(mse) && mse > 0 ? mse : null;
}

/** The products' paths after both levels, clipped at zero like every forecast the engine writes. */
function reconcileTree(tree: LevelTree, methods: LevelMethods): number[][] {
  const steps = tree.unit.forecast.length;
  const members = tree.families.map((_, f) => tree.products.flatMap((p, i) => (p.family === f ? [i] : [])));
  const products: number[][] = tree.products.map((p) => [...p.forecast]);
  tree.families.forEach((family, f) => {
    const children = members[f]!.map((i) => tree.products[i]!);
    reconcileLevel(methods.family, family, children).forEach((path, k) => (products[members[f]![k]!] = path));
  });
  const sums = members.map((ids) =>
    Array.from({ length: steps }, (_, j) => ids.reduce((t, i) => t + products[i]![j]!, 0)),
  );
  const targets = reconcileLevel(
    methods.unit,
    tree.unit,
    tree.families.map((family, f) => ({ ...family, forecast: sums[f]! })),
  );
  members.forEach((ids, f) => {
    for (let j = 0; j < steps; j++) {
      const sum = sums[f]![j]!;
      const target = targets[f]![j]!;
      for (const i of ids) {
        const value = products[i]![j]!;
        // In proportion while the family's sum is positive; an even split of the change otherwise.
        products[i]![j] = sum > 0 ? (value * target) / sum : value + (target - sum) / ids.length;
      }
    }
  });
  return products.map((path) => path.map((v) => Math.max(0, v)));
}

/**
 * Each level's method, chosen on the back-test. The family level is judged on the families whose
 * products all have a back-test; the unit level needs every family judged, else stays bottom-up.
 */
export function chooseLevelMethods(tree: BusinessUnitTree): { family: LevelChoice; unit: LevelChoice } {
  const bottomUp: LevelChoice = { method: 'bottom-up', scores: {} };
  const complete = tree.families.flatMap((family, f) =>
    family.backtest && tree.products.every((p) => p.family !== f || p.backtest) ? [f] : [],
  );
  if (!tree.unit.backtest || complete.length === 0) return { family: bottomUp, unit: bottomUp };
  const heldOut = tree.unit.backtest.length;
  // The judged part of the subtree, its families renumbered.
  const judged: BusinessUnitTree = {
    unit: tree.unit,
    families: complete.map((f) => tree.families[f]!),
    products: tree.products.flatMap((p) => {
      const f = complete.indexOf(p.family);
      return f < 0 ? [] : [{ ...p, family: f }];
    }),
  };
  const backtestTree = levelTree(judged, (node) => node.backtest!, heldOut);
  const score = (methods: LevelMethods, withUnit: boolean): number =>
    levelMase(judged, reconcileTree(backtestTree, methods), heldOut, withUnit);
  const family = chooseMethod((method) => score({ family: method, unit: 'bottom-up' }, false));
  const unit =
    complete.length === tree.families.length
      ? chooseMethod((method) => score({ family: family.method, unit: method }, true))
      : bottomUp;
  return { family, unit };
}

/** The rule: bottom-up unless the lowest-scoring method beats it by TIE_MARGIN (order breaks ties). */
export function chooseMethod(scoreOf: (method: LevelMethod) => number): LevelChoice {
  const scores: Partial<Record<LevelMethod, number>> = {};
  for (const method of LEVEL_METHODS) scores[method] = scoreOf(method);
  const baseline = scores['bottom-up']!;
  let method: LevelMethod = 'bottom-up';
  for (const candidate of LEVEL_METHODS) {
    const value = scores[candidate]!;
    if (value < baseline * (1 - TIE_MARGIN) && value < scores[method]!) method = candidate;
  }
  return { method, scores };
}

/**
 * Mean over the levels (each counting once) of the nodes' mean MASE on the held-out weeks:
 * products and families, and the unit when `withUnit`. A node with a flat history has no scale
 * and is left out.
 */
function levelMase(
  tree: BusinessUnitTree,
  products: readonly (readonly number[])[],
  heldOut: number,
  withUnit: boolean,
): number {
  const steps = heldOut;
  const sumOf = (ids: readonly number[]): number[] =>
    Array.from({ length: steps }, (_, j) => ids.reduce((t, i) => t + products[i]![j]!, 0));
  const nodeMase = (node: HierarchyNode, path: readonly number[]): number | null => {
    const train = node.history.slice(0, node.history.length - heldOut);
    const actual = node.history.slice(node.history.length - heldOut);
    const scale = maseScale(train);
    if (!(scale > 0)) return null;
    return actual.reduce((t, y, j) => t + Math.abs(y - path[j]!), 0) / actual.length / scale;
  };
  const mean = (values: (number | null)[]): number | null => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? null : known.reduce((t, v) => t + v, 0) / known.length;
  };
  const levels = [
    mean(tree.products.map((p, i) => nodeMase(p, products[i]!))),
    mean(
      tree.families.map((family, f) =>
        nodeMase(family, sumOf(tree.products.flatMap((p, i) => (p.family === f ? [i] : [])))),
      ),
    ),
    withUnit ? nodeMase(tree.unit, sumOf(tree.products.map((_, i) => i))) : null,
  ];
  return mean(levels) ?? 0;
}
