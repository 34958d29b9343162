import { horizonMonths, type ModelVariables } from './model';
import type { NetworkInstance } from './network';

/** The single period of an aggregated instance. */
export const HORIZON_PERIOD = 'horizon';

/**
 * The instance with its periods merged into one of the horizon's length: demand summed per region
 * and family, capacities and fixed costs over all the months. Every constraint of the aggregated
 * model is a sum of the full model's, and costs are the same per unit, so its optimum is a lower
 * bound on the full optimum (docs/optimisation.md "Large models").
 */
export function aggregatePeriods(instance: NetworkInstance): NetworkInstance {
  const periods = new Set(instance.periods.map((p) => p.key));
  const totals = new Map<string, { region: string; family: string; units: number }>();
  for (const cell of instance.demand) {
    if (!periods.has(cell.period)) continue;
    const key = `${cell.region}\u0001${cell.family}`;
    const total = totals.get(key) ?? { region: cell.region, family: cell.family, units: 0 };
    total.units += cell.units;
    totals.set(key, total);
  }
  return {
    ...instance,
    periods: [{ key: HORIZON_PERIOD, months: horizonMonths(instance) }],
    demand: [...totals.values()].map((t) => ({ ...t, period: HORIZON_PERIOD })),
  };
}

/**
 * With every DC's open/close decision fixed, periods no longer share a variable: the full model is
 * one independent LP per period. Answers the instance with the decisions fixed and its periods.
 */
export function fixDecisions(instance: NetworkInstance, openDcIds: ReadonlySet<number>): NetworkInstance {
  return {
    ...instance,
    dcs: instance.dcs.map((dc) => ({ ...dc, decision: openDcIds.has(dc.id) ? 'open' : 'closed' })),
  };
}

export function splitByPeriod(instance: NetworkInstance): NetworkInstance[] {
  return instance.periods.map((period) => ({
    ...instance,
    periods: [period],
    demand: instance.demand.filter((cell) => cell.period === period.key),
  }));
}

/** What a column means, independent of the positional name it has in one model. */
function meaningOf(variables: ModelVariables): Map<string, string> {
  const meaning = new Map<string, string>();
  for (const v of variables.inbound)
    meaning.set(v.name, `x|${v.plant.id}|${v.dc.id}|${v.family}|${v.period}`);
  for (const v of variables.outbound) meaning.set(v.name, `z|${v.dc.id}|${v.region}|${v.family}|${v.period}`);
  for (const v of variables.unmet)
    meaning.set(v.name, `u|${v.cell.region}|${v.cell.family}|${v.cell.period}`);
  for (const v of variables.open) meaning.set(v.name, `y|${v.dc.id}`);
  return meaning;
}

/**
 * The column values of per-period solves as values of the full model's columns (names differ:
 * they are positional), so the full instance's figures can be read from them.
 */
export function mergeValues(
  full: ModelVariables,
  parts: ReadonlyArray<{ variables: ModelVariables; values: ReadonlyMap<string, number> }>,
): Map<string, number> {
  const byMeaning = new Map<string, number>();
  for (const part of parts) {
    const meaning = meaningOf(part.variables);
    for (const [name, value] of part.values) {
      const key = meaning.get(name);
      // An open DC's y is 1 in every period's model; flows add up across none (one period each).
      if (key !== undefined)
        byMeaning.set(key, key.startsWith('y|') ? value : (byMeaning.get(key) ?? 0) + value);
    }
  }
  const values = new Map<string, number>();
  for (const [name, key] of meaningOf(full)) {
    const value = byMeaning.get(key);
    if (value !== undefined) values.set(name, value);
  }
  return values;
}
