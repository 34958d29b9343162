import { describe, expect, it } from 'vitest';
import { aggregatePeriods, fixDecisions, HORIZON_PERIOD, mergeValues, splitByPeriod } from './decompose';
import { HAND_INSTANCE } from './hand-instance';
import { buildModel, enumerateVariables } from './model';
import type { NetworkInstance } from './network';

/** The hand instance over two months: 100 units in January, 40 in February. */
const TWO_MONTHS: NetworkInstance = {
  ...HAND_INSTANCE,
  periods: [
    { key: '2026-01', months: 1 },
    { key: '2026-02', months: 1 },
  ],
  demand: [
    { region: 'R', family: 'F', period: '2026-01', units: 100 },
    { region: 'R', family: 'F', period: '2026-02', units: 40 },
  ],
};

describe('aggregatePeriods', () => {
  it('sums demand into one period of the horizon length, so capacities and fixed costs cover both months', () => {
    const aggregated = aggregatePeriods(TWO_MONTHS);
    expect(aggregated.periods).toEqual([{ key: HORIZON_PERIOD, months: 2 }]);
    expect(aggregated.demand).toEqual([{ region: 'R', family: 'F', period: HORIZON_PERIOD, units: 140 }]);
    const { lp } = buildModel(aggregated);
    // Plant A: 60 a month → 120; DC1: fixed $50 a month → $100.
    expect(lp).toContain(' cap0: x_0_0_0_0 + x_0_1_0_0 <= 120');
    expect(lp).toContain('+ 100 y_0');
  });
});

describe('fixDecisions, splitByPeriod and mergeValues', () => {
  it('gives one LP per period and maps their columns back onto the full model', () => {
    const fixed = fixDecisions(TWO_MONTHS, new Set([1]));
    expect(fixed.dcs.map((dc) => dc.decision)).toEqual(['open', 'closed']);
    const parts = splitByPeriod(fixed).map((period) => ({ period, built: buildModel(period) }));
    expect(parts.map((p) => [p.period.periods[0]!.key, p.built.size.integers])).toEqual([
      ['2026-01', 0],
      ['2026-02', 0],
    ]);
    // Each period's model names its only period 0; the full model names February 1.
    const january = new Map([
      ['x_0_0_0_0', 60],
      ['x_1_0_0_0', 40],
      ['z_0_0_0_0', 100],
      ['y_0', 1],
    ]);
    const february = new Map([
      ['x_0_0_0_0', 40],
      ['z_0_0_0_0', 40],
      ['y_0', 1],
    ]);
    const full = enumerateVariables(fixed);
    const values = mergeValues(full, [
      { variables: parts[0]!.built.variables, values: january },
      { variables: parts[1]!.built.variables, values: february },
    ]);
    expect(Object.fromEntries(values)).toEqual({
      x_0_0_0_0: 60,
      x_1_0_0_0: 40,
      z_0_0_0_0: 100,
      x_0_0_0_1: 40,
      z_0_0_0_1: 40,
      y_0: 1,
    });
  });
});
