import type { Horizon } from './horizon';
import type {
  DistributionCentre,
  InboundLane,
  OutboundLane,
  Plant,
  ScenarioChange,
  SolveResult,
} from './network';

/** Which plan the demand comes from: the current Final plan, or the last (P1) or previous (P2) published cycle. */
export type DemandSource = 'final' | 'p1' | 'p2';

/** What a solve is asked for, stored with its run. */
export type SolveSettings = {
  horizon: Horizon;
  demandSource: DemandSource;
  /** Wall-clock limit of the solver, seconds. */
  timeLimitSeconds: number;
  /** The solver stops when the relative gap between its plan and its bound is at most this, percent. */
  mipGapPercent: number;
};

/** The network as the API reports and edits it. */
export type NetworkData = {
  plants: Plant[];
  dcs: DistributionCentre[];
  inboundLanes: InboundLane[];
  outboundLanes: OutboundLane[];
  /** Null: every unit of demand must be served. */
  unmetPenaltyPerUnit: number | null;
  regions: string[];
  families: string[];
};

export type Scenario = {
  id: number;
  name: string;
  changes: ScenarioChange[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

export type RunProgress = { seconds: number; gapPercent: number | null; objective: number | null };

/** A solve run as listed: its settings, state and headline figures. */
export type OptimisationRun = {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  scenarioId: number | null;
  /** Null for the baseline. */
  scenarioName: string | null;
  requestedBy: string;
  settings: SolveSettings;
  progress: RunProgress;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  summary: {
    status: SolveResult['status'];
    totalCost: number | null;
    servicePercent: number;
    openDcs: number;
    mipGapPercent: number | null;
    message: string | null;
  } | null;
};

/** One run with its stored result. */
export type OptimisationRunDetail = OptimisationRun & { result: SolveResult | null };
