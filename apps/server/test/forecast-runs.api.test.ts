import type { AccuracyReport, DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { ForecastRunService } from '../src/modules/forecast-runs/forecast-run.service';
import { TEST_POSTGRES_URL, backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Run = {
  id: number;
  status: string;
  totalProducts: number;
  processedProducts: number;
  updatedRecords: number;
  progressPercent: number;
  error: string | null;
};
type Envelope<T> = { success: boolean; data: T; error: string | null; code?: string };

describe.each(backends)('forecast runs on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 12 });
  });
  afterAll(async () => server?.close());

  async function waitForRun(id: number): Promise<Run> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { body } = await server.request<Envelope<Run>>('GET', `/api/forecast/runs/${id}`);
      if (body.data.status !== 'running') return body.data;
      if (Date.now() > deadline) throw new Error(`Run ${id} still running`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('refuses callers who are not admins', async () => {
    expect((await server.request('POST', '/api/forecast/runs', undefined, { as: 'anonymous' })).status).toBe(
      401,
    );
    const circor = await server.request<Envelope<null>>('POST', '/api/forecast/runs', undefined, {
      as: 'circor',
    });
    expect(circor.status).toBe(403);
    expect(circor.body.error).toBe('Insufficient permissions');
  });

  it('runs in the background, refuses a second run meanwhile, and rewrites the statistical fields', async () => {
    // An override set before the run: units overrides must survive it.
    const before = await server.request<Envelope<{ items: DemandRecord[] }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5000',
    );
    const target = before.body.data.items.find(
      (r) =>
        r.Act_Bkg_Units === null &&
        r.Rev_Pln_Ovrd_Units === null &&
        r.Rev_Pln_Ovrd_Percent === null &&
        r.SOP_Pln_Ovrd_Percent === null &&
        r.SOP_Pln_Ovrd_Units === null,
    )!;
    await server.request('PUT', `/api/demand-planning/real-data/${target.PID}/${target.Time_Series_sk}`, {
      SOP_Pln_Ovrd_Units: 321,
    });

    // The confirmation says beforehand what the run then rewrites: 12 products × 6 future weeks.
    const preview = await server.request<Envelope<{ products: number; records: number }>>(
      'GET',
      '/api/forecast/runs/preview',
    );
    expect(preview.body.data).toEqual({ products: 12, records: 72 });
    expect(
      (await server.request('GET', '/api/forecast/runs/preview', undefined, { as: 'circor' })).status,
    ).toBe(403);

    const [first, second] = await Promise.all([
      server.request<Envelope<Run>>('POST', '/api/forecast/runs'),
      server.request<Envelope<Run>>('POST', '/api/forecast/runs'),
    ]);
    const started = [first, second].find((r) => r.status === 202)!;
    const refused = [first, second].find((r) => r.status === 409)!;
    expect(started.body.data.status).toBe('running');
    expect(refused.body.code).toBe('BUSY');
    expect(refused.body.error).toMatch(
      /^A forecast run is already in progress \(run \d+, started by .+\)\. Wait for it to finish before starting another\.$/,
    );

    const run = await waitForRun(started.body.data.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      totalProducts: 12,
      processedProducts: 12,
      progressPercent: 100,
      error: null,
    });
    // 12 products × 6 future weeks (12-week window: 6 past, 6 future).
    expect(run.updatedRecords).toBe(72);

    const after = await server.request<Envelope<{ items: DemandRecord[] }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5000',
    );
    const future = after.body.data.items.filter((r) => r.Act_Bkg_Units === null);
    expect(future).toHaveLength(72);
    for (const record of future) {
      expect(record.last_updated_by).toBe('Forecast engine');
      expect(record.Ensemble_Fcst_Units).toBeGreaterThanOrEqual(0);
      // The plan chain follows the new baseline where nothing is overridden.
      const isPlain =
        record.Rev_Pln_Ovrd_Percent === null &&
        record.Rev_Pln_Ovrd_Units === null &&
        record.SOP_Pln_Ovrd_Percent === null &&
        record.SOP_Pln_Ovrd_Units === null;
      if (isPlain) {
        expect(record.Prelim_Pln_Units).toBe(Math.round(record.Ensemble_Fcst_Units!));
        expect(record.Final_Pln_Units).toBe(record.Prelim_Pln_Units);
      }
    }
    const overridden = future.find(
      (r) => r.PID === target.PID && r.Time_Series_sk === target.Time_Series_sk,
    )!;
    expect(overridden.Final_Pln_Units).toBe(321);
    expect(overridden.Prelim_Pln_Units).toBe(Math.round(overridden.Ensemble_Fcst_Units!));

    // Naïve = the last week of sales history, for every horizon.
    const lastHistory = await server.database.db
      .selectFrom('sales_history')
      .select(['units'])
      .where('pid', '=', target.PID)
      .orderBy('week_start', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(
      future
        .filter((r) => r.PID === target.PID)
        .every((r) => r['Naïve_Rev_Mfg_Fcst_Bk_Units'] === lastHistory.units),
    ).toBe(true);

    const accuracy = await server.database.db.selectFrom('forecast_accuracy').selectAll().execute();
    expect(accuracy).toHaveLength(12);
    expect(
      accuracy.every((row) => row.run_id === run.id && row.model.length > 0 && row.history_weeks === 130),
    ).toBe(true);

    // Another run may start once this one is done.
    const again = await server.request<Envelope<Run>>('POST', '/api/forecast/runs');
    expect(again.status).toBe(202);
    expect((await waitForRun(again.body.data.id)).status).toBe('succeeded');
    const recent = await server.request<Envelope<Run[]>>('GET', '/api/forecast/runs?limit=2');
    expect(recent.body.data.map((r) => r.id)).toEqual([again.body.data.id, run.id]);
  });

  it("shows a product's accuracy with the ensemble's members and weights, to its own client only", async () => {
    type Accuracy = {
      pid: string;
      runId: number;
      model: string;
      mape: number | null;
      members: { model: string; window: number | null; weight: number }[];
    };
    const products = await server.database.db.selectFrom('products').select(['pid', 'client_id']).execute();
    const internal = products.find((p) => p.client_id === 'internal')!;
    const circor = products.find((p) => p.client_id === 'circor')!;

    const { status, body } = await server.request<Envelope<Accuracy>>(
      'GET',
      `/api/forecast/accuracy/${encodeURIComponent(internal.pid)}`,
    );
    expect(status).toBe(200);
    const stored = await server.database.db
      .selectFrom('forecast_accuracy')
      .selectAll()
      .where('pid', '=', internal.pid)
      .executeTakeFirstOrThrow();
    expect(body.data).toMatchObject({ pid: internal.pid, runId: stored.run_id, model: stored.model });
    expect(body.data.members).toEqual(stored.members);
    expect(body.data.members.length).toBeGreaterThan(0);
    const total = body.data.members.reduce((t, m) => t + m.weight, 0);
    expect(total).toBeCloseTo(1, 3);
    for (const m of body.data.members) expect(m.window === null || m.window > 0).toBe(true);

    // A circor user sees its own product and nothing of another client's (404, not 403: no hint).
    const own = await server.request<Envelope<Accuracy>>(
      'GET',
      `/api/forecast/accuracy/${encodeURIComponent(circor.pid)}`,
      undefined,
      { as: 'circor' },
    );
    expect(own.status).toBe(200);
    expect(own.body.data.pid).toBe(circor.pid);
    const other = await server.request<Envelope<null>>(
      'GET',
      `/api/forecast/accuracy/${encodeURIComponent(internal.pid)}`,
      undefined,
      { as: 'circor' },
    );
    expect(other.status).toBe(404);
    expect(other.body.error).toBe(`No forecast accuracy for product ${internal.pid}`);
    const anonymous = await server.request('GET', `/api/forecast/accuracy/${internal.pid}`, undefined, {
      as: 'anonymous',
    });
    expect(anonymous.status).toBe(401);
    const unknown = await server.request<Envelope<null>>('GET', '/api/forecast/accuracy/NO-SUCH-PID');
    expect(unknown.status).toBe(404);
    const bad = await server.request<Envelope<null>>('GET', `/api/forecast/accuracy/${'x'.repeat(65)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('pid must be at most 64 characters');
  });

  it("gives the accuracy screen's product rows the members and weights of each product's latest forecast", async () => {
    const { status, body } = await server.request<Envelope<AccuracyReport>>(
      'GET',
      '/api/control-tower/accuracy?lag=1',
    );
    expect(status).toBe(200);
    expect(body.data.byProduct.length).toBeGreaterThan(0);
    const stored = new Map(
      (await server.database.db.selectFrom('forecast_accuracy').select(['pid', 'members']).execute()).map(
        (row) => [row.pid, row.members],
      ),
    );
    for (const row of body.data.byProduct) expect(row.members).toEqual(stored.get(row.pid!) ?? null);
    expect(body.data.byProduct.some((row) => (row.members?.length ?? 0) > 0)).toBe(true);
    // Business units and families are not one forecast: no members there.
    expect([...body.data.byBusinessUnit, ...body.data.byFamily].every((row) => row.members === null)).toBe(
      true,
    );
  });

  it('answers 404 for an unknown run and 400 for a bad id', async () => {
    const missing = await server.request<Envelope<null>>('GET', '/api/forecast/runs/99999');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Forecast run 99999 was not found');
    const bad = await server.request<Envelope<null>>('GET', '/api/forecast/runs/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('id must be a number');
  });
});

async function waitForRunOn(server: TestServer, id: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await server.request<Envelope<Run>>('GET', `/api/forecast/runs/${id}`);
    if (body.data.status !== 'running') return;
    if (Date.now() > deadline) throw new Error(`Run ${id} still running`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!backends.includes('postgres'))(
  'forecast runs shared by several server processes on one PostgreSQL',
  () => {
    let server: TestServer;
    let other: DatabaseHandle;
    beforeAll(async () => {
      server = await startTestServer('postgres', { products: 30, weeks: 12 });
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        server.database.db,
      );
      other = openDatabase({
        kind: 'postgres',
        url: TEST_POSTGRES_URL,
        schema: rows[0]!.schema,
        poolSize: 2,
      });
    });
    afterAll(async () => {
      await other?.close();
      await server?.close();
    });

    it('a second process starting up leaves the run the first one is doing alone, and refuses a second run', async () => {
      const { body } = await server.request<{ data: { id: number } }>('POST', '/api/forecast/runs');
      const secondProcess = new ForecastRunService(
        other.db,
        { error: () => undefined, info: () => undefined },
        'postgres',
      );
      await secondProcess.recoverInterruptedRuns();
      const run = await secondProcess.get(body.data.id);
      expect(['running', 'succeeded']).toContain(run.status);
      if (run.status === 'running') {
        await expect(
          secondProcess.start({
            userId: 'second',
            userName: 'Second process',
            groups: ['admin'],
            clientIds: ['internal', 'circor'],
            canWrite: true,
            isAdmin: true,
          }),
        ).rejects.toMatchObject({ code: 'BUSY' });
      }
      await waitForRunOn(server, body.data.id);
      expect((await secondProcess.get(body.data.id)).status).toBe('succeeded');
    });

    it('fails a run whose process is gone (no lock held) and lets a new run start', async () => {
      // A row left 'running' with nobody holding its lock: what a killed process leaves behind.
      const orphan = await other.db
        .insertInto('forecast_runs')
        .values({
          status: 'running',
          requested_by: 'Killed process',
          client_ids: ['internal'],
          error: null,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { status, body } = await server.request<{ data: { id: number } }>('POST', '/api/forecast/runs');
      expect(status).toBe(202);
      const orphaned = await server.database.db
        .selectFrom('forecast_runs')
        .selectAll()
        .where('id', '=', orphan.id)
        .executeTakeFirstOrThrow();
      expect(orphaned.status).toBe('failed');
      expect(orphaned.error).toBe('Interrupted: the server stopped before the run finished');
      await waitForRunOn(server, body.data.id);
    });
  },
);
