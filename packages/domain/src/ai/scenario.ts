import { moneyOf, roundToCents } from '../plan-chain';
import type { ScenarioFigures } from './chat';

/** One record a scenario touches: its final plan units and its product's unit cost and price. */
export type ScenarioRecord = { finalUnits: number; unitCost: number; unitPrice: number };

/**
 * A what-if: each record's final plan units scaled by (1 + percent/100), rounded to whole units
 * like the plan chain, valued at the product's unit cost and price to the cent. Margin is revenue
 * minus cost. Summing per-record rounded values keeps the preview equal to what a save produces.
 */
export function scaledUnits(units: number, percent: number): number {
  // toPrecision first, so 10 × 1.15 (11.499999… in binary) is 11.5 and rounds to 12 as in SQL numeric.
  return Math.max(0, Math.round(Number((units * (1 + percent / 100)).toPrecision(12))));
}

export function scenarioFigures(
  records: readonly ScenarioRecord[],
  percent: number,
): { before: ScenarioFigures; after: ScenarioFigures } {
  const before = { units: 0, cost: 0, revenue: 0, margin: 0 };
  const after = { units: 0, cost: 0, revenue: 0, margin: 0 };
  for (const record of records) {
    const next = scaledUnits(record.finalUnits, percent);
    before.units += record.finalUnits;
    before.cost += moneyOf(record.finalUnits, record.unitCost)!;
    before.revenue += moneyOf(record.finalUnits, record.unitPrice)!;
    after.units += next;
    after.cost += moneyOf(next, record.unitCost)!;
    after.revenue += moneyOf(next, record.unitPrice)!;
  }
  for (const figures of [before, after]) {
    figures.cost = roundToCents(figures.cost);
    figures.revenue = roundToCents(figures.revenue);
    figures.margin = roundToCents(figures.revenue - figures.cost);
  }
  return { before, after };
}
