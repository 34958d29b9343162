import { describe, expect, it } from 'vitest';
import { forecastSeries } from './forecast-series';
import { intervalBounds, recentVolatilityRatio, spreadMultiplier } from './intervals';

describe('recentVolatilityRatio', () => {
  it('divides the mean recent change by the mean change of the whole history', () => {
    // Changes 2, 1, 4, 1, 0.5: mean 8.5 / 5 = 1.7; the last two average 0.75; 0.75 / 1.7 = 0.44118.
    expect(recentVolatilityRatio([10, 12, 11, 15, 14, 14.5], 2)).toBeCloseTo(0.75 / 1.7, 12);
    // Changes 0, 0, 0, 0, 0, 5, 5: mean 10 / 7; the last two average 5: ratio 3.5.
    expect(recentVolatilityRatio([0, 0, 0, 0, 0, 0, 5, 0], 2)).toBeCloseTo(3.5, 12);
  });

  it('is clamped to [0.1, 10]', () => {
    // No recent change at all: 0 → 0.1.
    expect(recentVolatilityRatio([0, 10, 0, 10, 10, 10], 2)).toBe(0.1);
    // Nineteen flat weeks then a jump of 10: mean change 0.5, the last one 10: 20 → 10.
    expect(recentVolatilityRatio([...new Array<number>(20).fill(1), 11], 1)).toBe(10);
  });

  it('is 1 without a history longer than the recent span, or without any change', () => {
    expect(recentVolatilityRatio([1, 5, 2], 2)).toBe(1);
    expect(recentVolatilityRatio([4, 4, 4, 4, 4], 2)).toBe(1);
    expect(recentVolatilityRatio([1, 5, 2, 8], 0)).toBe(1);
  });
});

describe('spreadMultiplier', () => {
  it('raises the ratio to the exponent, and is 1 for exponent 0', () => {
    const values = [10, 12, 11, 15, 14, 14.5];
    // (0.75 / 1.7)^0.2 = exp(0.2 · ln 0.441176) = 0.849029.
    expect(spreadMultiplier(values, { recentPeriods: 2, exponent: 0.2 })).toBeCloseTo(0.8490289, 6);
    expect(spreadMultiplier(values, { recentPeriods: 2, exponent: 0 })).toBe(1);
    // 3.5^0.5 = 1.870829.
    expect(spreadMultiplier([0, 0, 0, 0, 0, 0, 5, 0], { recentPeriods: 2, exponent: 0.5 })).toBeCloseTo(
      1.8708287,
      6,
    );
  });
});

describe('intervalBounds', () => {
  it('draws mean ± z·sd and clips at 0 only for non-negative histories', () => {
    // 5 ± 1.5·2 = [2, 8]; 1 ± 1.5·1 = [−0.5, 2.5].
    expect(intervalBounds([5, 1], [2, 1], 1.5, true)).toEqual({ lower: [2, 0], upper: [8, 2.5] });
    expect(intervalBounds([5, 1], [2, 1], 1.5, false)).toEqual({ lower: [2, -0.5], upper: [8, 2.5] });
  });
});

describe('the intervals of forecastSeries', () => {
  it('widen the combined spread by the recent-volatility multiplier, for both levels', () => {
    // Quiet for two years, then noisier for the last quarter: the band widens by the multiplier.
    const values = Array.from({ length: 120 }, (_, t) => 100 + (t % 2 === 0 ? 1 : -1) * (t >= 107 ? 6 : 2));
    const options = { horizon: 4, seasonLength: 52 };
    const plain = forecastSeries(values, {
      ...options,
      tuning: { intervalSpread: { recentPeriods: 13, exponent: 0 } },
    });
    const adjusted = forecastSeries(values, {
      ...options,
      tuning: { intervalSpread: { recentPeriods: 13, exponent: 0.3 } },
    });
    // Changes: 4 in weeks 1–106, 8 in week 107 (102 → 94), 12 in weeks 108–119. Whole history
    // 576 / 119, last 13 weeks 152 / 13: ratio 2.41560, multiplier 2.41560^0.3
    // = exp(0.3 · 0.881947) = 1.30289 with exponent 0.3.
    const multiplier = spreadMultiplier(values, { recentPeriods: 13, exponent: 0.3 });
    expect(multiplier).toBeCloseTo(1.30289, 5);
    expect(adjusted.ensemble).toEqual(plain.ensemble);
    adjusted.ensemble.forEach((mean, j) => {
      expect(adjusted.upper80[j]! - mean).toBeCloseTo(multiplier * (plain.upper80[j]! - mean), 9);
      expect(adjusted.upper95[j]! - mean).toBeCloseTo(multiplier * (plain.upper95[j]! - mean), 9);
    });
  });
});
