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

  it('creates and deletes plants, DCs and lanes: validated, audited, a node in use is a 409 until confirmed', async () => {
    const before = await network();
    const family = before.families[0]!;
    const post = (path: string, body: unknown) =>
      server.request<Envelope<NetworkData>>('POST', `/api/optimisation/${path}`, body);
    const auditFrom = (
      await server.database.db
        .selectFrom('network_audit')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id;

    const plant = await post('plants', {
      name: 'Pune Plant',
      region: 'APAC',
      families: [{ family, capacityPerMonth: 500, unitCost: 7.25 }],
    });
    expect(plant.status).toBe(201);
    const pune = plant.body.data.plants.find((p) => p.name === 'Pune Plant')!;
    expect(pune).toMatchObject({
      region: 'APAC',
      families: [{ family, capacityPerMonth: 500, unitCost: 7.25 }],
    });
    const dc = await post('dcs', {
      name: 'Chennai DC',
      region: 'APAC',
      throughputPerMonth: 800,
      fixedCostPerMonth: 900,
      handlingCostPerUnit: 0.5,
    });
    expect(dc.status).toBe(201);
    const chennai = dc.body.data.dcs.find((d) => d.name === 'Chennai DC')!;
    expect(chennai.decision).toBe('auto');
    const inbound = await post('lanes', {
      leg: 'inbound',
      plantId: pune.id,
      dcId: chennai.id,
      costPerUnit: 0.4,
      leadTimeDays: 2,
    });
    expect(inbound.status).toBe(201);
    const outbound = await post('lanes', {
      leg: 'outbound',
      dcId: chennai.id,
      region: 'APAC',
      costPerUnit: 0.6,
      leadTimeDays: 1,
    });
    expect(outbound.body.data.outboundLanes.filter((l) => l.dcId === chennai.id)).toEqual([
      expect.objectContaining({ region: 'APAC', costPerUnit: 0.6, leadTimeDays: 1 }),
    ]);

    // Bad input: 400 naming the field; duplicates 409; nothing saved by either.
    const refused: Array<[string, unknown, number, string]> = [
      ['plants', { name: '', region: 'APAC' }, 400, 'name'],
      ['plants', { name: 'X Plant', region: 'Mars' }, 400, 'region'],
      [
        'plants',
        { name: 'X Plant', region: 'APAC', families: [{ family: 'Nope', capacityPerMonth: 1, unitCost: 1 }] },
        400,
        'families.0.family',
      ],
      [
        'plants',
        { name: 'X Plant', region: 'APAC', families: [{ family, capacityPerMonth: -1, unitCost: 1 }] },
        400,
        'families.0.capacityPerMonth',
      ],
      ['plants', { name: 'Pune Plant', region: 'APAC' }, 409, 'Pune Plant'],
      [
        'dcs',
        { name: 'Y DC', region: 'APAC', throughputPerMonth: 1, fixedCostPerMonth: 1 },
        400,
        'handlingCostPerUnit',
      ],
      [
        'dcs',
        {
          name: 'Y DC',
          region: 'APAC',
          throughputPerMonth: 1,
          fixedCostPerMonth: 1,
          handlingCostPerUnit: 1,
          decision: 'maybe',
        },
        400,
        'decision',
      ],
      [
        'dcs',
        {
          name: 'Chennai DC',
          region: 'APAC',
          throughputPerMonth: 1,
          fixedCostPerMonth: 1,
          handlingCostPerUnit: 1,
        },
        409,
        'Chennai DC',
      ],
      ['lanes', { leg: 'sideways', dcId: chennai.id, costPerUnit: 1, leadTimeDays: 1 }, 400, 'leg'],
      [
        'lanes',
        { leg: 'inbound', plantId: 999_999, dcId: chennai.id, costPerUnit: 1, leadTimeDays: 1 },
        400,
        'plantId',
      ],
      [
        'lanes',
        { leg: 'outbound', dcId: chennai.id, region: 'Mars', costPerUnit: 1, leadTimeDays: 1 },
        400,
        'region',
      ],
      [
        'lanes',
        { leg: 'outbound', dcId: chennai.id, region: 'APAC', costPerUnit: 1, leadTimeDays: 1.5 },
        400,
        'leadTimeDays',
      ],
      [
        'lanes',
        { leg: 'outbound', dcId: chennai.id, region: 'APAC', costPerUnit: 1, leadTimeDays: 1 },
        409,
        'Chennai DC → APAC',
      ],
    ];
    for (const [path, body, status, names] of refused) {
      const answer = await server.request<Envelope<null>>('POST', `/api/optimisation/${path}`, body);
      expect([path, body, answer.status]).toEqual([path, body, status]);
      expect(answer.body.error).toContain(names);
    }
    const afterCreate = await network();
    expect(afterCreate.plants).toHaveLength(before.plants.length + 1);
    expect(afterCreate.dcs).toHaveLength(before.dcs.length + 1);
    expect(afterCreate.inboundLanes.length + afterCreate.outboundLanes.length).toBe(
      before.inboundLanes.length + before.outboundLanes.length + 2,
    );

    // A node lanes use: 409 naming them; a scenario naming it: 409 even when confirmed.
    const inUse = await server.request<Envelope<null>>('DELETE', `/api/optimisation/dcs/${chennai.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe(
      'Chennai DC is used by 2 lanes; delete them first or confirm deleting Chennai DC with its lanes (withLanes=true)',
    );
    const scenario = await server.request<Envelope<Scenario>>('POST', '/api/optimisation/scenarios', {
      name: 'Open Chennai',
      changes: [{ kind: 'dc-decision', dcId: chennai.id, decision: 'open' }],
    });
    const named = await server.request<Envelope<null>>(
      'DELETE',
      `/api/optimisation/dcs/${chennai.id}?withLanes=true`,
    );
    expect(named.status).toBe(409);
    expect(named.body.error).toBe(
      'Chennai DC is named by the scenario "Open Chennai"; change or delete it first',
    );
    await server.request('DELETE', `/api/optimisation/scenarios/${scenario.body.data.id}`);
    expect(
      (await server.request('DELETE', `/api/optimisation/dcs/${chennai.id}?withLanes=maybe`)).status,
    ).toBe(400);

    // A lane on its own; then the DC, confirmed, with its remaining lane; then the plant, now unused.
    const chennaiOut = outbound.body.data.outboundLanes.find((l) => l.dcId === chennai.id)!;
    expect((await server.request('DELETE', `/api/optimisation/lanes/${chennaiOut.id}`)).status).toBe(200);
    expect((await server.request('DELETE', `/api/optimisation/lanes/${chennaiOut.id}`)).status).toBe(404);
    const gone = await server.request<Envelope<NetworkData>>(
      'DELETE',
      `/api/optimisation/dcs/${chennai.id}?withLanes=true`,
    );
    expect(gone.status).toBe(200);
    expect(gone.body.data.dcs.some((d) => d.id === chennai.id)).toBe(false);
    expect(gone.body.data.inboundLanes.some((l) => l.dcId === chennai.id)).toBe(false);
    expect((await server.request('DELETE', `/api/optimisation/plants/${pune.id}`)).status).toBe(200);
    expect((await server.request('DELETE', `/api/optimisation/plants/${pune.id}`)).status).toBe(404);
    expect(await network()).toEqual(before);

    const audit = await server.database.db
      .selectFrom('network_audit')
      .select(['entity', 'field', 'old_value', 'new_value'])
      .where('id', '>', auditFrom ?? 0)
      .where('field', 'in', ['name', 'lane', 'deleted'])
      .orderBy('id')
      .execute();
    expect(audit.slice(0, 4)).toEqual([
      { entity: 'plant', field: 'name', old_value: null, new_value: 'Pune Plant' },
      { entity: 'dc', field: 'name', old_value: null, new_value: 'Chennai DC' },
      { entity: 'lane', field: 'lane', old_value: null, new_value: 'Pune Plant → Chennai DC' },
      { entity: 'lane', field: 'lane', old_value: null, new_value: 'Chennai DC → APAC' },
    ]);
    expect(audit.slice(4)).toEqual([
      { entity: 'lane', field: 'deleted', old_value: 'Chennai DC → APAC', new_value: null },
      { entity: 'lane', field: 'deleted', old_value: 'Pune Plant → Chennai DC', new_value: null },
      { entity: 'dc', field: 'deleted', old_value: 'Chennai DC', new_value: null },
      { entity: 'plant', field: 'deleted', old_value: 'Pune Plant', new_value: null },
    ]);
  });

  it('limits solves across servers through the database: two running anywhere, a third is refused', async () => {
    // Two solves another server of the same database is running (rows it stored).
    const others = await server.database.db
      .insertInto('optimisation_runs')
      .values(
        [1, 2].map(() => ({
          scenario_id: null,
          scenario_name: null,
          status: 'running' as const,
          requested_by: 'another server',
          settings: JSON.stringify({ horizon: HORIZON }),
        })),
      )
      .returning('id')
      .execute();
    const refused = await server.request<Envelope<null>>('POST', '/api/optimisation/runs', {
      horizon: HORIZON,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'BUSY',
      error: '2 solves are running already. Start this one when one of them has finished.',
    });
    // A run left 'running' by a server that stopped 20 minutes ago holds no slot.
    await server.database.db
      .updateTable('optimisation_runs')
      .set({ started_at: sql<Date>`now() - interval '20 minutes'` as never })
      .where('id', '=', others[0]!.id)
      .execute();
    const run = await solve({ horizon: HORIZON });
    expect(run.status).toBe('succeeded');
    await server.database.db
      .updateTable('optimisation_runs')
      .set({ status: 'failed', error: 'test' })
      .where(
        'id',
        'in',
        others.map((o) => o.id),
      )
      .execute();
  });
});
