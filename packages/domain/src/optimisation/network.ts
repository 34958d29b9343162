/**
 * A supply network as the optimiser sees it (docs/optimisation.md): plants make product
 * families, distribution centres (DCs) receive from plants and ship to customer regions (the
 * planning grid's regions). Quantities are units; money is US dollars.
 */

/** A plant's capacity and production cost for one product family. */
export type PlantFamily = {
  family: string;
  /** Units the plant can make of this family in one month. */
  capacityPerMonth: number;
  /** Dollars per unit made. */
  unitCost: number;
};

export type Plant = {
  id: number;
  name: string;
  region: string;
  families: PlantFamily[];
};

/** How a scenario (or the data) fixes a DC's open/close decision; 'auto' lets the model decide. */
export type DcDecision = 'auto' | 'open' | 'closed';

export type DistributionCentre = {
  id: number;
  name: string;
  region: string;
  /** Units the DC can ship in one month, all families together. */
  throughputPerMonth: number;
  /** Dollars per month while the DC is open. */
  fixedCostPerMonth: number;
  /** Dollars per unit shipped through the DC. */
  handlingCostPerUnit: number;
  decision: DcDecision;
};

/** Plant → DC. */
export type InboundLane = {
  id: number;
  plantId: number;
  dcId: number;
  costPerUnit: number;
  leadTimeDays: number;
};

/** DC → customer region. */
export type OutboundLane = {
  id: number;
  dcId: number;
  region: string;
  costPerUnit: number;
  leadTimeDays: number;
};

/** One planning period of the horizon: a month (yyyy-mm) or a quarter (yyyy-Qn). */
export type Period = { key: string; months: number };

export type DemandCell = { region: string; family: string; period: string; units: number };

/** Everything one solve needs: the network, the horizon and the demand to serve. */
export type NetworkInstance = {
  periods: Period[];
  plants: Plant[];
  dcs: DistributionCentre[];
  inboundLanes: InboundLane[];
  outboundLanes: OutboundLane[];
  demand: DemandCell[];
  /** Dollars per unit of demand left unserved; null: every unit must be served (or no solution). */
  unmetPenaltyPerUnit: number | null;
};

/** A change a scenario makes to the inputs before solving. */
export type ScenarioChange =
  | { kind: 'dc-decision'; dcId: number; decision: DcDecision }
  | { kind: 'dc-throughput'; dcId: number; throughputPerMonth: number }
  | { kind: 'plant-capacity'; plantId: number; family: string | null; percent: number }
  | { kind: 'demand'; percent: number; region: string | null; family: string | null };

/** Model size as HiGHS reports it. */
export type ModelSize = { rows: number; columns: number; integers: number };

export type SolveStatus = 'optimal' | 'time-limit' | 'infeasible' | 'unbounded' | 'error';

export type CostBreakdown = {
  production: number;
  inboundTransport: number;
  handling: number;
  outboundTransport: number;
  fixed: number;
  unmetPenalty: number;
  total: number;
};

export type FlowRow = {
  /** 'inbound' = plant → DC, 'outbound' = DC → region. */
  leg: 'inbound' | 'outbound';
  from: string;
  to: string;
  family: string;
  period: string;
  units: number;
  /** Variable cost of this flow: production + lane for inbound, handling + lane for outbound. */
  cost: number;
  leadTimeDays: number;
};

export type DcOutcome = {
  dcId: number;
  name: string;
  region: string;
  isOpen: boolean;
  decision: DcDecision;
  throughputUnits: number;
  capacityUnits: number;
  /** Throughput / capacity over the horizon, percent; 0 when closed. */
  utilisationPercent: number;
};

export type PlantOutcome = {
  plantId: number;
  name: string;
  region: string;
  productionUnits: number;
  capacityUnits: number;
  utilisationPercent: number;
};

export type UnmetRow = { region: string; family: string; period: string; units: number };

/** What a solve found, computed from the solver's flows (docs/optimisation.md "Reported figures"). */
export type SolveResult = {
  status: SolveStatus;
  /** Why there is no solution, in a planner's words; null when there is one. */
  message: string | null;
  objective: number | null;
  /** Relative MIP gap in percent when the solver stopped; 0 when proved optimal. */
  mipGapPercent: number | null;
  solveSeconds: number;
  modelSize: ModelSize;
  costs: CostBreakdown | null;
  demandUnits: number;
  metUnits: number;
  unmetUnits: number;
  /** Met / demand × 100 (100 when there is no demand). */
  servicePercent: number;
  dcs: DcOutcome[];
  plants: PlantOutcome[];
  flows: FlowRow[];
  unmet: UnmetRow[];
};
