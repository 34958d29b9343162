import type { NetworkInstance, ScenarioChange, SolveResult } from './network';

/** Percent change applied to a quantity: +10 → ×1.1, −100 → 0. */
const scale = (value: number, percent: number): number => Math.max(0, value * (1 + percent / 100));

/**
 * The instance a scenario solves: the baseline with its changes applied in order. Changes naming
 * a DC or plant that is not in the network are ignored (the service refuses them on save).
 */
export function applyScenario(
  instance: NetworkInstance,
  changes: readonly ScenarioChange[],
): NetworkInstance {
  let next: NetworkInstance = instance;
  for (const change of changes) {
    switch (change.kind) {
      case 'dc-decision':
        next = {
          ...next,
          dcs: next.dcs.map((dc) => (dc.id === change.dcId ? { ...dc, decision: change.decision } : dc)),
        };
        break;
      case 'dc-throughput':
        next = {
          ...next,
          dcs: next.dcs.map((dc) =>
            dc.id === change.dcId ? { ...dc, throughputPerMonth: change.throughputPerMonth } : dc,
          ),
        };
        break;
      case 'plant-capacity':
        next = {
          ...next,
          plants: next.plants.map((plant) =>
            plant.id === change.plantId
              ? {
                  ...plant,
                  families: plant.families.map((f) =>
                    change.family === null || f.family === change.family
                      ? { ...f, capacityPerMonth: scale(f.capacityPerMonth, change.percent) }
                      : f,
                  ),
                }
              : plant,
          ),
        };
        break;
      case 'demand':
        next = {
          ...next,
          demand: next.demand.map((cell) =>
            (change.region === null || cell.region === change.region) &&
            (change.family === null || cell.family === change.family)
              ? { ...cell, units: scale(cell.units, change.percent) }
              : cell,
          ),
        };
        break;
    }
  }
  return next;
}

export type CostDelta = {
  component: keyof NonNullable<SolveResult['costs']>;
  base: number;
  scenario: number;
  delta: number;
};

export type FlowChange = {
  leg: 'inbound' | 'outbound';
  from: string;
  to: string;
  family: string;
  baseUnits: number;
  scenarioUnits: number;
  delta: number;
};

export type DcChange = { name: string; baseOpen: boolean; scenarioOpen: boolean };

export type RunComparison = {
  costs: CostDelta[];
  servicePercent: { base: number; scenario: number; delta: number };
  unmetUnits: { base: number; scenario: number; delta: number };
  dcs: DcChange[];
  /** Lane flows (summed over the horizon's periods) whose units changed, largest change first. */
  flowChanges: FlowChange[];
};

const COST_COMPONENTS = [
  'production',
  'inboundTransport',
  'handling',
  'outboundTransport',
  'fixed',
  'unmetPenalty',
  'total',
] as const;

const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** Lane flows that moved by less than this many units are reported unchanged. */
const FLOW_CHANGE_THRESHOLD = 0.5;

/** The scenario beside its baseline: each cost component, service, DC decisions and moved flows. */
export function compareResults(base: SolveResult, scenario: SolveResult): RunComparison {
  const cost = (result: SolveResult, key: (typeof COST_COMPONENTS)[number]): number =>
    result.costs?.[key] ?? 0;
  const laneTotals = (result: SolveResult): Map<string, number> => {
    const totals = new Map<string, number>();
    for (const flow of result.flows) {
      const key = [flow.leg, flow.from, flow.to, flow.family].join('\u0001');
      totals.set(key, (totals.get(key) ?? 0) + flow.units);
    }
    return totals;
  };
  const baseFlows = laneTotals(base);
  const scenarioFlows = laneTotals(scenario);
  const flowChanges: FlowChange[] = [];
  for (const key of new Set([...baseFlows.keys(), ...scenarioFlows.keys()])) {
    const before = baseFlows.get(key) ?? 0;
    const after = scenarioFlows.get(key) ?? 0;
    if (Math.abs(after - before) < FLOW_CHANGE_THRESHOLD) continue;
    const [leg, from, to, family] = key.split('\u0001') as [FlowChange['leg'], string, string, string];
    flowChanges.push({
      leg,
      from,
      to,
      family,
      baseUnits: round(before, 3),
      scenarioUnits: round(after, 3),
      delta: round(after - before, 3),
    });
  }
  flowChanges.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.from.localeCompare(b.from));
  const scenarioDcs = new Map(scenario.dcs.map((dc) => [dc.name, dc.isOpen]));
  return {
    costs: COST_COMPONENTS.map((component) => ({
      component,
      base: cost(base, component),
      scenario: cost(scenario, component),
      delta: round(cost(scenario, component) - cost(base, component), 2),
    })),
    servicePercent: {
      base: base.servicePercent,
      scenario: scenario.servicePercent,
      delta: round(scenario.servicePercent - base.servicePercent, 2),
    },
    unmetUnits: {
      base: base.unmetUnits,
      scenario: scenario.unmetUnits,
      delta: round(scenario.unmetUnits - base.unmetUnits, 3),
    },
    dcs: base.dcs.map((dc) => ({
      name: dc.name,
      baseOpen: dc.isOpen,
      scenarioOpen: scenarioDcs.get(dc.name) ?? false,
    })),
    flowChanges,
  };
}
