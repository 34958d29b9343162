import { describe, expect, it } from 'vitest';
import {
  leftOutCoverages,
  pooledFactor,
  scoreBands,
  spreadRatios,
  type CalibrationCase,
} from './interval-calibration';

const noOwnBands = { '80': { lower: [], upper: [] }, '95': { lower: [], upper: [] } };

/** Origin A: errors 1 and 4 on spreads 1 and 2; recent volatility four times the history's. */
const caseA: CalibrationCase = {
  train: [10, 12, 10, 12],
  actual: [11, 14],
  mean: [10, 10],
  spread: [1, 2],
  volatilityRatio: 4,
  isNonNegative: true,
  own: noOwnBands,
};
/** Origin B: one continuous series with error 3 on spread 1, and an intermittent one. */
const caseB: CalibrationCase = {
  train: [4, 5, 6],
  actual: [8],
  mean: [5],
  spread: [1],
  volatilityRatio: 1,
  isNonNegative: true,
  own: noOwnBands,
};
const intermittentB: CalibrationCase = {
  train: [0, 2, 0],
  actual: [0, 3],
  mean: [1, 1],
  spread: null,
  volatilityRatio: 1,
  isNonNegative: true,
  own: { '80': { lower: [0, 0], upper: [1, 1] }, '95': { lower: [0, 0], upper: [4, 4] } },
};

describe('interval calibration on rolling origins', () => {
  it('rescales the raw spread by volatility ratio ^ exponent before taking |error| / spread', () => {
    expect(spreadRatios([caseA], 0)).toEqual([1, 2]);
    // 4^0.5 = 2: spreads 2 and 4.
    expect(spreadRatios([caseA], 0.5)).toEqual([0.5, 1]);
    // The intermittent series keep their own bands and give no ratio.
    expect(spreadRatios([caseB, intermittentB], 0)).toEqual([3]);
  });

  it('pools the ratios of all origins into one factor', () => {
    // Ratios 1, 2, 3: the 80% nearest-rank quantile is the 3rd (⌈2.4⌉), 3; over z = 2: 1.5.
    expect(pooledFactor([[caseA], [caseB, intermittentB]], 0, 0.8, 2)).toBeCloseTo(1.5, 12);
  });

  it('scores coverage and MSIS of the adjusted bands, intermittent series on their own bands', () => {
    // 10 ± 1.5 = [8.5, 11.5] holds 11; 10 ± 3 = [7, 13] misses 14 by 1. Widths 3 + 6, penalty
    // (2 / 0.2) · 1 = 10: (9 + 10) / 2 steps / scale 2 (mean |Δy| of the training values) = 4.75.
    const a = scoreBands([caseA], 0, 1.5, 0.8);
    expect(a.coverage).toBeCloseTo(50, 12);
    expect(a.msis).toBeCloseTo(4.75, 12);
    // The intermittent series' own 80% band [0, 1] holds 0 but not 3.
    expect(scoreBands([intermittentB], 0, 99, 0.8).coverage).toBeCloseTo(50, 12);
  });

  it('scores each origin with the factor of the others (leave one out)', () => {
    // A with B's factor (ratio 3 over z = 2: 1.5, half-width 3 spreads): [7, 13] and [4, 16] hold
    // both. B with A's factor (ratios 1, 2: the 2nd, 2; over 2: 1, half-width 2 spreads): [3, 7]
    // misses 8, and the intermittent band holds one of two: 1 of 3 steps.
    const [a, b] = leftOutCoverages([[caseA], [caseB, intermittentB]], 0, 0.8, 2);
    expect(a).toBeCloseTo(100, 12);
    expect(b).toBeCloseTo(100 / 3, 12);
  });
});
