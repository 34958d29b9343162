import { describe, expect, it } from 'vitest';
import { medianCombination, softmaxWeights, weightedCombination } from './ensemble';

describe('softmaxWeights', () => {
  it('weights exp(−(s − s_min)/s_min), normalised', () => {
    // Errors 5, 10, 15: raw weights 1, e^−1, e^−2 (sum 1.503215), by hand.
    const w = softmaxWeights([5, 10, 15]);
    const total = 1 + Math.exp(-1) + Math.exp(-2);
    expect(w[0]).toBeCloseTo(1 / total, 12);
    expect(w[1]).toBeCloseTo(0.3678794412 / total, 9);
    expect(w[2]).toBeCloseTo(0.1353352832 / total, 9);
    expect(w[0]).toBeCloseTo(0.665241, 5);
  });
  it('gives equal weights to equal errors, nothing to a missing error, all to perfect members', () => {
    expect(softmaxWeights([4, 4])).toEqual([0.5, 0.5]);
    expect(softmaxWeights([4, Number.NaN])).toEqual([1, 0]);
    expect(softmaxWeights([0, 3, 0])).toEqual([0.5, 0, 0.5]);
    expect(softmaxWeights([Number.NaN, Number.NaN])).toEqual([0.5, 0.5]);
  });
});

describe('combinations', () => {
  const members = [
    { model: 'naive' as const, mean: [10, 10], sd: [1, 2] },
    { model: 'ets' as const, mean: [20, 30], sd: [3, 4] },
    { model: 'ces' as const, mean: [40, 20], sd: [5, 6] },
  ];
  it('weighted: step-wise weighted mean of paths and spreads', () => {
    // Weights 0.5, 0.25, 0.25: step 1 = 5 + 5 + 10 = 20; step 2 = 5 + 7.5 + 5 = 17.5.
    const combined = weightedCombination(members, [0.5, 0.25, 0.25]);
    expect(combined.mean).toEqual([20, 17.5]);
    expect(combined.sd).toEqual([0.5 + 0.75 + 1.25, 1 + 1 + 1.5]);
  });
  it('median: step-wise median', () => {
    expect(medianCombination(members)).toEqual({ mean: [20, 20], sd: [3, 4] });
  });
});
