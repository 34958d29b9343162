import { z } from 'zod';
import { INT4_MAX, intParam, singleParam } from '../demand-record.schema';
import type {
  NetworkData,
  OptimisationRun,
  OptimisationRunDetail,
  RunComparison,
  Scenario,
  ScenarioChange,
  SolveResult,
} from '../optimisation';
import { defineEndpoint } from './endpoint';

/** Column ranges of migration 0014: numeric(14,2) quantities, numeric(12,4) unit costs. */
export const NETWORK_QUANTITY_MAX = 999_999_999_999;
export const NETWORK_UNIT_COST_MAX = 99_999_999;
export const LEAD_TIME_DAYS_MAX = 365;
/** Longest a solve may run, seconds: beyond it a strategic what-if is better split up. */
export const SOLVE_TIME_LIMIT_MAX = 300;
/** Longest horizon in periods (two years of months). */
export const HORIZON_PERIODS_MAX = 24;

const decimals = (value: number, digits: number): boolean =>
  Math.abs(value * 10 ** digits - Math.round(value * 10 ** digits)) < 1e-6;

const quantity = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(NETWORK_QUANTITY_MAX, { error: `must be at most ${NETWORK_QUANTITY_MAX}` })
  .refine((v) => decimals(v, 2), { error: 'must have at most 2 decimals' });
const unitCost = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(NETWORK_UNIT_COST_MAX, { error: `must be at most ${NETWORK_UNIT_COST_MAX}` })
  .refine((v) => decimals(v, 4), { error: 'must have at most 4 decimals' });
const leadTime = z
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 or more' })
  .max(LEAD_TIME_DAYS_MAX, { error: `must be at most ${LEAD_TIME_DAYS_MAX}` });
const label = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });
const id = z
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .min(1)
  .max(INT4_MAX);
const percent = z
  .number({ error: 'must be a number' })
  .min(-100, { error: 'must be at least -100' })
  .max(1000, { error: 'must be at most 1000' });
const finite = z.number().refine(Number.isFinite);

const ZDcDecision = z.enum(['auto', 'open', 'closed'], { error: "must be 'auto', 'open' or 'closed'" });

export const ZScenarioChange = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('dc-decision'), dcId: id, decision: ZDcDecision }),
    z.strictObject({ kind: z.literal('dc-throughput'), dcId: id, throughputPerMonth: quantity }),
    z.strictObject({
      kind: z.literal('plant-capacity'),
      plantId: id,
      family: label(100).nullable(),
      percent,
    }),
    z.strictObject({
      kind: z.literal('demand'),
      percent,
      region: label(100).nullable(),
      family: label(100).nullable(),
    }),
  ],
  { error: "kind must be 'dc-decision', 'dc-throughput', 'plant-capacity' or 'demand'" },
) satisfies z.ZodType<ScenarioChange>;

export const ZScenarioBody = z.strictObject({
  name: label(80),
  changes: z.array(ZScenarioChange).max(50, { error: 'must hold at most 50 changes' }),
});

export const ZHorizon = z.strictObject({
  start: z
    .string({ error: 'must be text' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month as yyyy-mm' }),
  periods: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(HORIZON_PERIODS_MAX, { error: `must be at most ${HORIZON_PERIODS_MAX}` }),
  granularity: z.enum(['month', 'quarter'], { error: "must be 'month' or 'quarter'" }),
});

const ZDemandSource = z.enum(['final', 'p1', 'p2'], { error: "must be 'final', 'p1' or 'p2'" });

const ZSolveSettings = z.strictObject({
  horizon: ZHorizon,
  demandSource: ZDemandSource,
  timeLimitSeconds: z.number().int().min(1).max(SOLVE_TIME_LIMIT_MAX),
  mipGapPercent: z.number().min(0).max(50),
});

export const ZStartRunBody = z.strictObject({
  /** Omitted or null: the baseline network. */
  scenarioId: id.nullable().optional(),
  horizon: ZHorizon,
  demandSource: ZDemandSource.default('final'),
  timeLimitSeconds: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(SOLVE_TIME_LIMIT_MAX, { error: `must be at most ${SOLVE_TIME_LIMIT_MAX}` })
    .default(60),
  mipGapPercent: z
    .number({ error: 'must be a number' })
    .min(0, { error: 'must be 0 or more' })
    .max(50, { error: 'must be at most 50' })
    .default(1),
});

export const ZUpdatePlantBody = z.strictObject({
  families: z
    .array(z.strictObject({ family: label(100), capacityPerMonth: quantity, unitCost }))
    .min(1, { error: 'must name at least one family' })
    .max(200, { error: 'must hold at most 200 families' }),
});

export const ZUpdateDcBody = z
  .strictObject({
    throughputPerMonth: quantity.optional(),
    fixedCostPerMonth: quantity.optional(),
    handlingCostPerUnit: unitCost.optional(),
    decision: ZDcDecision.optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: 'must change at least one field',
  });

export const ZUpdateLaneBody = z
  .strictObject({ costPerUnit: unitCost.optional(), leadTimeDays: leadTime.optional() })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: 'must change at least one field',
  });

/** A new plant: its name, region (one of the customer regions, for the diagram) and what it makes. */
export const ZCreatePlantBody = z.strictObject({
  name: label(100),
  region: label(100),
  families: z
    .array(z.strictObject({ family: label(100), capacityPerMonth: quantity, unitCost }))
    .max(200, { error: 'must hold at most 200 families' })
    .default([]),
});

export const ZCreateDcBody = z.strictObject({
  name: label(100),
  region: label(100),
  throughputPerMonth: quantity,
  fixedCostPerMonth: quantity,
  handlingCostPerUnit: unitCost,
  decision: ZDcDecision.default('auto'),
});

/** Plant → DC (inbound) or DC → customer region (outbound). */
export const ZCreateLaneBody = z.discriminatedUnion(
  'leg',
  [
    z.strictObject({
      leg: z.literal('inbound'),
      plantId: id,
      dcId: id,
      costPerUnit: unitCost,
      leadTimeDays: leadTime,
    }),
    z.strictObject({
      leg: z.literal('outbound'),
      dcId: id,
      region: label(100),
      costPerUnit: unitCost,
      leadTimeDays: leadTime,
    }),
  ],
  { error: "leg must be 'inbound' or 'outbound'" },
);

/**
 * Deleting a plant or DC that lanes use: without `withLanes=true` the answer is 409 naming how
 * many lanes; with it the lanes go too (the page asks the planner to confirm first).
 */
export const ZDeleteNodeQuery = z.object({
  withLanes: singleParam(
    z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).default('false'),
  ).transform((value) => value === 'true'),
});

export const ZUpdateSettingsBody = z.strictObject({ unmetPenaltyPerUnit: unitCost.nullable() });

/** Ids are serial (int4): a larger one names nothing and must not reach the query. */
const idText = z
  .string({ error: 'must be given' })
  .regex(/^\d{1,10}$/, { error: 'must be a number' })
  .transform(Number)
  .pipe(
    z
      .number()
      .min(1, { error: 'must be at least 1' })
      .max(INT4_MAX, { error: `must be at most ${INT4_MAX}` }),
  );

export const ZNetworkIdParams = z.object({ id: idText });

export const ZCompareQuery = z.object({ base: singleParam(idText), scenario: singleParam(idText) });
export const ZRecentRunsQuery = z.object({ limit: intParam({ min: 1, max: 100, default: 20 }) });

// Response schemas: every response is checked against these in the API tests.
const ZPlant = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  region: z.string(),
  families: z.array(z.strictObject({ family: z.string(), capacityPerMonth: finite, unitCost: finite })),
});
const ZDc = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  region: z.string(),
  throughputPerMonth: finite,
  fixedCostPerMonth: finite,
  handlingCostPerUnit: finite,
  decision: ZDcDecision,
});
const laneFields = {
  id: z.number().int(),
  dcId: z.number().int(),
  costPerUnit: finite,
  leadTimeDays: z.number().int(),
};

export const ZNetworkData = z.strictObject({
  plants: z.array(ZPlant),
  dcs: z.array(ZDc),
  inboundLanes: z.array(z.strictObject({ ...laneFields, plantId: z.number().int() })),
  outboundLanes: z.array(z.strictObject({ ...laneFields, region: z.string() })),
  unmetPenaltyPerUnit: finite.nullable(),
  regions: z.array(z.string()),
  families: z.array(z.string()),
}) satisfies z.ZodType<NetworkData>;

export const ZScenario = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  changes: z.array(ZScenarioChange),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}) satisfies z.ZodType<Scenario>;

const ZSolveStatus = z.enum(['optimal', 'time-limit', 'infeasible', 'unbounded', 'error']);
const ZModelSize = z.strictObject({
  rows: z.number().int(),
  columns: z.number().int(),
  integers: z.number().int(),
});
const ZCosts = z.strictObject({
  production: finite,
  inboundTransport: finite,
  handling: finite,
  outboundTransport: finite,
  fixed: finite,
  unmetPenalty: finite,
  total: finite,
});

export const ZSolveResult = z.strictObject({
  status: ZSolveStatus,
  message: z.string().nullable(),
  objective: finite.nullable(),
  mipGapPercent: finite.nullable(),
  solveSeconds: finite,
  modelSize: ZModelSize,
  costs: ZCosts.nullable(),
  demandUnits: finite,
  metUnits: finite,
  unmetUnits: finite,
  servicePercent: finite,
  dcs: z.array(
    z.strictObject({
      dcId: z.number().int(),
      name: z.string(),
      region: z.string(),
      isOpen: z.boolean(),
      decision: ZDcDecision,
      throughputUnits: finite,
      capacityUnits: finite,
      utilisationPercent: finite,
    }),
  ),
  plants: z.array(
    z.strictObject({
      plantId: z.number().int(),
      name: z.string(),
      region: z.string(),
      productionUnits: finite,
      capacityUnits: finite,
      utilisationPercent: finite,
    }),
  ),
  flows: z.array(
    z.strictObject({
      leg: z.enum(['inbound', 'outbound']),
      from: z.string(),
      to: z.string(),
      family: z.string(),
      period: z.string(),
      units: finite,
      cost: finite,
      leadTimeDays: z.number().int(),
    }),
  ),
  unmet: z.array(
    z.strictObject({ region: z.string(), family: z.string(), period: z.string(), units: finite }),
  ),
}) satisfies z.ZodType<SolveResult>;

export const ZOptimisationRun = z.strictObject({
  id: z.number().int(),
  status: z.enum(['running', 'succeeded', 'failed']),
  scenarioId: z.number().int().nullable(),
  scenarioName: z.string().nullable(),
  requestedBy: z.string(),
  settings: ZSolveSettings,
  progress: z.strictObject({ seconds: finite, gapPercent: finite.nullable(), objective: finite.nullable() }),
  error: z.string().nullable(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  summary: z
    .strictObject({
      status: ZSolveStatus,
      totalCost: finite.nullable(),
      servicePercent: finite,
      openDcs: z.number().int(),
      mipGapPercent: finite.nullable(),
      message: z.string().nullable(),
    })
    .nullable(),
}) satisfies z.ZodType<OptimisationRun>;

export const ZOptimisationRunDetail = ZOptimisationRun.extend({
  result: ZSolveResult.nullable(),
}) satisfies z.ZodType<OptimisationRunDetail>;

const ZDelta = z.strictObject({ base: finite, scenario: finite, delta: finite });
export const ZRunComparison = z.strictObject({
  costs: z.array(
    z.strictObject({
      component: z.enum([
        'production',
        'inboundTransport',
        'handling',
        'outboundTransport',
        'fixed',
        'unmetPenalty',
        'total',
      ]),
      base: finite,
      scenario: finite,
      delta: finite,
    }),
  ),
  servicePercent: ZDelta,
  unmetUnits: ZDelta,
  dcs: z.array(z.strictObject({ name: z.string(), baseOpen: z.boolean(), scenarioOpen: z.boolean() })),
  flowChanges: z.array(
    z.strictObject({
      leg: z.enum(['inbound', 'outbound']),
      from: z.string(),
      to: z.string(),
      family: z.string(),
      baseUnits: finite,
      scenarioUnits: finite,
      delta: finite,
    }),
  ),
}) satisfies z.ZodType<RunComparison>;

/** Network optimisation (docs/optimisation.md). Admins only, as /optichain (spec §2). */
export const optimisationEndpoints = {
  network: defineEndpoint({
    method: 'GET',
    path: '/api/optimisation/network',
    access: 'admin',
    summary: 'The supply network: plants and their capacity per family, DCs, lanes, unmet-demand penalty',
    response: { data: ZNetworkData },
  }),
  updatePlant: defineEndpoint({
    method: 'PUT',
    path: '/api/optimisation/plants/:id',
    access: 'admin',
    summary:
      "Sets a plant's monthly capacity and unit cost of the families listed (adds a family it did not make)",
    params: ZNetworkIdParams,
    body: ZUpdatePlantBody,
    response: { data: ZNetworkData },
  }),
  updateDc: defineEndpoint({
    method: 'PUT',
    path: '/api/optimisation/dcs/:id',
    access: 'admin',
    summary: "Changes a DC's throughput, fixed or handling cost, or fixes it open or closed",
    params: ZNetworkIdParams,
    body: ZUpdateDcBody,
    response: { data: ZNetworkData },
  }),
  updateLane: defineEndpoint({
    method: 'PUT',
    path: '/api/optimisation/lanes/:id',
    access: 'admin',
    summary: "Changes a lane's cost per unit or lead time",
    params: ZNetworkIdParams,
    body: ZUpdateLaneBody,
    response: { data: ZNetworkData },
  }),
  createPlant: defineEndpoint({
    method: 'POST',
    path: '/api/optimisation/plants',
    access: 'admin',
    summary: 'Adds a plant with the families it makes (monthly capacity and unit cost of each)',
    body: ZCreatePlantBody,
    status: 201,
    response: { data: ZNetworkData },
  }),
  deletePlant: defineEndpoint({
    method: 'DELETE',
    path: '/api/optimisation/plants/:id',
    access: 'admin',
    summary:
      'Deletes a plant; 409 while a saved scenario names it, or while lanes use it unless withLanes=true (they go with it)',
    params: ZNetworkIdParams,
    query: ZDeleteNodeQuery,
    response: { data: ZNetworkData },
  }),
  createDc: defineEndpoint({
    method: 'POST',
    path: '/api/optimisation/dcs',
    access: 'admin',
    summary: 'Adds a distribution centre',
    body: ZCreateDcBody,
    status: 201,
    response: { data: ZNetworkData },
  }),
  deleteDc: defineEndpoint({
    method: 'DELETE',
    path: '/api/optimisation/dcs/:id',
    access: 'admin',
    summary:
      'Deletes a DC; 409 while a saved scenario names it, or while lanes use it unless withLanes=true (they go with it)',
    params: ZNetworkIdParams,
    query: ZDeleteNodeQuery,
    response: { data: ZNetworkData },
  }),
  createLane: defineEndpoint({
    method: 'POST',
    path: '/api/optimisation/lanes',
    access: 'admin',
    summary: 'Adds a lane: plant → DC (inbound) or DC → customer region (outbound)',
    body: ZCreateLaneBody,
    status: 201,
    response: { data: ZNetworkData },
  }),
  deleteLane: defineEndpoint({
    method: 'DELETE',
    path: '/api/optimisation/lanes/:id',
    access: 'admin',
    summary: 'Deletes a lane',
    params: ZNetworkIdParams,
    response: { data: ZNetworkData },
  }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/api/optimisation/settings',
    access: 'admin',
    summary: 'Sets the penalty per unit of unmet demand (null: all demand must be met)',
    body: ZUpdateSettingsBody,
    response: { data: ZNetworkData },
  }),
  listScenarios: defineEndpoint({
    method: 'GET',
    path: '/api/optimisation/scenarios',
    access: 'admin',
    summary: 'Saved scenarios, newest first',
    response: { data: z.array(ZScenario) },
  }),
  createScenario: defineEndpoint({
    method: 'POST',
    path: '/api/optimisation/scenarios',
    access: 'admin',
    summary: 'Saves a scenario: changes to the network or demand, solved against the baseline',
    body: ZScenarioBody,
    status: 201,
    response: { data: ZScenario },
  }),
  updateScenario: defineEndpoint({
    method: 'PUT',
    path: '/api/optimisation/scenarios/:id',
    access: 'admin',
    summary: "Replaces a scenario's name and changes",
    params: ZNetworkIdParams,
    body: ZScenarioBody,
    response: { data: ZScenario },
  }),
  deleteScenario: defineEndpoint({
    method: 'DELETE',
    path: '/api/optimisation/scenarios/:id',
    access: 'admin',
    summary: 'Deletes a scenario (its runs stay, under its name)',
    params: ZNetworkIdParams,
    response: { data: z.strictObject({ id: z.number().int() }) },
  }),
  startRun: defineEndpoint({
    method: 'POST',
    path: '/api/optimisation/runs',
    access: 'admin',
    summary: 'Solves the baseline or a scenario in the background on a worker thread; follow it at /runs/:id',
    body: ZStartRunBody,
    status: 202,
    response: { data: ZOptimisationRun },
  }),
  listRuns: defineEndpoint({
    method: 'GET',
    path: '/api/optimisation/runs',
    access: 'admin',
    summary: 'Recent solve runs with their headline figures, newest first',
    query: ZRecentRunsQuery,
    response: { data: z.array(ZOptimisationRun) },
  }),
  getRun: defineEndpoint({
    method: 'GET',
    path: '/api/optimisation/runs/:id',
    access: 'admin',
    summary: 'One solve run: progress while it runs, then costs, DCs, plants, flows and unmet demand',
    params: ZNetworkIdParams,
    response: { data: ZOptimisationRunDetail },
  }),
  compare: defineEndpoint({
    method: 'GET',
    path: '/api/optimisation/compare',
    access: 'admin',
    summary: 'A scenario run beside a baseline run: cost by component, service, DCs open, flows that changed',
    query: ZCompareQuery,
    response: { data: ZRunComparison },
  }),
};
