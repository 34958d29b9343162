/**
 * A forecast run's hierarchy: which business units and families its products make, the summed
 * histories the engine forecasts for them, and the products' forecasts reconciled per unit
 * (reconcile-business-unit.ts). The run does the reading and writing; this holds what follows
 * from the numbers, so it is the same whichever process or chunk computes it.
 */
import {
  PER_LEVEL,
  reconcileBusinessUnit,
  type BusinessUnitTree,
  type LevelChoice,
  type ReconcileRule,
} from './reconcile-business-unit';

export type RunProduct = {
  /** The business unit's key, unique in the run (e.g. client and unit). */
  unit: string;
  /** The family's key within its unit. */
  family: string;
  history: readonly number[];
  /** The product's last week of history (ISO date): its forecast's first step is the week after. */
  lastWeek: string;
};

export type UnitLayout = {
  unit: string;
  /** Index of the unit's summed history in `aggregates`. */
  node: number;
  /** Each family's key and the index of its summed history in `aggregates`. */
  families: { family: string; node: number }[];
  /** Index of each product in the run's list, with the index of its family in `families`. */
  products: { index: number; family: number }[];
};

export type RunHierarchy = {
  /** The histories to forecast besides the products': every unit's and every family's sum. */
  aggregates: number[][];
  units: UnitLayout[];
};

/**
 * The units and families of these products. A product whose history ends before its unit's
 * latest week is left out of the tree: its steps are other weeks than the unit's, so it keeps
 * its own forecast (and its sales are not in the sums). Units and families in key order.
 */
export function planRunHierarchy(products: readonly RunProduct[]): RunHierarchy {
  const byUnit = new Map<string, number[]>();
  products.forEach((p, index) => {
    if (p.history.length === 0) return;
    const unit = byUnit.get(p.unit);
    if (unit) unit.push(index);
    else byUnit.set(p.unit, [index]);
  });
  const aggregates: number[][] = [];
  const units: UnitLayout[] = [];
  for (const unit of [...byUnit.keys()].sort()) {
    const indices = byUnit.get(unit)!;
    const latest = indices.reduce((w, i) => (products[i]!.lastWeek > w ? products[i]!.lastWeek : w), '');
    const members = indices.filter((i) => products[i]!.lastWeek === latest);
    const familyKeys = [...new Set(members.map((i) => products[i]!.family))].sort();
    const node = aggregates.push(sumAlignedAtEnd(members.map((i) => products[i]!.history))) - 1;
    const families = familyKeys.map((family) => ({
      family,
      node:
        aggregates.push(
          sumAlignedAtEnd(
            members.filter((i) => products[i]!.family === family).map((i) => products[i]!.history),
          ),
        ) - 1,
    }));
    units.push({
      unit,
      node,
      families,
      products: members.map((index) => ({ index, family: familyKeys.indexOf(products[index]!.family) })),
    });
  }
  return { aggregates, units };
}

/** Series that end on the same week, summed week by week (a shorter one counts 0 before it starts). */
export function sumAlignedAtEnd(series: readonly (readonly number[])[]): number[] {
  const length = series.reduce((n, s) => Math.max(n, s.length), 0);
  const total = new Array<number>(length).fill(0);
  for (const values of series) {
    const offset = length - values.length;
    values.forEach((v, t) => (total[offset + t] = total[offset + t]! + v));
  }
  return total;
}

/** What reconciliation reads of an engine forecast (a SeriesForecast is one). */
export type NodeForecast = { ensemble: readonly number[]; backtest: { path?: readonly number[] } };

export type RunReconciliation = {
  /** Reconciled forecast by index of the product in the run's list; absent: keeps its own. */
  paths: Map<number, number[]>;
  /** Each unit's choice per level. */
  choices: { unit: string; family: LevelChoice; unitLevel: LevelChoice }[];
};

/** Every unit's products reconciled with their families and unit (by the run's rule unless told). */
export function reconcileRunHierarchy(
  hierarchy: RunHierarchy,
  products: readonly RunProduct[],
  productForecasts: readonly NodeForecast[],
  aggregateForecasts: readonly NodeForecast[],
  rule: ReconcileRule = PER_LEVEL,
): RunReconciliation {
  const paths = new Map<number, number[]>();
  const choices: RunReconciliation['choices'] = [];
  const node = (history: readonly number[], forecast: NodeForecast) => ({
    history,
    forecast: forecast.ensemble,
    backtest: forecast.backtest.path ?? null,
  });
  for (const layout of hierarchy.units) {
    const tree: BusinessUnitTree = {
      unit: node(hierarchy.aggregates[layout.node]!, aggregateForecasts[layout.node]!),
      families: layout.families.map((f) => node(hierarchy.aggregates[f.node]!, aggregateForecasts[f.node]!)),
      products: layout.products.map((p) => ({
        ...node(products[p.index]!.history, productForecasts[p.index]!),
        family: p.family,
      })),
    };
    const result = reconcileBusinessUnit(tree, rule);
    layout.products.forEach((p, k) => paths.set(p.index, result.products[k]!));
    choices.push({ unit: layout.unit, family: result.family, unitLevel: result.unit });
  }
  return { paths, choices };
}
