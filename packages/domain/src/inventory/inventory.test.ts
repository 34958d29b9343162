import { describe, expect, it } from 'vitest';
import {
  averageDemandInterval,
  coverExcess,
  coverSd,
  cycleServiceLevel,
  demandVolatility,
  fillRate,
  forecastErrorSd,
  inventoryTurnover,
  negativeBinomialQuantile,
  normalOul,
  oulLevels,
  optimizationScore,
  overridePercentFromUnits,
  overrideUnitsFromPercent,
  poissonQuantile,
  quantileOul,
  safetyStock,
  recommendedOul,
  recommendedServiceLevel,
  servedShareOf,
  servedShares,
  simulateOulPolicy,
  withNetworkSupply,
  supplyVariance,
  Z_VALUES,
} from './index';

describe('order-up-to levels from forecast quantiles', () => {
  it("adds the weeks' quantile excess like independent errors over the cover", () => {
    // δ = 3, 4 over two weeks: √(9 + 16) = 5. A third week repeats the last: √(9 + 16 + 16) = √41.
    expect(coverExcess([3, 4], 2)).toBeCloseTo(5, 12);
    expect(coverExcess([3, 4], 3)).toBeCloseTo(Math.sqrt(41), 12);
    // Half a week counts half of δ²: √(9 + 0.5·16) = √17.
    expect(coverExcess([3, 4], 1.5)).toBeCloseTo(Math.sqrt(17), 12);
    // A quantile below the forecast protects nothing.
    expect(coverExcess([-2, 4], 2)).toBeCloseTo(4, 12);
    expect(coverExcess([], 4)).toBe(0);
  });

  it('OUL = μ(L+R) + √((share·excess)² + (zμσ_L)²), rounded up', () => {
    // Product excess 10, 10, 10, 10 over L + R = 4 weeks: √400 = 20; a site serving half: 10.
    // μ = 5 at the site: 20 + 10 = 30.
    expect(quantileOul(5, [10, 10, 10, 10], 0.5, 4, Z_VALUES[95])).toBe(30);
    // σ_L = 0.5 week: lead part z·μ·σ_L = 1.6449·5·0.5 = 4.11225; √(100 + 16.9106) = 10.8125 → 30.81 → 31.
    expect(quantileOul(5, [10, 10, 10, 10], 0.5, 4, Z_VALUES[95], 0.5)).toBe(31);
    // Normal quantiles with a constant σ give back the normal formula: δ = z·σ = 1.6449·4.
    const z = Z_VALUES[95];
    expect(quantileOul(10, [z * 4, z * 4, z * 4, z * 4], 1, 4, z, 0.5)).toBe(normalOul(10, 4, 4, z, 0.5));
    expect(quantileOul(10, [1, 1], 1, 0, z)).toBe(0);
  });

  it('smooth items with quantiles use them; intermittent items keep the count distribution', () => {
    const excess = { 90: [5, 6, 7, 8], 95: [8, 9, 10, 11], 98: [12, 13, 14, 15] };
    const input = { avgDemand: 10, stdDemand: 4, leadTimeWeeks: 3, reviewPeriodWeeks: 1 };
    const levels = oulLevels({ ...input, intermittent: false, quantiles: { excess, share: 1 } });
    expect(levels.model).toBe('quantile');
    // 90: 40 + √(25 + 36 + 49 + 64) = 40 + 13.1909 → 54; 95: 40 + √(64+81+100+121) = 40 + 19.1311 → 60;
    // 98: 40 + √(144+169+196+225) = 40 + 27.0924 → 68.
    expect([levels.oul90, levels.oul95, levels.oul98]).toEqual([54, 60, 68]);
    const lumpy = oulLevels({
      ...input,
      avgDemand: 0.5,
      intermittent: true,
      quantiles: { excess, share: 1 },
    });
    expect(lumpy.model).toBe('negative-binomial');
    // Safety stock = OUL − μ(L+R): 60 − 40 = 20 against the normal formula's 54 − 40 = 14.
    expect(safetyStock(levels.oul95, 10, 4)).toBe(20);
    expect(safetyStock(normalOul(10, 4, 4, Z_VALUES[95]), 10, 4)).toBe(14);
  });
});

describe('order-up-to levels', () => {
  const smooth = { avgDemand: 10, stdDemand: 4, leadTimeWeeks: 3, reviewPeriodWeeks: 1, intermittent: false };
  // μ = 0.5, σ = 1: lumpy demand.
  const lumpy = { avgDemand: 0.5, stdDemand: 1, leadTimeWeeks: 3, reviewPeriodWeeks: 1, intermittent: true };

  it('normal: μ(L+R) + zσ√(L+R), rounded up to whole units', () => {
    // μ = 10, σ = 4, L + R = 4: 40 + z·4·2.
    expect(normalOul(10, 4, 4, Z_VALUES[90])).toBe(51); // 40 + 10.2528
    expect(normalOul(10, 4, 4, Z_VALUES[95])).toBe(54); // 40 + 13.1592
    expect(normalOul(10, 4, 4, Z_VALUES[98])).toBe(57); // 40 + 16.4296
    expect(normalOul(10, 0, 4, Z_VALUES[95])).toBe(40);
    expect(normalOul(10, 4, 0, Z_VALUES[95])).toBe(0);
  });

  it('lead-time variability: σ_total = √((L+R)σ_d² + μ_d²σ_L²)', () => {
    // μ = 10, σ = 4, L + R = 4, σ_L = 1.5 weeks: √(4·16 + 100·2.25) = √289 = 17.
    expect(coverSd(10, 4, 4, 1.5)).toBe(17);
    expect(coverSd(10, 4, 4)).toBe(8); // σ√(L+R) with a fixed lead time
    expect(normalOul(10, 4, 4, Z_VALUES[90], 1.5)).toBe(62); // 40 + 21.7872
    expect(normalOul(10, 4, 4, Z_VALUES[95], 1.5)).toBe(68); // 40 + 27.9633
    expect(normalOul(10, 4, 4, Z_VALUES[98], 1.5)).toBe(75); // 40 + 34.9129
    expect(oulLevels({ ...smooth, leadTimeSdWeeks: 1.5 })).toEqual({
      oul90: 62,
      oul95: 68,
      oul98: 75,
      model: 'normal',
    });
    // Intermittent: μ = 0.5, σ = 1, L + R = 4, σ_L = 2: mean 2, variance 4 + 0.25·4 = 5 →
    // negative binomial r = 4/3, q = 0.4; CDF …, 0.8771 (4), 0.9229 (5), 0.9519 (6), 0.9701, 0.9815 (8).
    expect(oulLevels({ ...lumpy, leadTimeSdWeeks: 2 })).toEqual({
      oul90: 5,
      oul95: 6,
      oul98: 8,
      model: 'negative-binomial',
    });
  });

  it('Poisson quantiles: mean 2', () => {
    // CDF: 0.1353, 0.4060, 0.6767, 0.8571, 0.9473, 0.9834
    expect(poissonQuantile(2, 0.9)).toBe(4);
    expect(poissonQuantile(2, 0.95)).toBe(5);
    expect(poissonQuantile(2, 0.98)).toBe(5);
    expect(poissonQuantile(0, 0.98)).toBe(0);
  });

  it('negative binomial quantiles: mean 2, variance 4 (r = 2, q = 0.5)', () => {
    // P(k) = (k+1)·0.25·0.5^k; CDF 0.25, 0.5, 0.6875, 0.8125, 0.8906, 0.9375, 0.9648, 0.9805
    expect(negativeBinomialQuantile(2, 4, 0.9)).toBe(5);
    expect(negativeBinomialQuantile(2, 4, 0.95)).toBe(6);
    expect(negativeBinomialQuantile(2, 4, 0.98)).toBe(7);
    // Variance not above the mean: Poisson.
    expect(negativeBinomialQuantile(2, 2, 0.95)).toBe(5);
  });

  it('picks the distribution by demand pattern', () => {
    expect(oulLevels(smooth)).toEqual({ oul90: 51, oul95: 54, oul98: 57, model: 'normal' });
    // μ = 0.5, σ = 1 over 4 weeks: mean 2, variance 4.
    expect(oulLevels(lumpy)).toEqual({ oul90: 5, oul95: 6, oul98: 7, model: 'negative-binomial' });
    // σ² = 0.5 = μ: over 4 weeks mean 2, variance 2 → Poisson.
    const steady = { ...lumpy, stdDemand: Math.sqrt(0.5) };
    expect(oulLevels(steady)).toEqual({ oul90: 4, oul95: 5, oul98: 5, model: 'poisson' });
    expect(averageDemandInterval([0, 3, 0, 0, 1, 0])).toBe(3);
    expect(averageDemandInterval([0, 0])).toBe(Infinity);
  });

  it('recommends by revenue class: A 98 %, B 95 %, C 90 %', () => {
    const levels = { oul90: 51, oul95: 54, oul98: 57, model: 'normal' as const };
    expect(recommendedServiceLevel('A')).toBe(98);
    expect(recommendedOul(levels, 'A')).toBe(57);
    expect(recommendedOul(levels, 'B')).toBe(54);
    expect(recommendedOul(levels, 'C')).toBe(51);
  });
});

describe('override rounding (spec §5)', () => {
  it('percent = units / recommended × 100 to one decimal, half up', () => {
    expect(overridePercentFromUnits(55, 48)).toBe(114.6); // 114.583…
    expect(overridePercentFromUnits(1, 16)).toBe(6.3); // 6.25
    expect(overridePercentFromUnits(5, 0)).toBe(0);
  });
  it('units = recommended × percent / 100, rounded', () => {
    expect(overrideUnitsFromPercent(114.6, 48)).toBe(55); // 55.008
    expect(overrideUnitsFromPercent(12.5, 4)).toBe(1); // 0.5
    expect(overrideUnitsFromPercent(150, 0)).toBe(0);
  });
});

describe('policy simulation', () => {
  it('raises the position to the OUL at each review; orders arrive L weeks later; shortfall is lost', () => {
    const weeks = simulateOulPolicy({
      demand: [5, 12, 5],
      oulAt: () => 10,
      leadTimeWeeks: 1,
      reviewPeriodWeeks: 1,
      initialOnHand: 10,
    });
    expect(weeks).toEqual([
      { demand: 5, receipts: 0, onHand: 5, lost: 0, ordered: 5 },
      { demand: 12, receipts: 5, onHand: 0, lost: 2, ordered: 10 },
      { demand: 5, receipts: 10, onHand: 5, lost: 0, ordered: 5 },
    ]);
  });
  it('an order arrives after the lead time drawn for it when lead times vary', () => {
    const weeks = simulateOulPolicy({
      demand: [5, 5, 5, 5],
      oulAt: () => 10,
      leadTimeWeeks: 1,
      // The order of week 0 is two weeks late (arrives at week 3), the later ones take one week.
      leadTimeOf: (week) => (week === 0 ? 3 : 1),
      reviewPeriodWeeks: 1,
      initialOnHand: 10,
    });
    // w0: 10−5 = 5, order 5 (due w3). w1: 5−5 = 0, position 0+5 → order 5 (due w2).
    // w2: +5 → 5−5 = 0, position 5 → order 5 (due w3). w3: +10 → 10−5 = 5, position 5 → order 5.
    expect(weeks.map((w) => [w.receipts, w.onHand, w.lost, w.ordered])).toEqual([
      [0, 5, 0, 5],
      [0, 0, 0, 5],
      [5, 0, 0, 5],
      [10, 5, 0, 5],
    ]);
  });
  it('reviews every R weeks and counts the pipeline in the position', () => {
    const weeks = simulateOulPolicy({
      demand: [4, 4, 4, 4],
      oulAt: () => 20,
      leadTimeWeeks: 2,
      reviewPeriodWeeks: 2,
      initialOnHand: 8,
      pipeline: [0, 6],
    });
    // w0: 8−4=4, position 4+6=10 → order 10 (due w2). w1: +6 → 10−4 = 6. w2: +10 → 16−4=12, position 12 → order 8.
    expect(weeks.map((w) => [w.receipts, w.onHand, w.ordered])).toEqual([
      [0, 4, 10],
      [6, 6, 0],
      [10, 12, 8],
      [0, 8, 0],
    ]);
  });
  it('σ from forecast error, the actuals’ spread without forecasts', () => {
    // Errors −1, 1, −3: √(11/3)
    expect(forecastErrorSd([10, 12, 8], [11, 11, 11])).toBeCloseTo(1.914854, 6);
    expect(forecastErrorSd([10, 12, 8], [null, null, null])).toBeCloseTo(2, 10);
    expect(forecastErrorSd([], [])).toBe(0);
  });
});

describe('metrics', () => {
  it('hand-checked ratios', () => {
    expect(inventoryTurnover(520, 100)).toBe(5.2);
    expect(inventoryTurnover(520, 0)).toBe(0);
    expect(cycleServiceLevel(200, 10)).toBe(95);
    expect(fillRate(200, 4)).toBe(98);
    expect(fillRate(0, 0)).toBe(100);
    expect(supplyVariance(110, 100)).toBeCloseTo(10, 10);
    expect(demandVolatility(25, 100)).toBe(25);
    expect(optimizationScore(3, 4)).toBe(75);
  });
});

describe('supply from the network plan', () => {
  it('serves each region × family × period the share the plan ships', () => {
    const shares = servedShares(
      [
        // 60 + 30 units of F1 reach EMEA in 2026-12 from two DCs; 10 are left unmet: 90 %.
        { region: 'EMEA', family: 'F1', period: '2026-12', units: 60 },
        { region: 'EMEA', family: 'F1', period: '2026-12', units: 30 },
        { region: 'APAC', family: 'F1', period: '2026-12', units: 40 },
      ],
      [
        { region: 'EMEA', family: 'F1', period: '2026-12', units: 10 },
        { region: 'LATAM', family: 'F2', period: '2026-12', units: 5 },
      ],
    );
    expect(servedShareOf(shares, { region: 'EMEA', family: 'F1', period: '2026-12' })).toBe(0.9);
    expect(servedShareOf(shares, { region: 'APAC', family: 'F1', period: '2026-12' })).toBe(1);
    expect(servedShareOf(shares, { region: 'LATAM', family: 'F2', period: '2026-12' })).toBe(0);
    expect(servedShareOf(shares, { region: 'EMEA', family: 'F1', period: '2027-01' })).toBeUndefined();
  });
  it('takes planned weeks’ supply from the plan and keeps the policy’s elsewhere', () => {
    const policy = [
      { demand: 15, receipts: 0, onHand: 5, lost: 0, ordered: 10 },
      { demand: 7, receipts: 10, onHand: 8, lost: 0, ordered: 7 },
      { demand: 12, receipts: 7, onHand: 3, lost: 0, ordered: 12 },
    ];
    // Week 0 at 90 %: round(13.5) = 14 supplied, 1 lost; week 1 at 100 %; week 2 outside the plan.
    const weeks = withNetworkSupply(policy, (w) => [0.9, 1, undefined][w]);
    expect(weeks.map((w) => [w.receipts, w.lost])).toEqual([
      [14, 1],
      [7, 0],
      [7, 0],
    ]);
  });
});
