import { describe, expect, it } from 'vitest';
import { autocorrelations, linearTrend, meanAbsoluteDifference, median, solveLinearSystem } from './stats';

describe('stats', () => {
  it('computes sample autocorrelations as R acf does (worked by hand for 1,2,3,4)', () => {
    // mean 2.5, Σ(y−ȳ)² = 5; lag 1: 1.25/5; lag 2: −1.5/5.
    const r = autocorrelations([1, 2, 3, 4], 2);
    expect(r[0]).toBeCloseTo(0.25, 12);
    expect(r[1]).toBeCloseTo(-0.3, 12);
  });
  it('fits the OLS line on t = 1…n', () => {
    expect(linearTrend([2, 4, 6]).slope).toBeCloseTo(2, 12);
    expect(linearTrend([2, 4, 6]).intercept).toBeCloseTo(0, 12);
    const { intercept, slope } = linearTrend([3, 1, 4, 1, 5]);
    // Σ(t − 3)(y − 2.8) = 4, Σ(t − 3)² = 10.
    expect(slope).toBeCloseTo(0.4, 12);
    expect(intercept).toBeCloseTo(1.6, 12);
  });
  it('takes medians of odd and even lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('measures the mean absolute lag difference', () => {
    expect(meanAbsoluteDifference([1, 2, 4])).toBe(1.5);
  });
  it('solves a linear system with pivoting', () => {
    // 0·x + 2y = 4, 3x + y = 5 → x = 1, y = 2 (needs a row swap).
    const x = solveLinearSystem(
      [
        [0, 2],
        [3, 1],
      ],
      [4, 5],
    );
    expect(x[0]).toBeCloseTo(1, 12);
    expect(x[1]).toBeCloseTo(2, 12);
  });
});
