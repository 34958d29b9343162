import { describe, expect, it } from 'vitest';
import { derivePlan, moneyOf } from './plan-chain';

const base = {
  ensembleUnits: 100,
  revOverridePercent: null,
  revOverrideUnits: null,
  sopOverridePercent: null,
  sopOverrideUnits: null,
  unitCost: 2.5,
  unitPrice: 4,
};

describe('derivePlan', () => {
  it('passes the baseline through when nothing is overridden', () => {
    expect(derivePlan(base)).toEqual({
      prelimUnits: 100,
      prelimCost: 250,
      prelimRevenue: 400,
      finalUnits: 100,
      finalCost: 250,
      finalRevenue: 400,
      deltaUnits: 0,
      deltaCost: 0,
      deltaRevenue: 0,
    });
  });

  it('applies percent overrides in turn, rounding units', () => {
    // prelim = round(100 × 1.10) = 110; final = round(110 × 1.05) = round(115.5) = 116
    const plan = derivePlan({ ...base, revOverridePercent: 10, sopOverridePercent: 5 });
    expect(plan.prelimUnits).toBe(110);
    expect(plan.finalUnits).toBe(116);
    expect(plan.deltaUnits).toBe(6);
    expect(plan.prelimCost).toBe(275); // 110 × 2.5
    expect(plan.finalRevenue).toBe(464); // 116 × 4
    expect(plan.deltaCost).toBe(15); // 6 × 2.5
    expect(plan.deltaRevenue).toBe(24); // 6 × 4
  });

  it('lets units overrides win over percents at each step', () => {
    const plan = derivePlan({
      ...base,
      revOverridePercent: 50,
      revOverrideUnits: 80,
      sopOverridePercent: 10,
    });
    expect(plan.prelimUnits).toBe(80);
    expect(plan.finalUnits).toBe(88);
    const sopUnits = derivePlan({
      ...base,
      revOverrideUnits: 80,
      sopOverridePercent: 10,
      sopOverrideUnits: 50,
    });
    expect(sopUnits.finalUnits).toBe(50);
    expect(sopUnits.deltaUnits).toBe(-30);
    expect(sopUnits.deltaRevenue).toBe(-120);
  });

  it('rounds money to cents', () => {
    const plan = derivePlan({ ...base, ensembleUnits: 3, unitCost: 0.333, unitPrice: 1.005 });
    expect(plan.prelimCost).toBe(1); // 0.999 → 1.00
    expect(plan.prelimRevenue).toBe(3.02); // 3 × 1.005 = 3.015 → 3.02, half up despite binary 3.01499…
  });

  it('leaves the plan empty without a baseline unless units are given', () => {
    expect(derivePlan({ ...base, ensembleUnits: null }).finalUnits).toBeNull();
    expect(derivePlan({ ...base, ensembleUnits: null }).deltaUnits).toBeNull();
    expect(derivePlan({ ...base, ensembleUnits: null, sopOverrideUnits: 7 }).finalUnits).toBe(7);
    expect(derivePlan({ ...base, ensembleUnits: null, sopOverrideUnits: 7 }).deltaUnits).toBeNull();
  });
});

describe('moneyOf', () => {
  it('values units at a unit amount, rounded half up to cents', () => {
    expect(moneyOf(3, 1.005)).toBe(3.02);
    expect(moneyOf(7, 12.5)).toBe(87.5);
    expect(moneyOf(0, 9.99)).toBe(0);
  });

  it('is no money when there are no units', () => {
    expect(moneyOf(null, 9.99)).toBeNull();
  });
});
