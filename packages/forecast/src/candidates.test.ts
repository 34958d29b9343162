import { describe, expect, it } from 'vitest';
import { forecastCandidates } from './candidates';

describe.each(['ets-log', 'dotm-log'] as const)('%s: the model on the log scale', (model) => {
  it('continues exponential growth: a straight line on the log scale', () => {
    // y_t = 100·1.02^t with a small alternating wiggle; on the log scale a linear trend, so the
    // back-transformed forecast (FPP3 §5.6, median exp(μ)) is 100·1.02^(40 + j): 220.80, 225.22.
    const values = Array.from({ length: 40 }, (_, t) => 100 * 1.02 ** t * (t % 2 === 0 ? 1.001 : 0.999));
    const [f] = forecastCandidates({ values, horizon: 2, seasonLength: 52, models: [model] });
    expect(f!.model).toBe(model);
    expect(f!.mean[0]! / (100 * 1.02 ** 40)).toBeCloseTo(1, 2);
    expect(f!.mean[1]! / (100 * 1.02 ** 41)).toBeCloseTo(1, 2);
    // Delta method: the spread is exp(μ)·σ_log, small here and growing with the horizon.
    expect(f!.sd[0]!).toBeGreaterThan(0);
    expect(f!.sd[0]!).toBeLessThan(0.02 * f!.mean[0]!);
    expect(f!.sd[1]!).toBeGreaterThan(f!.sd[0]!);
  });

  it('is left out for data with zeros or negatives', () => {
    const values = Array.from({ length: 40 }, (_, t) => (t % 5 === 0 ? 0 : 10 + t));
    expect(
      forecastCandidates({ values, horizon: 2, seasonLength: 52, models: ['ets-log', 'ets'] }).map(
        (f) => f.model,
      ),
    ).toEqual(['ets']);
  });
});

describe.each(['arima', 'arima-log', 'adida', 'mapa'] as const)(
  '%s on a seasonally adjusted series',
  (model) => {
    it('follows the level of a noisy series with yearly seasonality', () => {
      // 100 + 20·sin(2πt/52.18) with a ±3 wiggle: after the adjustment a flat level near 100, so the
      // re-seasonalised forecast stays within a few units of the seasonal curve.
      const curve = (t: number): number => 100 + 20 * Math.sin((2 * Math.PI * t) / 52.18);
      const values = Array.from({ length: 260 }, (_, t) => curve(t) + (t % 3) * 3 - 3);
      const [f] = forecastCandidates({
        values,
        horizon: 13,
        seasonLength: 52.18,
        seasonalHarmonics: 13,
        models: [model],
      });
      expect(f!.model).toBe(model);
      f!.mean.forEach((v, j) => expect(Math.abs(v - curve(260 + j))).toBeLessThan(5));
      f!.sd.forEach((v) => expect(v).toBeGreaterThan(0));
    });
  },
);
