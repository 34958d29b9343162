import { describe, expect, it } from 'vitest';
import {
  COMPARISON_ROWS,
  comparisonValue,
  ctcSummary,
  trackerRows,
  type WorksheetQuarter,
} from './worksheet';

const money = (revenue: number, cost: number) => ({ revenue, cost });
const quarter = (q: string, final: number, p1: number, marketing: number | null): WorksheetQuarter => ({
  quarter: q,
  coverage: { weeks: 13, of: 13 },
  actualBooking: null,
  prelimDemandPlan: money(final * 0.9, final * 0.45),
  finalDemandPlan: money(final, final / 2),
  marketingForecast: marketing === null ? null : money(marketing, marketing / 2),
  pubEnsembleForecast: money(final * 0.8, final * 0.4),
  p1FinalDemandPlan: money(p1, p1 / 2),
  p1MarketingForecast: marketing === null ? null : money(marketing * 1.1, marketing * 0.55),
});

describe('plan comparison rows', () => {
  const q = quarter('2026-Q2', 1000, 800, 1250);
  const value = (key: string, measure: 'revenue' | 'cost' = 'revenue') =>
    comparisonValue(
      q,
      COMPARISON_ROWS.find((r) => r.key === key)!,
      measure,
    );
  it('values, dollar and percent deltas and margin', () => {
    expect(value('finalDemandPlan')).toBe(1000);
    expect(value('deltaFinalToPrelim')).toBe(100); // 1000 − 900
    expect(value('deltaPctFinalToPrelim')).toBe(11); // 100 / 900 = 11.1 %
    expect(value('marginPct')).toBe(50);
    expect(value('deltaFinalToMarketing', 'cost')).toBe(-125); // 500 − 625
    expect(value('deltaPctFinalToMarketing')).toBe(-20);
    expect(value('deltaFinalToP1Final')).toBe(200);
    expect(value('deltaPctP1FinalToP1Marketing')).toBe(-42); // (800 − 1375) / 1375 = −41.8 %
    expect(value('actualBooking')).toBeNull();
  });
  it('lists the spec rows in order', () => {
    expect(COMPARISON_ROWS).toHaveLength(18);
    expect(COMPARISON_ROWS[0].key).toBe('actualBooking');
    expect(COMPARISON_ROWS[17].key).toBe('deltaPctP1FinalToP1Marketing');
  });
});

describe('CTC summary', () => {
  it('sums the current quarter and later ones', () => {
    const quarters = [
      quarter('2026-Q1', 5000, 5000, 1),
      quarter('2026-Q2', 1000, 800, 1250),
      quarter('2026-Q3', 500, 700, 250),
    ];
    const ctc = ctcSummary(quarters, '2026-Q2');
    // P0 = 1000 + 500, P1 = 800 + 700
    expect(ctc.demandPlan.revenue).toEqual({ p0: 1500, p1: 1500, delta: 0, deltaPercent: 0 });
    expect(ctc.demandPlan.cost).toEqual({ p0: 750, p1: 750, delta: 0, deltaPercent: 0 });
    // marketing P0 = 1500, P1 = 1650: −150, −9 %
    expect(ctc.marketingPlan?.revenue).toEqual({ p0: 1500, p1: 1650, delta: -150, deltaPercent: -9 });
  });
});

describe('delta tracker', () => {
  const cell = (quarter: string, finalUnits: number, finalRev: number, p1Units: number, p1Rev: number) => ({
    bu: 'Pumps',
    pud: 'EMEA',
    pf: 'Gear',
    quarter,
    finalUnits,
    final: money(finalRev, finalRev / 4),
    p1Units,
    p1: money(p1Rev, p1Rev / 4),
    marketing: money(finalRev + 10, 0),
  });
  it('sums the chosen quarters, per-unit changes included', () => {
    const cells = [cell('2026-Q1', 10, 100, 10, 90), cell('2026-Q2', 30, 330, 20, 200)];
    // all: final 430 / 40 units = 10.75; P1 290 / 30 = 9.66667 → ASP change 1.08333
    expect(trackerRows(cells, null)).toEqual([
      {
        bu: 'Pumps',
        pud: 'EMEA',
        pf: 'Gear',
        deltaP0ToP1UnitCost: 0.27083, // 107.5 / 40 − 72.5 / 30 = 2.6875 − 2.41667
        deltaP0ToP1UnitPrice: 1.08333,
        deltaP0P1DemandPlanCost: 35,
        deltaP0P1DemandPlanRev: 140,
        deltaMarketingPlanCost: 107.5, // marketing cost 0
        deltaMarketingPlanRev: -20,
      },
    ]);
    expect(trackerRows(cells, ['2026-Q1'])[0]?.deltaP0P1DemandPlanRev).toBe(10);
    expect(trackerRows(cells, [])).toEqual([]);
  });
});
