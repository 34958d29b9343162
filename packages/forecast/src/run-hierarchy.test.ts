import { describe, expect, it } from 'vitest';
import { planRunHierarchy, reconcileRunHierarchy, sumAlignedAtEnd } from './run-hierarchy';

describe("a forecast run's hierarchy", () => {
  it('sums histories that end on the same week, a shorter one counting from its start', () => {
    expect(
      sumAlignedAtEnd([
        [1, 2, 3],
        [10, 20],
      ]),
    ).toEqual([1, 12, 23]);
  });

  it('makes units and families in key order and leaves out a product whose history ends early', () => {
    const products = [
      { unit: 'u2', family: 'f', history: [5, 5], lastWeek: '2026-11-08' },
      { unit: 'u1', family: 'g', history: [1, 2], lastWeek: '2026-11-08' },
      { unit: 'u1', family: 'f', history: [3], lastWeek: '2026-11-08' },
      { unit: 'u1', family: 'f', history: [7, 7], lastWeek: '2026-11-01' },
      { unit: 'u1', family: 'f', history: [], lastWeek: '' },
    ];
    const hierarchy = planRunHierarchy(products);
    expect(hierarchy.units).toEqual([
      {
        unit: 'u1',
        node: 0,
        families: [
          { family: 'f', node: 1 },
          { family: 'g', node: 2 },
        ],
        products: [
          { index: 1, family: 1 },
          { index: 2, family: 0 },
        ],
      },
      { unit: 'u2', node: 3, families: [{ family: 'f', node: 4 }], products: [{ index: 0, family: 0 }] },
    ]);
    // u1 = [1, 2] + [0, 3]; its family f only the product that ends on the unit's week.
    expect(hierarchy.aggregates).toEqual([[1, 5], [3], [1, 2], [5, 5], [5, 5]]);

    // Without back-tests every unit is bottom-up: the products keep their own forecasts.
    const own = (value: number) => ({ ensemble: [value], backtest: {} });
    const { paths, choices } = reconcileRunHierarchy(
      hierarchy,
      products,
      products.map((_, i) => own(i + 1)),
      hierarchy.aggregates.map(() => own(100)),
    );
    expect([...paths.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0, [1]],
      [1, [2]],
      [2, [3]],
    ]);
    expect(choices.map((c) => [c.unit, c.family.method, c.unitLevel.method])).toEqual([
      ['u1', 'bottom-up', 'bottom-up'],
      ['u2', 'bottom-up', 'bottom-up'],
    ]);
  });
});
