import { describe, expect, it } from 'vitest';
import { scaledUnits, scenarioFigures } from './scenario';

describe('what-if scenario arithmetic', () => {
  it('scales each record, rounds to whole units and values them to the cent', () => {
    // 100 × 1.15 = 115; 33 × 1.15 = 37.95 → 38. Cost 115 × 2.5 = 287.50, 38 × 10.01 = 380.38;
    // revenue 115 × 4 = 460, 38 × 15.333 = 582.654 → 582.65.
    const records = [
      { finalUnits: 100, unitCost: 2.5, unitPrice: 4 },
      { finalUnits: 33, unitCost: 10.01, unitPrice: 15.333 },
    ];
    const { before, after } = scenarioFigures(records, 15);
    // Before: 133 units; cost 250 + 330.33 = 580.33; revenue 400 + 505.99 (505.989) = 905.99.
    expect(before).toEqual({ units: 133, cost: 580.33, revenue: 905.99, margin: 325.66 });
    expect(after).toEqual({ units: 153, cost: 667.88, revenue: 1042.65, margin: 374.77 });
  });

  it('never goes below zero units and keeps an empty scope at zero', () => {
    expect(scaledUnits(10, -100)).toBe(0);
    // 10 × 1.15 = 11.5 exactly in decimals: half up, not the binary 11.4999….
    expect(scaledUnits(10, 15)).toBe(12);
    expect(scaledUnits(10, -150)).toBe(0);
    expect(scenarioFigures([], 15).after).toEqual({ units: 0, cost: 0, revenue: 0, margin: 0 });
  });
});
