import { describe, expect, it } from 'vitest';
import { bottomUp, identity, minTrace, shrunkCovariance, summingMatrix, topDown } from './reconcile';

// total = A + B: rows total, A, B; columns A, B.
const S = [
  [1, 1],
  [1, 0],
  [0, 1],
];

describe('forecast reconciliation', () => {
  it("builds the summing matrix from each bottom series' ancestors", () => {
    const { nodes, summing } = summingMatrix([
      ['total', 'BU1', 'F1'],
      ['total', 'BU1', 'F2'],
      ['total', 'BU2', 'F3'],
    ]);
    expect(nodes).toEqual(['total', 'BU1', 'F1', 'F2', 'BU2', 'F3', '#0', '#1', '#2']);
    expect(summing).toEqual([
      [1, 1, 1],
      [1, 1, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });

  it('bottom-up and top-down give coherent totals', () => {
    expect(bottomUp(S, [3, 5])).toEqual([8, 3, 5]);
    // Top 10 split 1 : 3.
    expect(topDown(S, 10, [1, 3])).toEqual([10, 2.5, 7.5]);
  });

  it('MinT with W = I (OLS) spreads the incoherence equally: hand-checked', () => {
    // Base: total 10, A 3, B 5 (incoherent by 2). S'S = [[2,1],[1,2]], its inverse ⅓[[2,−1],[−1,2]],
    // S'ŷ = [13, 15], b = ⅓[2·13 − 15, −13 + 2·15] = [11/3, 17/3]; total 28/3.
    const reconciled = minTrace(S, [10, 3, 5], identity(3));
    expect(reconciled[0]).toBeCloseTo(28 / 3, 12);
    expect(reconciled[1]).toBeCloseTo(11 / 3, 12);
    expect(reconciled[2]).toBeCloseTo(17 / 3, 12);
  });

  it('MinT with W = diag(4, 1, 1) moves the noisier total most: hand-checked', () => {
    // S'W⁻¹S = [[1.25, 0.25], [0.25, 1.25]], determinant 1.5; S'W⁻¹ŷ = [2.5 + 3, 2.5 + 5] = [5.5, 7.5];
    // b = (1/1.5)[1.25·5.5 − 0.25·7.5, −0.25·5.5 + 1.25·7.5] = [10/3, 16/3]; total 26/3. The gap of 2
    // is shared in proportion to the variances: the total loses 2·4/6, each child gains 2·1/6.
    const reconciled = minTrace(
      S,
      [10, 3, 5],
      [
        [4, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    );
    expect(reconciled[0]).toBeCloseTo(26 / 3, 12);
    expect(reconciled[1]).toBeCloseTo(10 / 3, 12);
    expect(reconciled[2]).toBeCloseTo(16 / 3, 12);
  });

  it('MinT-shrink: the shrunk covariance keeps the variances, and the result sums up', () => {
    // Errors of total, A, B over six weeks (total's = A's + B's plus noise).
    const errors = [
      [1.2, 0.5, 0.6],
      [-0.7, -0.2, -0.4],
      [0.3, 0.4, -0.2],
      [-1.1, -0.6, -0.3],
      [0.9, 0.1, 0.7],
      [-0.4, -0.1, -0.5],
    ];
    const { covariance, lambda } = shrunkCovariance(errors);
    expect(lambda).toBeGreaterThanOrEqual(0);
    expect(lambda).toBeLessThanOrEqual(1);
    const mean = errors.reduce((t, r) => t + r[0]!, 0) / errors.length;
    expect(covariance[0]![0]).toBeCloseTo(
      errors.reduce((t, r) => t + (r[0]! - mean) ** 2, 0) / errors.length,
      12,
    );
    const reconciled = minTrace(S, [10, 3, 5], covariance);
    expect(reconciled[0]).toBeCloseTo(reconciled[1]! + reconciled[2]!, 9);
    // Between the base total and the bottom-up sum.
    expect(reconciled[0]).toBeGreaterThanOrEqual(8);
    expect(reconciled[0]).toBeLessThanOrEqual(10);
  });
});
