import { describe, expect, it } from 'vitest';
import { fitCes, forecastCes, isCesStable } from './ces';

// Svetunkov, Kourentzes & Ord, "Complex exponential smoothing", NRL 69 (2022), eq. (11) and §3.
describe('CES', () => {
  it('forecasts by the transition ℓ′ = ℓ − (1 − a1)c, c′ = ℓ + (1 − a0)c (worked by hand)', () => {
    const f = forecastCes({ a0: 1, a1: 0.5, sigma2: 1, level: 10, potential: 5 }, 3);
    expect(f.mean).toEqual([10, 7.5, 2.5]);
    // var_2 = σ²(1 + (w'g)²) with w'g = a0 − a1 = 0.5.
    expect(f.sd[1]).toBeCloseTo(Math.sqrt(1.25), 12);
  });

  it('checks stability through the eigenvalues of D = F − g·w′', () => {
    expect(isCesStable(1.2, 0.8)).toBe(true); // eigenvalues 0.8 and −0.4
    expect(isCesStable(1, 1)).toBe(false); // eigenvalue 1: errors never fade
    expect(isCesStable(0.01, 1.9)).toBe(false);
  });

  it('fits a stable model that tracks a level series', () => {
    const values = Array.from({ length: 40 }, (_, t) => 50 + Math.sin(t * 1.7) * 2);
    const fit = fitCes(values);
    expect(isCesStable(fit.a0, fit.a1)).toBe(true);
    const f = forecastCes(fit, 5).mean;
    f.forEach((v) => expect(Math.abs(v - 50)).toBeLessThan(4));
  });
});
