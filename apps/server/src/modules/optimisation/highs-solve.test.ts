import { applyScenario, HAND_INSTANCE, INFEASIBLE_MESSAGE, type NetworkInstance } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { solveInstance } from './highs-solve';

const EXACT = { timeLimitSeconds: 30, mipGapPercent: 0 };

/** A small deterministic generator (LCG) so each random instance is reproducible from its seed. */
function randomInstance(seed: number): NetworkInstance {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  const between = (lo: number, hi: number): number => Math.round((lo + next() * (hi - lo)) * 100) / 100;
  const families = ['F1', 'F2'];
  const regions = ['R1', 'R2', 'R3'];
  const periods = [
    { key: 'P1', months: 1 },
    { key: 'P2', months: 1 },
  ];
  const plants = [1, 2, 3].map((id) => ({
    id,
    name: `Plant ${id}`,
    region: regions[id - 1]!,
    families: families.map((family) => ({
      family,
      capacityPerMonth: Math.round(between(20, 90)),
      unitCost: between(1, 5),
    })),
  }));
  const dcs = [1, 2, 3, 4].map((id) => ({
    id,
    name: `DC ${id}`,
    region: regions[id % 3]!,
    throughputPerMonth: Math.round(between(60, 160)),
    fixedCostPerMonth: between(20, 200),
    handlingCostPerUnit: between(0.2, 1.5),
    decision: 'auto' as const,
  }));
  let laneId = 0;
  const inboundLanes = plants.flatMap((plant) =>
    dcs
      .filter(() => next() < 0.8)
      .map((dc) => ({
        id: ++laneId,
        plantId: plant.id,
        dcId: dc.id,
        costPerUnit: between(0.5, 4),
        leadTimeDays: 3,
      })),
  );
  const outboundLanes = dcs.flatMap((dc) =>
    regions
      .filter(() => next() < 0.7)
      .map((region) => ({
        id: ++laneId,
        dcId: dc.id,
        region,
        costPerUnit: between(0.5, 4),
        leadTimeDays: 2,
      })),
  );
  const demand = regions.flatMap((region) =>
    families.flatMap((family) =>
      periods.map((p) => ({ region, family, period: p.key, units: Math.round(between(5, 45)) })),
    ),
  );
  return { periods, plants, dcs, inboundLanes, outboundLanes, demand, unmetPenaltyPerUnit: 25 };
}

/**
 * The optimality cross-check: the MIP's optimum equals the best of the LPs
 * solved with every DC's open/close decision fixed, over all 2^|DC| combinations.
 */
async function bestByEnumeration(instance: NetworkInstance): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  const count = instance.dcs.length;
  for (let mask = 0; mask < 2 ** count; mask += 1) {
    const fixed = applyScenario(
      instance,
      instance.dcs.map((dc, i) => ({
        kind: 'dc-decision' as const,
        dcId: dc.id,
        decision: mask & (2 ** i) ? ('open' as const) : ('closed' as const),
      })),
    );
    const result = await solveInstance(fixed, EXACT);
    if (result.status === 'optimal' && result.costs) best = Math.min(best, result.costs.total);
  }
  return best;
}

describe('solveInstance (HiGHS)', () => {
  it('finds the hand-computed optimum: DC1 only, $480', async () => {
    const result = await solveInstance(HAND_INSTANCE, EXACT);
    expect(result.status).toBe('optimal');
    expect(result.objective).toBeCloseTo(480, 6);
    expect(result.costs?.total).toBe(480);
    expect(result.mipGapPercent).toBe(0);
    expect(result.dcs.map((dc) => dc.isOpen)).toEqual([true, false]);
    expect(result.flows.map((f) => [f.from, f.to, f.units])).toEqual([
      ['Plant A', 'DC1', 60],
      ['Plant B', 'DC1', 40],
      ['DC1', 'R', 100],
    ]);
    expect(result.modelSize).toEqual({ rows: 9, columns: 9, integers: 2 });
  });

  it('agrees with enumerating every DC open/close combination on random instances', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const instance = randomInstance(seed);
      const mip = await solveInstance(instance, EXACT);
      expect(mip.status).toBe('optimal');
      const best = await bestByEnumeration(instance);
      // The objective and the total recomputed from the flows agree to the cent.
      expect(Math.abs(mip.objective! - mip.costs!.total)).toBeLessThan(0.01);
      expect(mip.costs!.total).toBeCloseTo(best, 1);
    }
  });

  it('decomposes by period with a valid bound: the plan costs at least the optimum, the bound at most', async () => {
    for (const seed of [6, 7, 8]) {
      const instance = randomInstance(seed);
      const exact = await solveInstance(instance, EXACT);
      const decomposed = await solveInstance(instance, { ...EXACT, decomposeAboveColumns: 0 });
      const plan = decomposed.costs!.total;
      expect(Math.abs(decomposed.objective! - plan)).toBeLessThan(0.01);
      expect(plan).toBeGreaterThanOrEqual(exact.costs!.total - 0.01);
      const bound = plan * (1 - decomposed.mipGapPercent! / 100);
      expect(bound).toBeLessThanOrEqual(exact.costs!.total + 0.01);
      expect(decomposed.dcs.every((dc) => dc.decision === 'auto')).toBe(true);
      expect(decomposed.servicePercent).toBeGreaterThan(0);
    }
  });

  it('closing the optimal DC moves the flows to the other one at the hand-computed $630', async () => {
    const result = await solveInstance(
      applyScenario(HAND_INSTANCE, [{ kind: 'dc-decision', dcId: 1, decision: 'closed' }]),
      EXACT,
    );
    expect(result.costs?.total).toBe(630);
    expect(result.dcs.map((dc) => dc.isOpen)).toEqual([false, true]);
  });

  it('names the cause instead of failing when demand cannot be met', async () => {
    const strict = { ...HAND_INSTANCE, unmetPenaltyPerUnit: null };
    const short = await solveInstance(
      applyScenario(strict, [{ kind: 'demand', percent: 70, region: null, family: null }]),
      EXACT,
    );
    expect(short.status).toBe('infeasible');
    expect(short.message).toBe(
      'Plant capacity for F in 2026-01 is 160 units, below the demand of 170 units, and unmet demand is not allowed.',
    );
    expect(short.costs).toBeNull();
    expect(short.servicePercent).toBe(0);

    // Capacity, throughput and lanes each suffice on their own, but the only DC that ships to R
    // (DC1) receives from no plant: only the solver can tell, and says so in a sentence.
    const unreachable: NetworkInstance = {
      ...strict,
      plants: [strict.plants[0]!, { ...strict.plants[1]!, families: [] }],
      dcs: strict.dcs.map((dc) => ({ ...dc, throughputPerMonth: 60 })),
      inboundLanes: strict.inboundLanes.filter((lane) => lane.plantId === 1 || lane.dcId === 2),
      demand: [{ region: 'R', family: 'F', period: '2026-01', units: 60 }],
    };
    const blocked = applyScenario(unreachable, [
      { kind: 'plant-capacity', plantId: 1, family: 'F', percent: -50 },
    ]);
    const infeasible = await solveInstance(blocked, EXACT);
    expect(infeasible.status).toBe('infeasible');
    expect(infeasible.message).toMatch(/^Plant capacity for F/);
    const solverProved = await solveInstance(
      {
        ...unreachable,
        inboundLanes: unreachable.inboundLanes.filter((l) => l.dcId === 2),
        outboundLanes: unreachable.outboundLanes.filter((l) => l.dcId === 1),
      },
      EXACT,
    );
    expect(solverProved.status).toBe('infeasible');
    expect(solverProved.message).toBe(INFEASIBLE_MESSAGE);
  });
});
