import { describe, expect, it } from 'vitest';
import {
  arimaName,
  autoArima,
  coefficientsFromPacf,
  differencingOrder,
  fitArima,
  hasRootsOutside,
  forecastArima,
  kpssStatistic,
  pacfFromCoefficients,
  type ArimaFit,
} from './arima';

/** A fixed pseudo-random N(0, 1) sequence (LCG + Box–Muller), so the tests are deterministic. */
function noise(count: number, seed = 7): number[] {
  let state = seed;
  const uniform = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state + 0.5) / 2147483648;
  };
  return Array.from(
    { length: count },
    () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()),
  );
}

describe('ARIMA by conditional sum of squares (R arima(method = "CSS"))', () => {
  it('fits AR(1) with a mean as the least-squares line of y_t on y_{t−1} (worked by hand)', () => {
    // Pairs (y_{t−1}, y_t): (1,3) (3,2) (2,4) (4,3) (3,5); x̄ = 2.6, ȳ = 3.4, Sxx = 5.2, Sxy = −0.2,
    // so φ = −1/26, c = ȳ − φx̄ = 3.5, μ = c / (1 − φ) = 91/27; SSE = Syy − Sxy²/Sxx = 5.2 − 0.04/5.2.
    const fit = fitArima([1, 3, 2, 4, 3, 5], { p: 1, d: 0, q: 0, hasConstant: true })!;
    expect(fit.ar[0]).toBeCloseTo(-1 / 26, 4);
    expect(fit.constant).toBeCloseTo(91 / 27, 4);
    const sse = 5.2 - 0.04 / 5.2;
    // σ² = SSE / (n − p); −2 log L = (n − d)(ln σ² + 1 + ln 2π) with n − d = 6.
    expect(fit.sigma2).toBeCloseTo(sse / 5, 6);
    expect(fit.likelihood).toBeCloseTo(6 * (Math.log(sse / 5) + 1 + Math.log(2 * Math.PI)), 5);
    // ŷ_{n+1} = c + φ·y_n = 3.5 − 5/26; ŷ_{n+2} = c + φ·ŷ_{n+1}; var_2 = σ²(1 + φ²).
    const f = forecastArima(fit, 2);
    expect(f.mean[0]).toBeCloseTo(3.5 - 5 / 26, 3);
    expect(f.mean[1]).toBeCloseTo(3.5 + (-1 / 26) * (3.5 - 5 / 26), 3);
    expect(f.sd[1]).toBeCloseTo(Math.sqrt((sse / 5) * (1 + 1 / 676)), 4);
  });

  it('random walk with drift, ARIMA(0,1,0): ŷ_{n+h} = y_n + h·mean(Δy), var_h = h·σ² (FPP3 §5.2)', () => {
    const values = [10, 12, 11, 15, 16, 15, 19, 20];
    // Δy = 2, −1, 4, 1, −1, 4, 1: mean 10/7, Σ(Δy − mean)² = 24.857…; σ² = that / 7.
    const fit = fitArima(values, { p: 0, d: 1, q: 0, hasConstant: true })!;
    expect(fit.constant).toBeCloseTo(10 / 7, 5);
    const diffs = [2, -1, 4, 1, -1, 4, 1];
    const sigma2 = diffs.reduce((t, v) => t + (v - 10 / 7) ** 2, 0) / 7;
    expect(fit.sigma2).toBeCloseTo(sigma2, 6);
    const f = forecastArima(fit, 3);
    f.mean.forEach((v, j) => expect(v).toBeCloseTo(20 + ((j + 1) * 10) / 7, 5));
    f.sd.forEach((v, j) => expect(v).toBeCloseTo(Math.sqrt((j + 1) * sigma2), 5));
    expect(arimaName(fit.order)).toBe('ARIMA(0,1,0) with drift');
  });

  it('ARIMA(0,1,1) forecasts flat with var_h = σ²(1 + (h − 1)(1 + θ)²) (Box & Jenkins; SES equivalence)', () => {
    const fit: ArimaFit = {
      order: { p: 0, d: 1, q: 1, hasConstant: false },
      ar: [],
      ma: [-0.6],
      constant: 0,
      sigma2: 4,
      likelihood: 0,
      aicc: 0,
      values: [100, 104, 101],
      residuals: [2.5],
    };
    const f = forecastArima(fit, 4);
    // ŷ = y_n + θ·e_n = 101 − 0.6·2.5 at every step.
    f.mean.forEach((v) => expect(v).toBeCloseTo(99.5, 12));
    f.sd.forEach((v, j) => expect(v).toBeCloseTo(Math.sqrt(4 * (1 + j * 0.16)), 12));
  });

  it('maps partial autocorrelations to AR coefficients by Durbin–Levinson', () => {
    // AR(2) with φ1 = 0.5, φ2 = 0.2: ρ1 = φ1/(1 − φ2) = 0.625, partial autocorrelations 0.625 and 0.2;
    // back: φ2 = 0.2, φ1 = 0.625 − 0.2·0.625 = 0.5.
    const [phi1, phi2] = coefficientsFromPacf([0.625, 0.2]);
    expect(phi1).toBeCloseTo(0.5, 12);
    expect(phi2).toBeCloseTo(0.2, 12);
    const pacf = pacfFromCoefficients([0.5, 0.2]);
    expect(pacf[0]).toBeCloseTo(0.625, 12);
    expect(pacf[1]).toBeCloseTo(0.2, 12);
  });
});

describe('the root guard of auto.arima (no root within 1.01 of the unit circle)', () => {
  it('accepts AR(1) φ = 0.99 (root 1/0.99 = 1.0101) and rejects φ = 0.995 (root 1.005)', () => {
    expect(hasRootsOutside([0.99], 1.01)).toBe(true);
    expect(hasRootsOutside([0.995], 1.01)).toBe(false);
  });

  it('checks every root of a higher-order polynomial', () => {
    // (1 − 0.5z)(1 − 0.995z) = 1 − 1.495z + 0.4975z²: roots 2 and 1.005.
    expect(hasRootsOutside([1.495, -0.4975], 1.01)).toBe(false);
    expect(hasRootsOutside([1.495, -0.4975], 1)).toBe(true);
    // (1 − 0.5z)(1 − 0.9z) = 1 − 1.4z + 0.45z²: roots 2 and 1.11.
    expect(hasRootsOutside([1.4, -0.45], 1.01)).toBe(true);
  });
});

describe('KPSS and the choice of d (forecast::ndiffs)', () => {
  it('computes the statistic with the Bartlett long-run variance (worked by hand)', () => {
    // n = 6, l = ⌊3√6 / 13⌋ = 0; e = ±2.5, ±1.5, ±0.5: s² = Σe² / n = 17.5 / 6; the partial sums
    // −2.5, −4, −4.5, −4, −2.5, 0 have squares totalling 64.75; 64.75 / (36 · 17.5 / 6) = 0.617 > 0.463.
    expect(kpssStatistic([1, 2, 3, 4, 5, 6])).toBeCloseTo(64.75 / 105, 12);
    // n = 100, l = 2: the Bartlett weights 2/3 and 1/3 enter (checked against the direct formula).
    const e = noise(100).map((v, t) => v + 0.02 * t);
    const mean = e.reduce((a, b) => a + b, 0) / 100;
    const c = e.map((v) => v - mean);
    const gamma = (k: number): number => c.slice(k).reduce((t, v, i) => t + v * c[i]!, 0) / 100;
    const s2 = gamma(0) + 2 * ((2 / 3) * gamma(1) + (1 / 3) * gamma(2));
    let partial = 0;
    const eta = c.reduce((t, v) => t + (partial += v) ** 2, 0) / 100 ** 2;
    expect(kpssStatistic(e)).toBeCloseTo(eta / s2, 12);
  });

  it('differences a trend or a random walk once, a stationary series not at all', () => {
    const e = noise(200);
    expect(differencingOrder(e)).toBe(0);
    let walk = 0;
    expect(differencingOrder(e.map((v) => (walk += v)))).toBe(1);
    expect(differencingOrder(e.map((v, t) => 0.5 * t + v))).toBe(1);
  });
});

describe('auto-ARIMA (Hyndman & Khandakar 2008, stepwise by AICc)', () => {
  it('finds a stationary autoregression and forecasts back towards its mean', () => {
    const e = noise(300, 11);
    const values: number[] = [];
    let x = 0;
    for (const v of e) values.push(50 + (x = 0.7 * x + v));
    const fit = autoArima(values)!;
    expect(fit.order.d).toBe(0);
    expect(fit.order.hasConstant).toBe(true);
    expect(fit.order.p).toBeGreaterThanOrEqual(1);
    expect(fit.constant).toBeGreaterThan(49);
    expect(fit.constant).toBeLessThan(51);
    const f = forecastArima(fit, 40).mean;
    expect(Math.abs(f[39]! - fit.constant)).toBeLessThan(0.1);
  });

  it('keeps the drift of a trending random walk', () => {
    const e = noise(150, 3);
    let y = 100;
    const values = e.map((v) => (y += 2 + v));
    const fit = autoArima(values)!;
    expect(fit.order.d).toBe(1);
    const f = forecastArima(fit, 10).mean;
    expect(f[9]! - values[values.length - 1]!).toBeGreaterThan(10);
  });
});
