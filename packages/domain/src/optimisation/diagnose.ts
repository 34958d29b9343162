import { demandInHorizon } from './model';
import type { NetworkInstance } from './network';

const units = (value: number): string => Math.round(value).toLocaleString('en-US');

/**
 * Causes that make an instance unsolvable, found before the solver runs so the planner reads the
 * cause ("plant capacity for Ball Valves in 2026-03 is 1,200 units, below the demand of 1,500")
 * instead of a bare "infeasible". Null when none is found; the solver may still prove
 * infeasibility for a subtler reason (see infeasibleMessage).
 */
export function diagnoseInstance(instance: NetworkInstance): string | null {
  if (instance.periods.length === 0) return 'The horizon has no periods: choose at least one period.';
  const demand = demandInHorizon(instance);
  if (demand.length === 0) {
    return 'The plan has no demand in the chosen horizon: choose periods the plan covers.';
  }
  if (instance.unmetPenaltyPerUnit !== null) return null;

  const usable = new Set(instance.dcs.filter((dc) => dc.decision !== 'closed').map((dc) => dc.id));
  const servedRegions = new Set(
    instance.outboundLanes.filter((lane) => usable.has(lane.dcId)).map((lane) => lane.region),
  );
  for (const cell of demand) {
    if (!servedRegions.has(cell.region)) {
      return `No open or candidate DC ships to ${cell.region}, which needs ${units(cell.units)} units of ${cell.family} in ${cell.period}, and unmet demand is not allowed.`;
    }
  }

  const months = new Map(instance.periods.map((p) => [p.key, p.months]));
  const supplyingPlants = new Set(
    instance.inboundLanes.filter((lane) => usable.has(lane.dcId)).map((lane) => lane.plantId),
  );
  const demandByFamilyPeriod = new Map<string, { family: string; period: string; units: number }>();
  const demandByPeriod = new Map<string, number>();
  for (const cell of demand) {
    const key = `${cell.family}|${cell.period}`;
    const entry = demandByFamilyPeriod.get(key) ?? { family: cell.family, period: cell.period, units: 0 };
    entry.units += cell.units;
    demandByFamilyPeriod.set(key, entry);
    demandByPeriod.set(cell.period, (demandByPeriod.get(cell.period) ?? 0) + cell.units);
  }
  for (const { family, period, units: needed } of demandByFamilyPeriod.values()) {
    const capacity = instance.plants
      .filter((plant) => supplyingPlants.has(plant.id))
      .flatMap((plant) => plant.families.filter((f) => f.family === family))
      .reduce((sum, f) => sum + f.capacityPerMonth * months.get(period)!, 0);
    if (capacity < needed) {
      return `Plant capacity for ${family} in ${period} is ${units(capacity)} units, below the demand of ${units(needed)} units, and unmet demand is not allowed.`;
    }
  }
  for (const [period, needed] of demandByPeriod) {
    const throughput = instance.dcs
      .filter((dc) => usable.has(dc.id))
      .reduce((sum, dc) => sum + dc.throughputPerMonth * months.get(period)!, 0);
    if (throughput < needed) {
      return `DC throughput in ${period} is ${units(throughput)} units, below the demand of ${units(needed)} units, and unmet demand is not allowed.`;
    }
  }
  return null;
}

/** When the solver proves infeasibility the checks above did not foresee. */
export const INFEASIBLE_MESSAGE =
  'No flow plan meets all demand with these capacities and lanes (for example a region whose DCs no plant making the family can reach). Allow unmet demand to see what is short.';

export const UNBOUNDED_MESSAGE =
  'The model is unbounded: some cost lets the total fall without limit. Check that no cost is negative.';
