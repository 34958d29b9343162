import { describe, expect, it } from 'vitest';
import { bias, mape, mase, msis, owa, smape } from './metrics';

// Definitions from the M4 competition paper (Makridakis et al., IJF 36, 2020, §2.3), by hand.
describe('metrics', () => {
  it('sMAPE is 200·|y − f| / (|y| + |f|) averaged over the horizon', () => {
    expect(smape([100, 50], [110, 50])).toBeCloseTo((200 * 10) / 210 / 2, 10);
    expect(smape([0], [0])).toBe(0);
  });
  it('MASE scales by the in-sample mean absolute lag-1 difference', () => {
    expect(mase([1, 2, 4], [5, 6], [4, 8])).toBeCloseTo(1.5 / 1.5, 12);
    // Lag 2: |4 − 1| and |1 − 2|, scale 2.
    expect(mase([1, 2, 4, 1], [5], [4], 2)).toBeCloseTo(0.5, 12);
  });
  it('OWA averages the two ratios to the benchmark', () => {
    expect(owa({ smape: 8, mase: 3 }, { smape: 10, mase: 2 })).toBeCloseTo(0.5 * (0.8 + 1.5), 12);
  });
  it('MAPE skips zero actuals and bias is signed volume error', () => {
    expect(mape([100, 0, 50], [90, 5, 60])).toBeCloseTo(15, 12);
    expect(bias([100, 100], [110, 120])).toBeCloseTo(15, 12);
    expect(bias([100, 100], [90, 80])).toBeCloseTo(-15, 12);
  });
  it('MSIS adds 2/α times each miss to the width and scales like MASE', () => {
    // Widths 2, 4, 2; misses 10 − 8 = 2 above and 1 − 0 = 1 below at α = 0.05 (2/α = 40):
    // (2 + (4 + 80) + (2 + 40)) / 3 = 42.667, over the scale (1 + 2) / 2 = 1.5.
    expect(msis([1, 2, 4], [5, 10, 0], [4, 4, 1], [6, 8, 3])).toBeCloseTo(128 / 3 / 1.5, 10);
    expect(msis([1, 2, 4], [5], [5], [5])).toBe(0);
  });
});
