import { describe, expect, it } from 'vitest';
import { diagnoseInstance } from './diagnose';
import { buildModel } from './model';
import { HAND_INSTANCE } from './hand-instance';
import type { NetworkInstance } from './network';
import { interpretSolution } from './result';
import { applyScenario, compareResults } from './scenario';

describe('buildModel', () => {
  it('writes the hand instance as an LP with the formulation of docs/optimisation.md', () => {
    const { lp, size, variables } = buildModel(HAND_INSTANCE);
    // x: 4 lanes × 1 family × 1 period; z: 2; u: 1; y: 2.
    expect(size).toEqual({ rows: 2 + 2 + 2 + 2 + 1, columns: 4 + 2 + 1 + 2, integers: 2 });
    expect(variables.inbound.map((v) => v.cost)).toEqual([2, 4, 4, 3]);
    expect(variables.outbound.map((v) => v.cost)).toEqual([1.5, 3]);
    expect(lp).toContain('Minimize\n cost: 2 x_0_0_0_0 + 4 x_0_1_0_0 + 4 x_1_0_0_0 + 3 x_1_1_0_0');
    expect(lp).toContain(' cap0: x_0_0_0_0 + x_0_1_0_0 <= 60');
    expect(lp).toContain(' bal0: x_0_0_0_0 + x_1_0_0_0 - z_0_0_0_0 = 0');
    expect(lp).toContain(' thr0: z_0_0_0_0 - 100 y_0 <= 0');
    expect(lp).toContain(' dem0: z_0_0_0_0 + z_1_0_0_0 + u_0_0_0 = 100');
    expect(lp).toContain('Binaries\n y_0 y_1\nEnd');
    expect(lp).toContain('+ 50 y_0\n   + 30 y_1');
  });

  it('fixes a DC forced open and leaves a closed one out of the model', () => {
    const instance = applyScenario(HAND_INSTANCE, [
      { kind: 'dc-decision', dcId: 2, decision: 'open' },
      { kind: 'dc-decision', dcId: 1, decision: 'closed' },
    ]);
    const { lp, size, variables } = buildModel(instance);
    expect(variables.excludedDcs.map((dc) => dc.name)).toEqual(['DC1']);
    expect(size.integers).toBe(0);
    expect(lp).toContain(' y_1 = 1');
    expect(lp).not.toContain('y_0');
    expect(lp).not.toContain('Binaries');
  });

  it('makes no unmet variable when unmet demand is not allowed', () => {
    const { lp } = buildModel({ ...HAND_INSTANCE, unmetPenaltyPerUnit: null });
    expect(lp).toContain(' dem0: z_0_0_0_0 + z_1_0_0_0 = 100');
    expect(lp).not.toContain('u_');
  });

  it('multiplies monthly capacity by the months of a quarter and fixed cost by the horizon', () => {
    const quarterly: NetworkInstance = {
      ...HAND_INSTANCE,
      periods: [{ key: '2026-Q1', months: 3 }],
      demand: [{ region: 'R', family: 'F', period: '2026-Q1', units: 250 }],
    };
    const { lp } = buildModel(quarterly);
    expect(lp).toContain('<= 180');
    expect(lp).toContain('- 300 y_0 <= 0');
    expect(lp).toContain('+ 150 y_0\n   + 90 y_1');
  });
});

describe('interpretSolution', () => {
  it('computes each cost component of the hand optimum from its flows', () => {
    const built = buildModel(HAND_INSTANCE);
    const result = interpretSolution(HAND_INSTANCE, built.variables, {
      status: 'optimal',
      objective: 480,
      mipGapPercent: 0,
      solveSeconds: 0.01,
      modelSize: built.size,
      values: new Map([
        ['x_0_0_0_0', 60],
        ['x_1_0_0_0', 40],
        ['z_0_0_0_0', 100],
        ['y_0', 1],
      ]),
    });
    // production 60·1 + 40·2; inbound 60·1 + 40·2; handling 100·0.5; outbound 100·1; fixed 50.
    expect(result.costs).toEqual({
      production: 140,
      inboundTransport: 140,
      handling: 50,
      outboundTransport: 100,
      fixed: 50,
      unmetPenalty: 0,
      total: 480,
    });
    expect(result.servicePercent).toBe(100);
    expect(result.dcs.map((dc) => [dc.name, dc.isOpen, dc.utilisationPercent])).toEqual([
      ['DC1', true, 100],
      ['DC2', false, 0],
    ]);
    expect(result.plants.map((p) => [p.name, p.productionUnits, p.utilisationPercent])).toEqual([
      ['Plant A', 60, 100],
      ['Plant B', 40, 40],
    ]);
    expect(result.flows).toHaveLength(3);
  });

  it('reports unmet demand and its penalty', () => {
    const built = buildModel(HAND_INSTANCE);
    const result = interpretSolution(HAND_INSTANCE, built.variables, {
      status: 'optimal',
      objective: 10 * 30 + 60 * 3.5 + 10 * 5.5 + 50,
      mipGapPercent: 0,
      solveSeconds: 0,
      modelSize: built.size,
      values: new Map([
        ['x_0_0_0_0', 60],
        ['x_1_0_0_0', 10],
        ['z_0_0_0_0', 70],
        ['u_0_0_0', 30],
        ['y_0', 1],
      ]),
    });
    expect(result.unmet).toEqual([{ region: 'R', family: 'F', period: '2026-01', units: 30 }]);
    expect(result.costs?.unmetPenalty).toBe(300);
    expect(result.servicePercent).toBe(70);
  });
});

describe('diagnoseInstance', () => {
  const strict = { ...HAND_INSTANCE, unmetPenaltyPerUnit: null };

  it('names a family whose plant capacity is below demand', () => {
    const short = { ...strict, demand: [{ region: 'R', family: 'F', period: '2026-01', units: 170 }] };
    expect(diagnoseInstance(short)).toBe(
      'Plant capacity for F in 2026-01 is 160 units, below the demand of 170 units, and unmet demand is not allowed.',
    );
  });

  it('names DC throughput below demand when DCs are closed', () => {
    const closed = applyScenario(strict, [{ kind: 'dc-throughput', dcId: 1, throughputPerMonth: 40 }]);
    const oneDc = applyScenario(closed, [{ kind: 'dc-decision', dcId: 2, decision: 'closed' }]);
    expect(diagnoseInstance(oneDc)).toBe(
      'DC throughput in 2026-01 is 40 units, below the demand of 100 units, and unmet demand is not allowed.',
    );
  });

  it('names a region no DC ships to', () => {
    const lonely = {
      ...strict,
      demand: [...strict.demand, { region: 'Q', family: 'F', period: '2026-01', units: 5 }],
    };
    expect(diagnoseInstance(lonely)).toMatch(/^No open or candidate DC ships to Q/);
  });

  it('says when the horizon holds no demand, and accepts a feasible instance', () => {
    expect(diagnoseInstance({ ...strict, periods: [{ key: '2027-01', months: 1 }] })).toMatch(/no demand/);
    expect(diagnoseInstance(strict)).toBeNull();
    expect(
      diagnoseInstance({ ...HAND_INSTANCE, demand: [{ ...HAND_INSTANCE.demand[0]!, units: 1e6 }] }),
    ).toBeNull();
  });
});

describe('applyScenario and compareResults', () => {
  it('scales demand of a region and family by a percentage', () => {
    const up = applyScenario(HAND_INSTANCE, [{ kind: 'demand', percent: 15, region: 'R', family: null }]);
    expect(up.demand[0]!.units).toBeCloseTo(115, 10);
    const cut = applyScenario(HAND_INSTANCE, [
      { kind: 'plant-capacity', plantId: 1, family: 'F', percent: -50 },
    ]);
    expect(cut.plants[0]!.families[0]!.capacityPerMonth).toBe(30);
  });

  it('compares cost components, DCs and the lane flows that moved', () => {
    const built = buildModel(HAND_INSTANCE);
    const solve = (values: Array<[string, number]>, objective: number) =>
      interpretSolution(HAND_INSTANCE, built.variables, {
        status: 'optimal',
        objective,
        mipGapPercent: 0,
        solveSeconds: 0,
        modelSize: built.size,
        values: new Map(values),
      });
    const base = solve(
      [
        ['x_0_0_0_0', 60],
        ['x_1_0_0_0', 40],
        ['z_0_0_0_0', 100],
        ['y_0', 1],
      ],
      480,
    );
    const dc2 = solve(
      [
        ['x_1_1_0_0', 100],
        ['z_1_0_0_0', 100],
        ['y_1', 1],
      ],
      630,
    );
    const comparison = compareResults(base, dc2);
    expect(comparison.costs.find((c) => c.component === 'total')).toEqual({
      component: 'total',
      base: 480,
      scenario: 630,
      delta: 150,
    });
    expect(comparison.dcs).toEqual([
      { name: 'DC1', baseOpen: true, scenarioOpen: false },
      { name: 'DC2', baseOpen: false, scenarioOpen: true },
    ]);
    expect(comparison.flowChanges.map((f) => [f.from, f.to, f.delta])).toEqual([
      ['DC1', 'R', -100],
      ['DC2', 'R', 100],
      ['Plant B', 'DC2', 100],
      ['Plant A', 'DC1', -60],
      ['Plant B', 'DC1', -40],
    ]);
  });
});
