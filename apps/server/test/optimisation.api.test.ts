import type {
  NetworkData,
  OptimisationRun,
  OptimisationRunDetail,
  RunComparison,
  Scenario,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Envelope<T> = { success: boolean; data: T; error: string | null; code?: string };

/** The test seed's planning window (anchor 2026-11-15, 12 weeks) is 2026-10-04 … 2026-12-20. */
const HORIZON = { start: '2026-10', periods: 3, granularity: 'month' } as const;

describe.each(backends)('network optimisation on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 40, weeks: 12 });
  });
  afterAll(async () => server?.close());

  const network = async (): Promise<NetworkData> =>
    (await server.request<Envelope<NetworkData>>('GET', '/api/optimisation/network')).body.data;

  async function solve(body: Record<string, unknown>): Promise<OptimisationRunDetail> {
    const started = await server.request<Envelope<OptimisationRun>>('POST', '/api/optimisation/runs', body);
    expect(started.status).toBe(202);
    expect(started.body.data.status).toBe('running');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { body: run } = await server.request<Envelope<OptimisationRunDetail>>(
        'GET',
        `/api/optimisation/runs/${started.body.data.id}`,
      );
      if (run.data.status !== 'running') return run.data;
      if (Date.now() > deadline) throw new Error(`Run ${run.data.id} still running`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  it('is for admins only: a circor user and a user of no group are refused every call', async () => {
    for (const [method, path] of [
      ['GET', '/api/optimisation/network'],
      ['GET', '/api/optimisation/runs'],
      ['POST', '/api/optimisation/runs'],
      ['GET', '/api/optimisation/scenarios'],
      ['PUT', '/api/optimisation/dcs/1'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      expect((await server.request(method, path, body, { as: 'anonymous' })).status).toBe(401);
      const circor = await server.request<Envelope<null>>(method, path, body, { as: 'circor' });
      expect(circor.status).toBe(403);
      expect(circor.body.error).toBe('Insufficient permissions');
      expect((await server.request(method, path, body, { as: 'nogroup' })).status).toBe(403);
    }
  });

  it('serves the seeded demo network: 4 plants, 6 DCs, every family made at two plants, all lanes', async () => {
    const data = await network();
    expect(data.plants.map((p) => p.name)).toEqual([
      'Toronto Plant',
      'Frankfurt Plant',
      'Shanghai Plant',
      'Monterrey Plant',
    ]);
    expect(data.dcs).toHaveLength(6);
    expect(data.inboundLanes).toHaveLength(4 * 6);
    expect(data.outboundLanes).toHaveLength(6 * 4);
    expect(data.regions).toEqual(['APAC', 'EMEA', 'LATAM', 'North America']);
    for (const family of data.families) {
      expect(data.plants.filter((p) => p.families.some((f) => f.family === family))).toHaveLength(2);
    }
    expect(data.unmetPenaltyPerUnit).toBeGreaterThan(0);
  });

  it('edits DCs, lanes, plant capacity and the penalty with validation and one audit row per field', async () => {
    const before = await network();
    const dc = before.dcs[0]!;
    const edited = await server.request<Envelope<NetworkData>>('PUT', `/api/optimisation/dcs/${dc.id}`, {
      throughputPerMonth: dc.throughputPerMonth + 100,
      decision: 'open',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.dcs[0]).toMatchObject({
      throughputPerMonth: dc.throughputPerMonth + 100,
      decision: 'open',
    });
    const plant = before.plants[0]!;
    const family = plant.families[0]!;
    await server.request('PUT', `/api/optimisation/plants/${plant.id}`, {
      families: [{ family: family.family, capacityPerMonth: 1234.5, unitCost: family.unitCost }],
    });
    await server.request('PUT', `/api/optimisation/lanes/${before.inboundLanes[0]!.id}`, {
      leadTimeDays: 12,
    });
    const audit = await server.database.db
      .selectFrom('network_audit')
      .select(['entity', 'entity_id', 'field', 'old_value', 'new_value', 'changed_by'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        entity: 'dc',
        entity_id: dc.id,
        field: 'throughputPerMonth',
        new_value: String(dc.throughputPerMonth + 100),
      }),
      expect.objectContaining({ entity: 'dc', field: 'decision', old_value: 'auto', new_value: 'open' }),
      expect.objectContaining({
        entity: 'plant',
        entity_id: plant.id,
        field: `${family.family}.capacityPerMonth`,
        new_value: '1234.5',
      }),
      expect.objectContaining({ entity: 'lane', field: 'leadTimeDays', new_value: '12' }),
    ]);
    expect(audit[0]!.changed_by).toMatch(/admin|Admin/);

    // Back to the seeded values so the solves below use the demo network.
    await server.request('PUT', `/api/optimisation/dcs/${dc.id}`, {
      throughputPerMonth: dc.throughputPerMonth,
      decision: 'auto',
    });
    await server.request('PUT', `/api/optimisation/plants/${plant.id}`, { families: [family] });
    await server.request('PUT', `/api/optimisation/lanes/${before.inboundLanes[0]!.id}`, {
      leadTimeDays: before.inboundLanes[0]!.leadTimeDays,
    });
    expect(await network()).toEqual(before);
  });

  it('answers bad input with a 400 naming the field, and unknown ids with 404', async () => {
    const cases: Array<[string, string, unknown, number, RegExp]> = [
      [
        'PUT',
        '/api/optimisation/dcs/1',
        { throughputPerMonth: -1 },
        400,
        /^throughputPerMonth must be 0 or more$/,
      ],
      ['PUT', '/api/optimisation/dcs/1', {}, 400, /must change at least one field/],
      [
        'PUT',
        '/api/optimisation/dcs/1',
        { decision: 'maybe' },
        400,
        /^decision must be 'auto', 'open' or 'closed'$/,
      ],
      [
        'PUT',
        '/api/optimisation/dcs/1',
        { fixedCostPerMonth: 1e15 },
        400,
        /^fixedCostPerMonth must be at most/,
      ],
      ['PUT', '/api/optimisation/dcs/99999', { decision: 'open' }, 404, /DC 99999 was not found/],
      ['PUT', '/api/optimisation/dcs/abc', { decision: 'open' }, 400, /^id must be a number$/],
      [
        'PUT',
        '/api/optimisation/lanes/1',
        { leadTimeDays: 1.5 },
        400,
        /^leadTimeDays must be a whole number$/,
      ],
      [
        'PUT',
        '/api/optimisation/lanes/1',
        { costPerUnit: 0.00001 },
        400,
        /^costPerUnit must have at most 4 decimals$/,
      ],
      [
        'PUT',
        '/api/optimisation/plants/1',
        { families: [{ family: 'Nope', capacityPerMonth: 1, unitCost: 1 }] },
        400,
        /^families\.0\.family names no product family$/,
      ],
      [
        'PUT',
        '/api/optimisation/plants/1',
        { families: [{ family: 'a\u0000b', capacityPerMonth: 1, unitCost: 1 }] },
        400,
        /families\.0\.family must not hold a NUL/,
      ],
      [
        'PUT',
        '/api/optimisation/settings',
        { unmetPenaltyPerUnit: 'high' },
        400,
        /^unmetPenaltyPerUnit must be a number$/,
      ],
      [
        'POST',
        '/api/optimisation/runs',
        { horizon: { ...HORIZON, start: '2026-13' } },
        400,
        /^horizon\.start must be a month as yyyy-mm$/,
      ],
      [
        'POST',
        '/api/optimisation/runs',
        { horizon: { ...HORIZON, periods: 25 } },
        400,
        /^horizon\.periods must be at most 24$/,
      ],
      [
        'POST',
        '/api/optimisation/runs',
        { horizon: HORIZON, timeLimitSeconds: 301 },
        400,
        /^timeLimitSeconds must be at most 300$/,
      ],
      [
        'POST',
        '/api/optimisation/runs',
        { horizon: HORIZON, scenarioId: 99999 },
        404,
        /Scenario 99999 was not found/,
      ],
      [
        'POST',
        '/api/optimisation/scenarios',
        { name: 'x', changes: [{ kind: 'dc-decision', dcId: 99999, decision: 'closed' }] },
        400,
        /^changes\.0\.dcId names no DC of the network$/,
      ],
      [
        'POST',
        '/api/optimisation/scenarios',
        { name: 'x', changes: [{ kind: 'demand', percent: -101, region: null, family: null }] },
        400,
        /^changes\.0\.percent must be at least -100$/,
      ],
      ['POST', '/api/optimisation/scenarios', { name: '', changes: [] }, 400, /^name must not be empty$/],
      ['GET', '/api/optimisation/compare?base=1', undefined, 400, /^scenario must be given$/],
      ['GET', '/api/optimisation/runs/99999', undefined, 404, /Optimisation run 99999 was not found/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await server.request<Envelope<null>>(method, path, body);
      expect({ path, body, status: response.status }).toEqual({ path, body, status });
      expect(response.body.error).toMatch(message);
    }
  });

  it('solves the baseline from the final plan: every unit of demand is the plan, every cost adds up', async () => {
    const run = await solve({ horizon: HORIZON, mipGapPercent: 0 });
    expect(run.status).toBe('succeeded');
    const result = run.result!;
    expect(result.status).toBe('optimal');
    expect(result.mipGapPercent).toBe(0);
    expect(result.modelSize.integers).toBe(6);
    const { rows } = await sql<{ units: number }>`
      select coalesce(sum(final_pln_units), 0)::float8 as units from demand_records
      where week_start >= '2026-10-01' and week_start < '2027-01-01'`.execute(server.database.db);
    expect(result.demandUnits).toBeCloseTo(rows[0]!.units, 2);
    const costs = result.costs!;
    expect(costs.total).toBeCloseTo(
      costs.production +
        costs.inboundTransport +
        costs.handling +
        costs.outboundTransport +
        costs.fixed +
        costs.unmetPenalty,
      2,
    );
    expect(result.objective!).toBeCloseTo(costs.total, 0);
    // What plants make reaches the DCs and what DCs receive they ship: flows balance per DC.
    for (const dc of result.dcs) {
      const inbound = result.flows
        .filter((f) => f.leg === 'inbound' && f.to === dc.name)
        .reduce((s, f) => s + f.units, 0);
      expect(inbound).toBeCloseTo(dc.throughputUnits, 1);
    }
    expect(result.metUnits + result.unmetUnits).toBeCloseTo(result.demandUnits, 2);
    expect(result.servicePercent).toBeGreaterThan(90);
    expect(run.summary).toMatchObject({ status: 'optimal', totalCost: costs.total });

    const listed = await server.request<Envelope<OptimisationRun[]>>('GET', '/api/optimisation/runs?limit=5');
    expect(listed.body.data[0]).toMatchObject({
      id: run.id,
      summary: { totalCost: costs.total, openDcs: run.summary!.openDcs },
    });
  });

  it('solves a scenario closing an open DC and compares it with the baseline', async () => {
    const baseline = await solve({ horizon: HORIZON, mipGapPercent: 0 });
    const busiest = [...baseline.result!.dcs].sort((a, b) => b.throughputUnits - a.throughputUnits)[0]!;
    expect(busiest.isOpen).toBe(true);
    const created = await server.request<Envelope<Scenario>>('POST', '/api/optimisation/scenarios', {
      name: `Close ${busiest.name}`,
      changes: [{ kind: 'dc-decision', dcId: busiest.dcId, decision: 'closed' }],
    });
    expect(created.status).toBe(201);
    const duplicate = await server.request<Envelope<null>>('POST', '/api/optimisation/scenarios', {
      name: `Close ${busiest.name}`,
      changes: [],
    });
    expect(duplicate.status).toBe(409);

    const scenarioRun = await solve({ horizon: HORIZON, mipGapPercent: 0, scenarioId: created.body.data.id });
    expect(scenarioRun.scenarioName).toBe(`Close ${busiest.name}`);
    expect(scenarioRun.result!.dcs.find((dc) => dc.dcId === busiest.dcId)!.isOpen).toBe(false);

    const comparison = await server.request<Envelope<RunComparison>>(
      'GET',
      `/api/optimisation/compare?base=${baseline.id}&scenario=${scenarioRun.id}`,
    );
    expect(comparison.status).toBe(200);
    const total = comparison.body.data.costs.find((c) => c.component === 'total')!;
    // The baseline is optimal with the DC free to open or close: closing it cannot cost less.
    expect(total.delta).toBeGreaterThanOrEqual(-0.01);
    expect(total.base).toBe(baseline.result!.costs!.total);
    expect(comparison.body.data.dcs.find((dc) => dc.name === busiest.name)).toEqual({
      name: busiest.name,
      baseOpen: true,
      scenarioOpen: false,
    });
    expect(
      comparison.body.data.flowChanges.some((f) => f.from === busiest.name && f.scenarioUnits === 0),
    ).toBe(true);
  });

  it('reports why a plan is impossible instead of failing: capacity below demand with no unmet allowance', async () => {
    const { body } = await server.request<Envelope<NetworkData>>('PUT', '/api/optimisation/settings', {
      unmetPenaltyPerUnit: null,
    });
    expect(body.data.unmetPenaltyPerUnit).toBeNull();
    const surge = await server.request<Envelope<Scenario>>('POST', '/api/optimisation/scenarios', {
      name: 'Demand surge',
      changes: [{ kind: 'demand', percent: 400, region: null, family: null }],
    });
    const run = await solve({ horizon: HORIZON, scenarioId: surge.body.data.id });
    expect(run.status).toBe('succeeded');
    expect(run.result!.status).toBe('infeasible');
    expect(run.result!.message).toMatch(
      /^Plant capacity for .+ is [\d,]+ units, below the demand of [\d,]+ units, and unmet demand is not allowed\.$/,
    );
    expect(run.summary).toMatchObject({ status: 'infeasible', totalCost: null });
    await server.request('PUT', '/api/optimisation/settings', { unmetPenaltyPerUnit: 100 });
    const deleted = await server.request<Envelope<{ id: number }>>(
      'DELETE',
      `/api/optimisation/scenarios/${surge.body.data.id}`,
    );
    expect(deleted.body.data).toEqual({ id: surge.body.data.id });
    expect((await server.request('DELETE', `/api/optimisation/scenarios/${surge.body.data.id}`)).status).toBe(
      404,
    );
  });
});
