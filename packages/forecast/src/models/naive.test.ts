import { describe, expect, it } from 'vitest';
import { naive, seasonalNaive } from './naive';

// Forecasts and spreads from Hyndman & Athanasopoulos, FPP3 §5.2 and §5.5 (Table 5.2).
describe('naive models', () => {
  it('naïve repeats the last value with sd σ√h', () => {
    // One-step changes 2, −1, 3: σ² = (4 + 1 + 9) / 3.
    const f = naive([1, 3, 2, 5], 3);
    expect(f.mean).toEqual([5, 5, 5]);
    const sigma = Math.sqrt(14 / 3);
    expect(f.sd[0]).toBeCloseTo(sigma, 12);
    expect(f.sd[2]).toBeCloseTo(sigma * Math.sqrt(3), 12);
  });
  it('seasonal naïve repeats the last season', () => {
    const f = seasonalNaive([1, 2, 3, 4, 5, 6, 7, 8], 6, 4);
    expect(f.mean).toEqual([5, 6, 7, 8, 5, 6]);
    // All lag-4 changes are 4: σ = 4; the second season has sd σ√2.
    expect(f.sd[0]).toBeCloseTo(4, 12);
    expect(f.sd[4]).toBeCloseTo(4 * Math.SQRT2, 12);
  });
});
