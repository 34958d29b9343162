import type { ModelVariables } from './model';
import type {
  CostBreakdown,
  DcOutcome,
  FlowRow,
  ModelSize,
  NetworkInstance,
  PlantOutcome,
  SolveResult,
  SolveStatus,
  UnmetRow,
} from './network';

/** Flows below this many units are solver noise, not shipments. */
const FLOW_EPSILON = 1e-6;

const cents = (value: number): number => Math.round(value * 100) / 100;
/** Units to 3 decimals: LP flows are continuous, planners read whole units. */
const roundUnits = (value: number): number => Math.round(value * 1000) / 1000;
const percent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;

export type SolverOutcome = {
  status: SolveStatus;
  objective: number | null;
  mipGapPercent: number | null;
  solveSeconds: number;
  modelSize: ModelSize;
  /** Column values by name; absent names are 0. */
  values: ReadonlyMap<string, number>;
};

/**
 * The figures of a solve, computed from the flows the solver chose (not from its objective), so
 * every cost on the screen is units × a unit cost the planner can check (docs/optimisation.md).
 */
export function interpretSolution(
  instance: NetworkInstance,
  variables: ModelVariables,
  outcome: SolverOutcome,
): SolveResult {
  const value = (name: string): number => {
    const v = outcome.values.get(name) ?? 0;
    return Math.abs(v) < FLOW_EPSILON ? 0 : v;
  };
  const hasSolution =
    outcome.status === 'optimal' || (outcome.status === 'time-limit' && outcome.objective !== null);
  const demandUnits = variables.demand.reduce((sum, cell) => sum + cell.units, 0);
  const periodMonths = new Map(instance.periods.map((p) => [p.key, p.months]));

  const costs: CostBreakdown = {
    production: 0,
    inboundTransport: 0,
    handling: 0,
    outboundTransport: 0,
    fixed: 0,
    unmetPenalty: 0,
    total: 0,
  };
  const flows: FlowRow[] = [];
  const production = new Map<number, number>();
  const throughput = new Map<number, number>();
  if (hasSolution) {
    for (const v of variables.inbound) {
      const units = value(v.name);
      if (units === 0) continue;
      costs.production += units * v.supply.unitCost;
      costs.inboundTransport += units * v.lane.costPerUnit;
      production.set(v.plant.id, (production.get(v.plant.id) ?? 0) + units);
      flows.push({
        leg: 'inbound',
        from: v.plant.name,
        to: v.dc.name,
        family: v.family,
        period: v.period,
        units: roundUnits(units),
        cost: cents(units * v.cost),
        leadTimeDays: v.lane.leadTimeDays,
      });
    }
    for (const v of variables.outbound) {
      const units = value(v.name);
      if (units === 0) continue;
      costs.handling += units * v.dc.handlingCostPerUnit;
      costs.outboundTransport += units * v.lane.costPerUnit;
      throughput.set(v.dc.id, (throughput.get(v.dc.id) ?? 0) + units);
      flows.push({
        leg: 'outbound',
        from: v.dc.name,
        to: v.region,
        family: v.family,
        period: v.period,
        units: roundUnits(units),
        cost: cents(units * v.cost),
        leadTimeDays: v.lane.leadTimeDays,
      });
    }
  }
  const openDcs = new Set(
    hasSolution ? variables.open.filter((v) => value(v.name) > 0.5).map((v) => v.dc.id) : [],
  );
  for (const v of variables.open) if (openDcs.has(v.dc.id)) costs.fixed += v.fixedCost;

  const unmet: UnmetRow[] = [];
  let unmetUnits = 0;
  if (hasSolution) {
    const served = new Map<string, number>();
    for (const v of variables.outbound) {
      const key = `${v.region}|${v.family}|${v.period}`;
      served.set(key, (served.get(key) ?? 0) + value(v.name));
    }
    for (const cell of variables.demand) {
      const short = cell.units - (served.get(`${cell.region}|${cell.family}|${cell.period}`) ?? 0);
      if (short <= FLOW_EPSILON * Math.max(1, cell.units)) continue;
      unmetUnits += short;
      unmet.push({ region: cell.region, family: cell.family, period: cell.period, units: roundUnits(short) });
    }
    costs.unmetPenalty = unmetUnits * (instance.unmetPenaltyPerUnit ?? 0);
  } else {
    unmetUnits = demandUnits;
  }
  for (const key of Object.keys(costs) as Array<keyof CostBreakdown>) costs[key] = cents(costs[key]);
  costs.total = cents(
    costs.production +
      costs.inboundTransport +
      costs.handling +
      costs.outboundTransport +
      costs.fixed +
      costs.unmetPenalty,
  );

  const months = variables.months;
  const dcs: DcOutcome[] = instance.dcs.map((dc) => {
    const isOpen = openDcs.has(dc.id);
    const capacityUnits = dc.throughputPerMonth * months;
    const shipped = throughput.get(dc.id) ?? 0;
    return {
      dcId: dc.id,
      name: dc.name,
      region: dc.region,
      isOpen,
      decision: dc.decision,
      throughputUnits: roundUnits(shipped),
      capacityUnits,
      utilisationPercent: isOpen ? percent(shipped, capacityUnits) : 0,
    };
  });
  const familiesInDemand = new Set(variables.demand.map((c) => c.family));
  const plants: PlantOutcome[] = instance.plants.map((plant) => {
    // Capacity counts the families the horizon asks for: idle capacity of a family nobody
    // orders would make every plant look under-used.
    const capacityUnits = plant.families
      .filter((f) => familiesInDemand.has(f.family))
      .reduce(
        (sum, f) => sum + [...periodMonths.values()].reduce((s, m) => s + f.capacityPerMonth * m, 0),
        0,
      );
    const made = production.get(plant.id) ?? 0;
    return {
      plantId: plant.id,
      name: plant.name,
      region: plant.region,
      productionUnits: roundUnits(made),
      capacityUnits,
      utilisationPercent: percent(made, capacityUnits),
    };
  });
  const metUnits = demandUnits - unmetUnits;
  return {
    status: outcome.status,
    message: null,
    objective: hasSolution ? outcome.objective : null,
    mipGapPercent: outcome.mipGapPercent,
    solveSeconds: outcome.solveSeconds,
    modelSize: outcome.modelSize,
    costs: hasSolution ? costs : null,
    demandUnits: roundUnits(demandUnits),
    metUnits: roundUnits(metUnits),
    unmetUnits: roundUnits(unmetUnits),
    servicePercent: demandUnits > 0 ? percent(metUnits, demandUnits) : 100,
    dcs,
    plants,
    flows,
    unmet,
  };
}

/** A result with no solution: the cause, the demand and the network's DCs and plants as they are. */
export function failedResult(
  instance: NetworkInstance,
  variables: ModelVariables,
  failure: { status: SolveStatus; message: string; solveSeconds: number; modelSize: ModelSize },
): SolveResult {
  return {
    ...interpretSolution(instance, variables, {
      status: failure.status,
      objective: null,
      mipGapPercent: null,
      solveSeconds: failure.solveSeconds,
      modelSize: failure.modelSize,
      values: new Map(),
    }),
    message: failure.message,
  };
}
