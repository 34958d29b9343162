import {
  fiscalQuarterKey,
  toIsoDate,
  weekStartSunday,
  type DashboardMetrics,
  type PlanCycle,
  type PlanCyclePreview,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

// Half up to cents, as the server rounds money.
const cents = (value: number): number => Math.round(Number((value * 100).toPrecision(12))) / 100;

/** The first day of the current quarter as yyyy-mm-dd: a publish moves the weeks from there on. */
const quarterStart = (): string => {
  const sunday = weekStartSunday(new Date());
  return toIsoDate(new Date(Date.UTC(sunday.getUTCFullYear(), Math.floor(sunday.getUTCMonth() / 3) * 3, 1)));
};

type RecordPlans = {
  pid: string;
  week_start: string;
  client_id: string;
  final_units: number | null;
  final_cost: number | null;
  final_revenue: number | null;
  p1_units: number | null;
  p1_cost: number | null;
  p1_revenue: number | null;
  p2_units: number | null;
  p2_cost: number | null;
  p2_revenue: number | null;
};

describe.each(backends)('plan cycles on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 30, weeks: 26 });
  });
  afterAll(async () => server?.close());

  /** Every record's Final, P1 and P2, read straight from demand_records. */
  const recordPlans = async (): Promise<RecordPlans[]> =>
    (
      await sql<RecordPlans>`
        select r.pid, r.week_start::text as week_start, p.client_id,
          r.final_pln_units as final_units, r.final_bk_pln_cost as final_cost, r.final_pln_rev_dlrs as final_revenue,
          r.p1_pub_pln_units as p1_units, r.p1_pub_pln_cost as p1_cost, r.p1_pub_pln_rev_dlrs as p1_revenue,
          r.p2_pub_pln_units as p2_units, r.p2_pub_pln_cost as p2_cost, r.p2_pub_pln_rev_dlrs as p2_revenue
        from demand_records r join products p on p.pid = r.pid
        order by r.pid, r.week_start`.execute(server.database.db)
    ).rows;

  /** One client's totals of a plan column by quarter, computed from the records in the test. */
  const quarterSums = (records: RecordPlans[], clientId: string, plan: 'final' | 'p1' | 'p2') => {
    const sums = new Map<string, { quarter: string; units: number; cost: number; revenue: number }>();
    for (const r of records.filter((x) => x.client_id === clientId)) {
      const quarter = fiscalQuarterKey(new Date(`${r.week_start}T00:00:00Z`));
      const sum = sums.get(quarter) ?? { quarter, units: 0, cost: 0, revenue: 0 };
      sum.units += r[`${plan}_units`] ?? 0;
      sum.cost = Math.round((sum.cost + (r[`${plan}_cost`] ?? 0)) * 100) / 100;
      sum.revenue = Math.round((sum.revenue + (r[`${plan}_revenue`] ?? 0)) * 100) / 100;
      sums.set(quarter, sum);
    }
    return [...sums.values()].sort((a, b) => a.quarter.localeCompare(b.quarter));
  };

  const list = async (as: 'admin' | 'circor' = 'admin') =>
    (await server.request<Ok<PlanCycle[]>>('GET', '/api/plan-cycles', undefined, { as })).body.data;

  it('lists ten quarterly cycles per client, the latest two matching the P1 and P2 columns', async () => {
    const cycles = await list();
    expect(cycles).toHaveLength(20);
    const internal = cycles.filter((c) => c.clientId === 'internal');
    expect(internal).toHaveLength(10);
    // Newest first, 13 weeks apart.
    const times = internal.map((c) => Date.parse(c.publishedAt));
    for (let i = 1; i < times.length; i += 1) expect(times[i - 1]! - times[i]!).toBe(13 * 7 * 86_400_000);
    const records = await recordPlans();
    expect(internal[0]!.quarters).toEqual(quarterSums(records, 'internal', 'p1'));
    expect(internal[1]!.quarters).toEqual(quarterSums(records, 'internal', 'p2'));
    expect(internal[0]!.recordCount).toBe(records.filter((r) => r.client_id === 'internal').length);
  });

  it('lets a circor user list only circor cycles, and refuses it preview and publish', async () => {
    const cycles = await list('circor');
    expect(cycles).toHaveLength(10);
    expect(new Set(cycles.map((c) => c.clientId))).toEqual(new Set(['circor']));
    // Asking for another client's context only narrows, never widens.
    const widened = await server.request<Ok<PlanCycle[]>>(
      'GET',
      '/api/plan-cycles?clientContext=internal',
      undefined,
      { as: 'circor' },
    );
    expect(widened.body.data.every((c) => c.clientId === 'circor')).toBe(true);
    const before = await recordPlans();
    for (const [method, path] of [
      ['POST', '/api/plan-cycles'],
      ['GET', '/api/plan-cycles/preview'],
    ] as const) {
      const refused = await server.request<Failure>(method, path, method === 'POST' ? {} : undefined, {
        as: 'circor',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, data: null });
    }
    expect(await recordPlans()).toEqual(before);
    expect(await list()).toHaveLength(20);
  });

  it.each([
    [{ label: '' }, 'label'],
    [{ label: 'x'.repeat(81) }, 'label'],
    [{ label: 42 }, 'label'],
    [{ clientContext: 'x'.repeat(51) }, 'clientContext'],
  ])('refuses the publish body %j with a 400 naming %s', async (body, field) => {
    const before = await recordPlans();
    const { status, body: answer } = await server.request<Failure>('POST', '/api/plan-cycles', body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ success: false, data: null, code: 'VALIDATION' });
    expect(answer.error).toContain(field);
    expect(await recordPlans()).toEqual(before);
  });

  it('previews the Final totals by quarter per client', async () => {
    const records = await recordPlans();
    const { status, body } = await server.request<Ok<PlanCyclePreview[]>>('GET', '/api/plan-cycles/preview');
    expect(status).toBe(200);
    expect(body.data.map((p) => p.clientId)).toEqual(['circor', 'internal']);
    for (const preview of body.data) {
      expect(preview.quarters).toEqual(quarterSums(records, preview.clientId, 'final'));
      expect(preview.recordCount).toBe(records.filter((r) => r.client_id === preview.clientId).length);
    }
  });

  it('publishes one client: its Final → P1 and P1 → P2 from the current quarter on, other clients untouched, totals kept exact', async () => {
    const before = await recordPlans();
    const { status, body } = await server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', {
      label: 'November S&OP',
      clientContext: 'internal',
    });
    expect(status).toBe(201);
    expect(body.data).toHaveLength(1);
    const version = body.data[0]!;
    expect(version).toMatchObject({
      clientId: 'internal',
      label: 'November S&OP',
      publishedBy: 'Demo Admin',
    });
    expect(version.quarters).toEqual(quarterSums(before, 'internal', 'final'));
    const finals = quarterSums(before, 'internal', 'final');
    expect(version.units).toBe(finals.reduce((s, q) => s + q.units, 0));
    expect(version.revenue).toBeCloseTo(
      finals.reduce((s, q) => s + q.revenue, 0),
      2,
    );

    const after = await recordPlans();
    const shifted = before.filter((r) => r.client_id === 'internal' && r.week_start >= quarterStart());
    // The test data reaches both sides of the quarter's start: some rows move, some keep their plan.
    expect(shifted.length).toBeGreaterThan(0);
    expect(shifted.length).toBeLessThan(before.filter((r) => r.client_id === 'internal').length);
    for (const [i, old] of before.entries()) {
      const now = after[i]!;
      if (old.client_id === 'internal' && old.week_start >= quarterStart()) {
        expect([now.p1_units, now.p1_cost, now.p1_revenue]).toEqual([
          old.final_units,
          old.final_cost,
          old.final_revenue,
        ]);
        expect([now.p2_units, now.p2_cost, now.p2_revenue]).toEqual([
          old.p1_units,
          old.p1_cost,
          old.p1_revenue,
        ]);
      } else {
        expect(now).toEqual(old);
      }
    }
    // The grid's roll-up totals equal the records' sums, computed here without them.
    const { rows: mismatches } = await sql<{ n: number }>`
      with truth as (
        select p.client_id, p.bu, p.pf, p.region, r.week_start,
          sum(r.p1_pub_pln_units) as p1u, sum(r.p1_pub_pln_rev_dlrs) as p1r,
          sum(r.p2_pub_pln_units) as p2u, sum(r.p2_pub_pln_cost) as p2c
        from demand_records r join products p on p.pid = r.pid
        group by 1, 2, 3, 4, 5)
      select count(*)::int as n from truth t full join demand_week_totals w
        using (client_id, bu, pf, region, week_start)
      where t.p1u is distinct from w.p1_pub_pln_units or t.p1r is distinct from w.p1_pub_pln_rev_dlrs
         or t.p2u is distinct from w.p2_pub_pln_units or t.p2c is distinct from w.p2_pub_pln_cost`.execute(
      server.database.db,
    );
    expect(mismatches[0]!.n).toBe(0);

    const cycles = await list();
    expect(cycles[0]!.id).toBe(version.id);
    expect(cycles).toHaveLength(21);
  });

  it('shows the two latest versions as the dashboard publish values', async () => {
    const quarter = fiscalQuarterKey(new Date());
    const before = await recordPlans();
    const revenueOf = (records: RecordPlans[], plan: 'final' | 'p1') =>
      ['internal', 'circor']
        .flatMap((c) => quarterSums(records, c, plan))
        .filter((q) => q.quarter === quarter)
        .reduce((s, q) => s + q.revenue, 0);
    const published = await server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', {});
    expect(published.body.data.map((v) => v.clientId).sort()).toEqual(['circor', 'internal']);
    const { body } = await server.request<Ok<DashboardMetrics>>('GET', '/api/dashboard-metrics');
    // Tens of dollars (docs/metrics.md): the screen multiplies by 10.
    expect(body.data.currentPublishValue).toBe(cents(revenueOf(before, 'final') / 10));
    expect(body.data.lastPublishValue).toBe(cents(revenueOf(before, 'p1') / 10));
    if (quarter === '2026-Q4') expect(body.data.currentPublishValue).toBeGreaterThan(0);
  });

  it('leaves nothing published when the publish fails', async () => {
    const before = await recordPlans();
    const versions = await list();
    // A real failure inside the transaction, after the records were shifted: the version insert.
    await sql`create function refuse_version() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`.execute(server.database.db);
    await sql`create trigger refuse_version before insert on plan_versions
      for each row execute function refuse_version()`.execute(server.database.db);
    try {
      const { status, body } = await server.request<Failure>('POST', '/api/plan-cycles', {});
      expect(status).toBe(500);
      expect(body.success).toBe(false);
    } finally {
      await sql`drop trigger refuse_version on plan_versions`.execute(server.database.db);
      await sql`drop function refuse_version()`.execute(server.database.db);
    }
    expect(await recordPlans()).toEqual(before);
    expect(await list()).toEqual(versions);
  });

  it('refuses to publish while a forecast run rewrites the plan', async () => {
    const before = await recordPlans();
    const run = await server.database.db
      .insertInto('forecast_runs')
      .values({
        status: 'running',
        requested_by: 'Demo Admin',
        client_ids: ['internal', 'circor'],
        error: null,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const { status, body } = await server.request<Failure>('POST', '/api/plan-cycles', {});
      expect(status).toBe(409);
      expect(body).toMatchObject({ success: false, code: 'BUSY' });
      expect(body.error).toContain(`Forecast run ${run.id}`);
    } finally {
      await server.database.db.deleteFrom('forecast_runs').where('id', '=', run.id).execute();
    }
    expect(await recordPlans()).toEqual(before);
  });

  it('runs two publishes at once one after the other', async () => {
    const before = await recordPlans();
    const [first, second] = await Promise.all([
      server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', { label: 'first' }),
      server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', { label: 'second' }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    // Whichever went second moved the first one's P1 (the Final) to P2; earlier weeks kept theirs.
    for (const [i, now] of (await recordPlans()).entries()) {
      const old = before[i]!;
      if (old.week_start < quarterStart()) {
        expect(now).toEqual(old);
        continue;
      }
      expect([now.p1_units, now.p2_units, now.p1_revenue, now.p2_revenue]).toEqual([
        old.final_units,
        old.final_units,
        old.final_revenue,
        old.final_revenue,
      ]);
    }
    const labels = (await list()).slice(0, 4).map((c) => c.label);
    expect(new Set(labels)).toEqual(new Set(['first', 'second']));
  });
});
