import { describe, expect, it } from 'vitest';
import {
  DAMPED_SPEC,
  HOLT_SPEC,
  SES_SPEC,
  autoEts,
  etsLikelihood,
  fitEts,
  forecastEts,
  type EtsFit,
  type EtsParameters,
  type EtsSpec,
} from './ets';

/** Recursions worked by hand from Hyndman et al., *Forecasting with Exponential Smoothing* (2008), Table 2.2. */
const params = (p: Partial<EtsParameters>): EtsParameters => ({
  alpha: 0.5,
  beta: 0,
  gamma: 0,
  phi: 1,
  level: 0,
  slope: 0,
  seasonal: [],
  ...p,
});

function fitFrom(values: number[], spec: EtsSpec, p: EtsParameters, sigma2 = 1): EtsFit {
  const final = { level: 0, slope: 0, seasonal: [] as number[], n: 0, sse: 0 };
  const likelihood = etsLikelihood(values, spec, p, final);
  return { spec, parameters: p, likelihood, aicc: 0, sigma2, final };
}

describe('ETS recursions', () => {
  it('SES, ETS(A,N,N): ℓ_t = ℓ_{t−1} + α·e_t', () => {
    // ŷ = 10, 10, 11; e = 0, 2, 0; ℓ = 10, 11, 11.
    const fit = fitFrom([10, 12, 11], SES_SPEC, params({ level: 10 }));
    expect(fit.likelihood).toBeCloseTo(3 * Math.log(4), 12);
    expect(fit.final.level).toBe(11);
    const f = forecastEts(fit, 3, 'ses');
    expect(f.mean).toEqual([11, 11, 11]);
    // var_h = σ²(1 + (h − 1)α²) (Table 6.1, class 1).
    expect(f.sd[2]).toBeCloseTo(Math.sqrt(1 + 2 * 0.25), 12);
  });

  it('Holt, ETS(A,A,N): b_t = b_{t−1} + β·e_t', () => {
    // ℓ0 = 9, b0 = 1, α = 0.5, β = 0.25: ŷ = 10, 11, 12.75; ℓ3 = 12.875, b3 = 1.3125.
    const fit = fitFrom([10, 12, 13], HOLT_SPEC, params({ beta: 0.25, level: 9, slope: 1 }));
    expect(fit.final.level).toBeCloseTo(12.875, 12);
    expect(fit.final.slope).toBeCloseTo(1.3125, 12);
    expect(fit.likelihood).toBeCloseTo(3 * Math.log(1.0625), 12);
    expect(forecastEts(fit, 2, 'holt').mean).toEqual([14.1875, 15.5]);
  });

  it('damped trend forecasts ℓ + (φ + … + φ^h)·b', () => {
    const fit = fitFrom([10, 12, 13], DAMPED_SPEC, params({ beta: 0.25, phi: 0.9, level: 9, slope: 1 }));
    const { level, slope } = fit.final;
    const f = forecastEts(fit, 3, 'damped').mean;
    expect(f[0]).toBeCloseTo(level + 0.9 * slope, 12);
    expect(f[2]).toBeCloseTo(level + (0.9 + 0.81 + 0.729) * slope, 12);
  });

  it('ETS(M,N,N) adds 2·Σ ln|ŷ| to the likelihood and uses relative errors', () => {
    const spec: EtsSpec = { error: 'M', trend: 'N', season: 'N', period: 1 };
    // ŷ = 10, 10, 11; e = 0, 0.2, 0.
    const fit = fitFrom([10, 12, 11], spec, params({ level: 10 }));
    expect(fit.likelihood).toBeCloseTo(3 * Math.log(0.04) + 2 * (2 * Math.log(10) + Math.log(11)), 10);
  });

  it('additive seasonal ETS(A,N,A) updates s_t = s_{t−m} + γ·e_t', () => {
    const spec: EtsSpec = { error: 'A', trend: 'N', season: 'A', period: 2 };
    // ℓ0 = 10, s = [−1, 1], α = 0.5, γ = 0.2, y = 10: ŷ = 9, e = 1, ℓ = 10.5, s0 = −0.8.
    const fit = fitFrom([10], spec, params({ gamma: 0.2, level: 10, seasonal: [-1, 1] }));
    expect(fit.final.level).toBeCloseTo(10.5, 12);
    expect(fit.final.seasonal[0]).toBeCloseTo(-0.8, 12);
    expect(forecastEts(fit, 2).mean).toEqual([11.5, 9.7]);
  });
});

describe('ETS fitting and selection', () => {
  it('SES on a constant series forecasts the constant', () => {
    const fit = fitEts(new Array<number>(30).fill(7), SES_SPEC)!;
    forecastEts(fit, 4).mean.forEach((v) => expect(v).toBeCloseTo(7, 6));
  });

  it('Holt on a straight line continues it', () => {
    const line = Array.from({ length: 30 }, (_, t) => 5 + 2 * t);
    const f = forecastEts(fitEts(line, HOLT_SPEC)!, 3).mean;
    expect(f[0]).toBeCloseTo(65, 3);
    expect(f[2]).toBeCloseTo(69, 3);
  });

  it('AICc picks a trend model for a trending series and no trend for noise around a level', () => {
    const wiggle = (t: number): number => Math.sin(t * 2.3) * 0.5;
    const trending = Array.from({ length: 60 }, (_, t) => 100 + 3 * t + wiggle(t));
    expect(autoEts(trending, 1, false)!.spec.trend).not.toBe('N');
    const flat = Array.from({ length: 60 }, (_, t) => 100 + 4 * wiggle(t));
    expect(autoEts(flat, 1, false)!.spec.trend).toBe('N');
  });

  it('refuses multiplicative models for data with non-positive values', () => {
    expect(
      fitEts([1, 0, 2, 3, 1, 2, 4, 2, 3, 1, 2], { error: 'M', trend: 'N', season: 'N', period: 1 }),
    ).toBeUndefined();
  });
});
