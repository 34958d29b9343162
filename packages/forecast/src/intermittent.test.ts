import { describe, expect, it } from 'vitest';
import { classifyDemand, croston, crostonWithAlpha, sba, tsb, tsbWithAlphas } from './intermittent';

describe('demand classification (Syntetos, Boylan & Croston 2005)', () => {
  it('puts series in the four quadrants of ADI 1.32 and CV² 0.49', () => {
    expect(classifyDemand([5, 5, 5, 5]).demandClass).toBe('smooth');
    expect(classifyDemand([1, 10, 1, 10]).demandClass).toBe('erratic'); // CV² = 20.25 / 30.25
    const intermittent = classifyDemand([0, 4, 0, 0, 6]);
    expect(intermittent.adi).toBe(2.5);
    expect(intermittent.cv2).toBeCloseTo(0.04, 12);
    expect(intermittent.demandClass).toBe('intermittent');
    expect(classifyDemand([0, 1, 0, 10, 0, 1]).demandClass).toBe('lumpy'); // ADI 2, CV² 1.125
  });
});

describe('Croston family', () => {
  // Worked by hand, α = 0.5: first demand 4 after an interval of 2; then 6 after 3 periods:
  // size 4 + 0.5·(6 − 4) = 5, interval 2 + 0.5·(3 − 2) = 2.5.
  const values = [0, 4, 0, 0, 6];
  it('Croston (1972) forecasts size / interval', () => {
    expect(crostonWithAlpha(values, 2, 0.5, 'croston').mean).toEqual([2, 2]);
  });
  it('SBA (Syntetos & Boylan 2005) multiplies by 1 − α/2', () => {
    expect(crostonWithAlpha(values, 1, 0.5, 'sba').mean[0]).toBeCloseTo(1.5, 12);
  });
  it('TSB (Teunter et al. 2011) decays the probability in periods without demand', () => {
    // p: 0.5 → 0.25 → 0.125 → 0.5625 (demand); size 4 → 5: forecast 2.8125.
    expect(tsbWithAlphas(values, 1, 0.5, 0.5).mean[0]).toBeCloseTo(2.8125, 12);
    // Long run of zeros at the end: TSB goes towards zero, Croston does not move.
    const dying = [3, 0, 4, 0, 0, 5, 0, 3, ...new Array<number>(20).fill(0)];
    expect(tsb(dying, 1).mean[0]!).toBeLessThan(croston(dying, 1).mean[0]!);
  });
  it('fitted SBA stays below fitted Croston with the same α range', () => {
    const demand = [0, 0, 3, 0, 5, 0, 0, 0, 4, 0, 2, 0, 0, 6, 0, 3];
    expect(sba(demand, 1).mean[0]!).toBeLessThan(croston(demand, 1).mean[0]! + 1e-9);
  });
});
