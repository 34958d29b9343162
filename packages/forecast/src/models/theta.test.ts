import { describe, expect, it } from 'vitest';
import { linearTrend } from '../stats';
import { fitTheta, forecastTheta } from './theta';

const series = [12, 15, 14, 18, 17, 21, 20, 24, 22, 26, 27, 25, 29, 31, 30, 33];

describe('Theta models (Fiorucci et al., IJF 32, 2016)', () => {
  it('dynamic models update A and B recursively to the OLS line of all data seen (eq. 14)', () => {
    const fit = fitTheta(series, 'dstm');
    const { intercept, slope } = linearTrend(series);
    expect(fit.final.b).toBeCloseTo(slope, 10);
    expect(fit.final.a).toBeCloseTo(intercept, 10);
  });

  it('the standard model forecasts ℓ_n + (1 − 1/θ)[(1 − α)^n A + ((h − 1) + (1 − (1 − α)^{n+1})/α) B]', () => {
    const fit = fitTheta(series, 'theta');
    expect(fit.theta).toBe(2);
    const { alpha, n } = fit;
    const { level, a, b } = fit.final;
    const f = forecastTheta(fit, 4).mean;
    for (let h = 1; h <= 4; h++) {
      const expected =
        level + 0.5 * ((1 - alpha) ** n * a + (h - 1 + (1 - (1 - alpha) ** (n + 1)) / alpha) * b);
      expect(f[h - 1]).toBeCloseTo(expected, 10);
    }
  });

  it('the optimised variants fit θ ≥ 1 and follow a trend', () => {
    for (const variant of ['otm', 'dotm'] as const) {
      const fit = fitTheta(series, variant);
      expect(fit.theta).toBeGreaterThanOrEqual(1);
      const f = forecastTheta(fit, 3).mean;
      expect(f[2]!).toBeGreaterThan(30);
      expect(f[2]!).toBeLessThan(42);
    }
  });
});
