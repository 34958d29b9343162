import { describe, expect, it } from 'vitest';
import { chooseMethod, reconcileBusinessUnit, type BusinessUnitTree } from './reconcile-business-unit';

/**
 * Two products alternating around 11 and 21 (naive scale 2 each, 4 for their sum), the last two
 * weeks held out. Their back-tests are 2 low at both weeks; the family's and the unit's are exact.
 * Shares of the back-test's training (4 weeks): 44 and 84 of 128; of the whole history: 66 and 126.
 */
const p1 = [10, 12, 10, 12, 10, 12];
const p2 = [20, 22, 20, 22, 20, 22];
const sum = p1.map((v, t) => v + p2[t]!);

describe('reconciling a business unit with a method chosen per level', () => {
  it('chooses top-down at the family level where the family forecasts better than its products: hand-checked', () => {
    const tree: BusinessUnitTree = {
      unit: { history: sum, forecast: [36, 36], backtest: [30, 34] },
      families: [{ history: sum, forecast: [36, 36], backtest: [30, 34] }],
      products: [
        { history: p1, forecast: [10, 10], backtest: [8, 10], family: 0 },
        { history: p2, forecast: [20, 20], backtest: [18, 20], family: 0 },
      ],
    };
    const result = reconcileBusinessUnit(tree);
    // Mean MASE of the family and product levels on the held-out weeks:
    // bottom-up: products 2/2 = 1, family 4/4 = 1 → 1;
    // MinT-OLS: each product + 4/3 → products (2/3)/2 = 1/3, family (4/3)/4 = 1/3 → 1/3;
    // MinT-WLS (variances 16, 4, 4): each product + 4·4/24 → products 2/3, family 2/3 → 2/3;
    // top-down: [30, 34]·44/128 and ·84/128 → products 0.3125/2 = 0.15625, family exact → 0.078125.
    expect(result.family.method).toBe('top-down');
    expect(result.family.scores['bottom-up']).toBeCloseTo(1, 12);
    expect(result.family.scores['mint-ols']).toBeCloseTo(1 / 3, 12);
    expect(result.family.scores['mint-wls']).toBeCloseTo(2 / 3, 12);
    expect(result.family.scores['top-down']).toBeCloseTo(0.078125, 12);
    // The unit's one family already sums to the unit's back-test: every method ties, bottom-up stays.
    expect(result.unit.method).toBe('bottom-up');
    // The forecast: the family's 36 split by the whole history's shares 66 : 126 of 192.
    expect(result.products).toEqual([
      [12.375, 12.375],
      [23.625, 23.625],
    ]);
  });

  it("at the unit level, passes a family's change to its products in proportion to their forecasts", () => {
    // Each family is one product (so the family level ties); the unit's back-test is the exact one.
    const tree: BusinessUnitTree = {
      unit: { history: sum, forecast: [36, 36], backtest: [30, 34] },
      families: [
        { history: p1, forecast: [10, 10], backtest: [8, 10] },
        { history: p2, forecast: [20, 20], backtest: [18, 20] },
      ],
      products: [
        { history: p1, forecast: [10, 10], backtest: [8, 10], family: 0 },
        { history: p2, forecast: [20, 20], backtest: [18, 20], family: 1 },
      ],
    };
    const result = reconcileBusinessUnit(tree);
    expect(result.family.method).toBe('bottom-up');
    expect(result.unit.method).toBe('top-down');
    // Families 36·66/192 and 36·126/192, each product scaled with its family.
    expect(result.products).toEqual([
      [12.375, 12.375],
      [23.625, 23.625],
    ]);
    // Coherent: the products sum to the unit's forecast.
    expect(result.products[0]![0]! + result.products[1]![0]!).toBe(36);
  });

  it('stays bottom-up where the history is too short to back-test', () => {
    const tree: BusinessUnitTree = {
      unit: { history: sum, forecast: [36, 36], backtest: null },
      families: [{ history: sum, forecast: [36, 36], backtest: [30, 34] }],
      products: [
        { history: p1, forecast: [10, -1], backtest: [8, 10], family: 0 },
        { history: p2, forecast: [20, 20], backtest: [18, 20], family: 0 },
      ],
    };
    const result = reconcileBusinessUnit(tree);
    expect([result.family.method, result.unit.method]).toEqual(['bottom-up', 'bottom-up']);
    // The products' own forecasts, never below zero.
    expect(result.products).toEqual([
      [10, 0],
      [20, 20],
    ]);
    // A product without a back-test leaves its family unjudged, and so the unit level too.
    const partial = reconcileBusinessUnit({
      ...tree,
      unit: { ...tree.unit, backtest: [30, 34] },
      products: [tree.products[0]!, { ...tree.products[1]!, backtest: null }],
    });
    expect([partial.family.method, partial.unit.method]).toEqual(['bottom-up', 'bottom-up']);
  });

  it('keeps bottom-up unless a method beats it by the margin; the lowest of those wins', () => {
    const scores = (values: Record<string, number>) => (method: string) => values[method]!;
    expect(
      chooseMethod(scores({ 'bottom-up': 1, 'top-down': 0.995, 'mint-ols': 1.2, 'mint-wls': 1.1 })).method,
    ).toBe('bottom-up');
    expect(
      chooseMethod(scores({ 'bottom-up': 1, 'top-down': 0.98, 'mint-ols': 0.97, 'mint-wls': 0.985 })).method,
    ).toBe('mint-ols');
  });

  it('with fixed MinT-WLS at both levels and W from the MASE scale: hand-checked', () => {
    const tree: BusinessUnitTree = {
      unit: { history: sum, forecast: [36, 36], backtest: [30, 34] },
      families: [{ history: sum, forecast: [36, 36], backtest: [30, 34] }],
      products: [
        { history: p1, forecast: [10, 10], backtest: [8, 10], family: 0 },
        { history: p2, forecast: [20, 20], backtest: [18, 20], family: 0 },
      ],
    };
    const result = reconcileBusinessUnit(tree, {
      kind: 'fixed',
      methods: { family: 'mint-wls', unit: 'mint-wls' },
      variance: 'scale',
    });
    expect([result.family.method, result.unit.method]).toEqual(['mint-wls', 'mint-wls']);
    // Family level: variances 16 (family), 4, 4; the gap 36 − 30 = 6 gives each product 6·4/24 = 1.
    // Unit level: variances 16 and 16; the family's 32 moves to 32 + 4·16/32 = 34, its products
    // scaled by 34/32: 11·34/32 = 11.6875 and 21·34/32 = 22.3125.
    expect(result.products[0]![0]).toBeCloseTo(11.6875, 12);
    expect(result.products[1]![0]).toBeCloseTo(22.3125, 12);
    expect(result.products[0]![0]! + result.products[1]![0]!).toBeCloseTo(34, 12);
  });

  it('with fixed MinT-WLS and W from each node’s back-test errors: hand-checked', () => {
    // Mean squared back-test errors on the last two weeks: products (2² + 2²)/2 = 4 each,
    // family ([30, 34] − [32, 34])² → 2, unit ([30, 34] − [30, 30])² → 8.
    const tree: BusinessUnitTree = {
      unit: { history: sum, forecast: [36, 36], backtest: [30, 30] },
      families: [{ history: sum, forecast: [36, 36], backtest: [32, 34] }],
      products: [
        { history: p1, forecast: [10, 10], backtest: [8, 10], family: 0 },
        { history: p2, forecast: [20, 20], backtest: [18, 20], family: 0 },
      ],
    };
    const result = reconcileBusinessUnit(tree, {
      kind: 'fixed',
      methods: { family: 'mint-wls', unit: 'mint-wls' },
      variance: 'backtest',
    });
    // Family level: each product + 6·4/10 = 2.4 → 12.4 and 22.4, family 34.8. Unit level: the
    // family moves to 34.8 + 1.2·2/10 = 35.04, its products scaled by 35.04/34.8.
    expect(result.products[0]![1]).toBeCloseTo((12.4 * 35.04) / 34.8, 12);
    expect(result.products[1]![1]).toBeCloseTo((22.4 * 35.04) / 34.8, 12);
    expect(result.products[0]![1]! + result.products[1]![1]!).toBeCloseTo(35.04, 12);
    // A node without a back-test falls back to its MASE scale: then as the scale-W case.
    const noBacktests = reconcileBusinessUnit(
      {
        unit: { ...tree.unit, backtest: null },
        families: [{ ...tree.families[0]!, backtest: null }],
        products: tree.products.map((p) => ({ ...p, backtest: null })),
      },
      { kind: 'fixed', methods: { family: 'mint-wls', unit: 'mint-wls' }, variance: 'backtest' },
    );
    expect(noBacktests.products[0]![0]).toBeCloseTo(11.6875, 12);
  });
});
