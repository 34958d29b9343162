import { describe, expect, it } from 'vitest';
import {
  centredMovingAverage,
  classicalSeasonalIndices,
  deseasonalize,
  integerPeriod,
  isSeasonal,
  reseasonalize,
  seasonalAdjustment,
} from './seasonality';

/** Deterministic noise (a linear congruential generator) so tests never flake. */
function noise(n: number, seed = 1): number[] {
  let state = seed;
  return Array.from({ length: n }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
}

describe('seasonality', () => {
  it('rounds the weekly period 52.18 to 52', () => {
    expect(integerPeriod(52.18)).toBe(52);
  });
  it('centred 2×m moving average reproduces a straight line (Hyndman & Athanasopoulos, FPP3 §3.3)', () => {
    const line = Array.from({ length: 10 }, (_, t) => 3 + 2 * t);
    const ma = centredMovingAverage(line, 4);
    expect(ma[0]).toBeNaN();
    expect(ma[1]).toBeNaN();
    for (let t = 2; t < 8; t++) expect(ma[t]).toBeCloseTo(line[t]!, 12);
    expect(ma[8]).toBeNaN();
  });
  it('recovers exact multiplicative indices from a pure seasonal pattern', () => {
    const pattern = [0.5, 1, 1.5, 1];
    const values = Array.from({ length: 16 }, (_, t) => 10 * pattern[t % 4]!);
    const indices = classicalSeasonalIndices(values, 4, 'multiplicative');
    indices.forEach((s, i) => expect(s).toBeCloseTo(pattern[i]!, 12));
  });
  it('flags a seasonal series and not white noise (M4 test at lag m)', () => {
    const e = noise(120);
    const seasonal = e.map((v, t) => 100 + 10 * Math.sin((2 * Math.PI * t) / 12) + v);
    expect(isSeasonal(seasonal, 12)).toBe(true);
    expect(
      isSeasonal(
        e.map((v) => 100 + v),
        12,
      ),
    ).toBe(false);
    // Fewer than three cycles: never seasonal.
    expect(isSeasonal(seasonal.slice(0, 30), 12)).toBe(false);
  });
  it('deseasonalises and reseasonalises back to the original values', () => {
    const e = noise(60, 7);
    const values = e.map((v, t) => 50 + 8 * Math.cos((2 * Math.PI * t) / 12) + v);
    const adjustment = seasonalAdjustment(values, 12);
    expect(adjustment.kind).toBe('multiplicative');
    const adjusted = deseasonalize(values, adjustment);
    reseasonalize(adjusted, adjustment, 0).forEach((v, t) => expect(v).toBeCloseTo(values[t]!, 10));
  });
  it('fits Fourier terms on the exact fractional period 52.18', () => {
    const values = Array.from(
      { length: 5 * 52 },
      (_, t) => 100 * (1 + 0.2 * Math.sin((2 * Math.PI * t) / 52.18)),
    );
    const adjustment = seasonalAdjustment(values, 52.18, { harmonics: 3 });
    expect(adjustment.fourier).toBeDefined();
    expect(adjustment.fourier!.sin[0]).toBeCloseTo(0.2, 2);
    // The adjusted series is flat and the pattern continues past the data at the right phase.
    const adjusted = deseasonalize(values, adjustment);
    adjusted.slice(60, 200).forEach((v) => expect(v).toBeCloseTo(100, 0));
    const t = 5 * 52 + 10;
    expect(reseasonalize([100], adjustment, t)[0]).toBeCloseTo(
      100 * (1 + 0.2 * Math.sin((2 * Math.PI * t) / 52.18)),
      0,
    );
  });

  it('uses additive indices when some values are not positive', () => {
    const values = Array.from({ length: 48 }, (_, t) => 20 * Math.sin((2 * Math.PI * t) / 12));
    expect(seasonalAdjustment(values, 12).kind).toBe('additive');
  });
});
