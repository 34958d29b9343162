import {
  fiscalQuarterKey,
  toIsoDate,
  weekStartSunday,
  type AccuracyReport,
  type ExceptionRow,
  type Worksheet,
  type WorksheetFilters,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

/** A success's data, or a failure's message. */
type Reply<T> = { success: boolean; data: T; message?: string };
const cents = (value: number): number => Math.round(value * 100) / 100;

describe.each(backends)('control tower on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 30, weeks: 52 });
  });
  afterAll(async () => server?.close());

  const get = async <T>(path: string, as: 'admin' | 'circor' = 'admin') =>
    server.request<Reply<T>>('GET', path, undefined, { as });
  const db = () => server.database.db;

  it('offers the companies, business units "name (code)" and families of the caller only', async () => {
    const admin = (await get<WorksheetFilters>('/api/control-tower/filters')).body.data;
    expect(admin.companies.map((c) => c.id)).toEqual(['circor', 'internal']);
    const circor = (await get<WorksheetFilters>('/api/control-tower/filters', 'circor')).body.data;
    expect(circor.companies).toEqual([{ id: 'circor', name: 'CIRCOR' }]);
    expect(circor.businessUnits.every((b) => b.companyId === 'circor')).toBe(true);
    const aerospace = circor.businessUnits.find((b) => b.name === 'CIRCOR Aerospace');
    expect(aerospace?.code).toBe('CA');
  });

  it('answers each plan of a family by quarter as the records sum, and the marketing plans of the two latest cycles', async () => {
    const filters = (await get<WorksheetFilters>('/api/control-tower/filters')).body.data;
    const family = filters.productFamilies.find((f) => f.companyId === 'internal')!;
    const query = new URLSearchParams({
      company: 'internal',
      businessUnit: family.businessUnitId,
      productFamily: family.id,
    });
    const { status, body } = await get<Worksheet>(`/api/control-tower/worksheet?${query.toString()}`);
    expect(status).toBe(200);
    const { rows } = await sql<{
      week: string;
      act: number | null;
      fin: number | null;
      fin_cost: number | null;
      p1: number | null;
    }>`
      select r.week_start::text as week, r.act_rev_dlrs::float8 as act, r.final_pln_rev_dlrs::float8 as fin,
        r.final_bk_pln_cost::float8 as fin_cost, r.p1_pub_pln_rev_dlrs::float8 as p1
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = 'internal' and p.bu = ${family.businessUnitId} and p.pf = ${family.id}`.execute(
      db(),
    );
    const expected = new Map<
      string,
      { act: number; fin: number; finCost: number; p1: number; ens: number }
    >();
    for (const r of rows) {
      const q = fiscalQuarterKey(new Date(`${r.week}T00:00:00Z`));
      const e = expected.get(q) ?? { act: 0, fin: 0, finCost: 0, p1: 0, ens: 0 };
      e.act = cents(e.act + (r.act ?? 0));
      e.fin = cents(e.fin + (r.fin ?? 0));
      e.finCost = cents(e.finCost + (r.fin_cost ?? 0));
      e.p1 = cents(e.p1 + (r.p1 ?? 0));
      expected.set(q, e);
    }
    // Pub Ensemble: each record's statistical units at its product's list price, to the cent
    // (docs/metrics.md), summed here from the records.
    const { rows: valued } = await sql<{ week: string; ens: number }>`
      select r.week_start::text as week, round((r.ensemble_fcst_units * p.unit_price)::numeric, 2)::float8 as ens
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = 'internal' and p.bu = ${family.businessUnitId} and p.pf = ${family.id}
        and r.ensemble_fcst_units is not null`.execute(db());
    for (const record of valued) {
      const e = expected.get(fiscalQuarterKey(new Date(`${record.week}T00:00:00Z`)))!;
      e.ens = cents(e.ens + record.ens);
    }
    expect(body.data.quarters.map((q) => q.quarter)).toEqual([...expected.keys()].sort());
    // Each quarter's weeks with data, counted from the records, of the Sundays it has, counted day
    // by day: the quarters where the data starts and ends are usually partial.
    const weeksOf = new Map<string, Set<string>>();
    for (const r of rows) {
      const q = fiscalQuarterKey(new Date(`${r.week}T00:00:00Z`));
      weeksOf.set(q, (weeksOf.get(q) ?? new Set()).add(r.week));
    }
    const sundays = (quarter: string): number => {
      let count = 0;
      const [year, q] = quarter.split('-Q').map(Number) as [number, number];
      for (let day = new Date(Date.UTC(year, (q - 1) * 3, 1)); fiscalQuarterKey(day) === quarter;) {
        if (day.getUTCDay() === 0) count += 1;
        day = new Date(day.getTime() + 86_400_000);
      }
      return count;
    };
    for (const q of body.data.quarters)
      expect(q.coverage).toEqual({ weeks: weeksOf.get(q.quarter)!.size, of: sundays(q.quarter) });
    for (const q of body.data.quarters) {
      const e = expected.get(q.quarter)!;
      expect(q.finalDemandPlan?.revenue).toBeCloseTo(e.fin, 2);
      expect(q.finalDemandPlan?.cost).toBeCloseTo(e.finCost, 2);
      expect(q.p1FinalDemandPlan?.revenue).toBeCloseTo(e.p1, 2);
      expect(q.pubEnsembleForecast?.revenue).toBeCloseTo(e.ens, 2);
      if (q.actualBooking) expect(q.actualBooking.revenue).toBeCloseTo(e.act, 2);
    }
    const { rows: marketing } = await sql<{ quarter: string; revenue: number }>`
      select m.quarter, sum(m.revenue)::float8 as revenue from marketing_plans m
      where m.client_id = 'internal' and m.bu = ${family.businessUnitId} and m.pf = ${family.id}
        and m.cycle = (select cycle from plan_versions where client_id = 'internal' order by published_at desc, id desc limit 1)
      group by 1`.execute(db());
    expect(marketing.length).toBeGreaterThan(0);
    for (const m of marketing) {
      expect(body.data.quarters.find((q) => q.quarter === m.quarter)?.marketingForecast?.revenue).toBeCloseTo(
        m.revenue,
        2,
      );
    }
    expect(body.data.currentCycle?.label).toMatch(/^Cycle \d{4}-W\d{2}$/);
    expect(body.data.tracker.length).toBeGreaterThan(0);
  });

  it('drills down to one product and keeps other clients out of reach', async () => {
    const products = await get<Array<{ pid: string; bu: string; pf: string }>>(
      '/api/control-tower/products?company=circor&search=cir',
      'circor',
    );
    const product = products.body.data[0]!;
    expect(product.pid).toMatch(/^CIR-/);
    const query = new URLSearchParams({ company: 'circor', businessUnit: product.bu, pid: product.pid });
    const drill = await get<Worksheet>(`/api/control-tower/worksheet?${query.toString()}`, 'circor');
    expect(drill.status).toBe(200);
    const { rows } = await sql<{ fin: number }>`
      select coalesce(sum(final_pln_rev_dlrs), 0)::float8 as fin from demand_records where pid = ${product.pid}`.execute(
      db(),
    );
    const total = drill.body.data.quarters.reduce((s, q) => s + (q.finalDemandPlan?.revenue ?? 0), 0);
    expect(total).toBeCloseTo(rows[0]!.fin, 2);
    // Its marketing plan: its share of its family-region's final plan, quarter by quarter.
    const { rows: marketing } = await sql<{ quarter: string; revenue: number }>`
      with mine as (select bu, region, pf, client_id from products where pid = ${product.pid}),
        plans as (select to_char(r.week_start, 'YYYY-"Q"Q') as quarter,
            sum(r.final_pln_rev_dlrs) filter (where r.pid = ${product.pid})::float8 as own,
            sum(r.final_pln_rev_dlrs)::float8 as cell
          from demand_records r join products p on p.pid = r.pid join mine m
            on (m.bu, m.region, m.pf, m.client_id) = (p.bu, p.region, p.pf, p.client_id)
          group by 1)
      select k.quarter, mp.revenue::float8 * k.own / k.cell as revenue
      from plans k join mine m on true
      join marketing_plans mp on (mp.bu, mp.region, mp.pf, mp.client_id, mp.quarter) = (m.bu, m.region, m.pf, m.client_id, k.quarter)
        and mp.cycle = (select cycle from plan_versions where client_id = m.client_id
          order by published_at desc, id desc limit 1)
      where k.cell <> 0 order by 1`.execute(db());
    expect(marketing.length).toBeGreaterThan(0);
    for (const m of marketing) {
      const quarter = drill.body.data.quarters.find((q) => q.quarter === m.quarter);
      if (quarter) expect(quarter.marketingForecast?.revenue).toBeCloseTo(m.revenue, 1);
    }
    expect(drill.body.data.quarters.some((q) => q.marketingForecast !== null)).toBe(true);

    const internal = await get<Worksheet>(
      '/api/control-tower/worksheet?company=internal&businessUnit=Instrumentation',
      'circor',
    );
    expect(internal.status).toBe(404);
    const theirs = await get<Worksheet>('/api/control-tower/products?company=internal', 'circor');
    expect(theirs.status).toBe(404);
    const internalPid = new URLSearchParams({
      company: 'circor',
      businessUnit: product.bu,
      pid: 'PRD-00001',
    });
    expect(
      (await get<Worksheet>(`/api/control-tower/worksheet?${internalPid.toString()}`, 'circor')).status,
    ).toBe(404);
  });

  it.each([
    ['/api/control-tower/worksheet?businessUnit=x', 'company'],
    ['/api/control-tower/worksheet?company=internal', 'businessUnit'],
    ['/api/control-tower/accuracy?lag=0', 'lag'],
    ['/api/control-tower/accuracy?lag=14', 'lag'],
    ['/api/control-tower/accuracy?lag=two', 'lag'],
    ['/api/control-tower/exceptions?lag=1.5', 'lag'],
  ])('refuses %s with a 400 naming %s', async (path, field) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.message).toContain(field);
  });

  /** The final plan at one lag against actuals, computed here from the raw rows. */
  const expectedAccuracy = async (lag: number, clientId?: string) => {
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const { rows } = await sql<{ a: number; nv: number; st: number; fi: number; pid: string }>`
      select s.pid, r.act_bkg_units::float8 as a, s.naive_units::float8 as nv,
        s.stat_units[${lag + 1}::int]::float8 as st, s.final_units[${lag + 1}::int]::float8 as fi
      from forecast_snapshots s join products p on p.pid = s.pid
      join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + ${7 * lag}::int
      where r.act_bkg_units is not null and r.week_start < ${currentWeek}::date
        and (${clientId ?? null}::text is null or p.client_id = ${clientId ?? null})`.execute(db());
    const abs = rows.reduce((s, r) => s + Math.abs(r.fi - r.a), 0);
    const actual = rows.reduce((s, r) => s + Math.abs(r.a), 0);
    const bias = rows.reduce((s, r) => s + (r.fi - r.a), 0);
    const stat = rows.reduce((s, r) => s + Math.abs(r.st - r.a), 0);
    const naive = rows.reduce((s, r) => s + Math.abs(r.nv - r.a), 0);
    return {
      pairs: rows.length,
      pids: new Set(rows.map((r) => r.pid)),
      wape: Math.round((abs / actual) * 10_000) / 100,
      bias: Math.round((bias / actual) * 10_000) / 100,
      statWape: Math.round((stat / actual) * 10_000) / 100,
      mase: Math.round((abs / naive) * 1000) / 1000,
    };
  };

  it.each([1, 4, 13])(
    'computes accuracy, bias, MASE and value add at lag %i from snapshots against actuals',
    async (lag) => {
      const { status, body } = await get<AccuracyReport>(`/api/control-tower/accuracy?lag=${lag}`);
      expect(status).toBe(200);
      const expected = await expectedAccuracy(lag);
      expect(expected.pairs).toBeGreaterThan(0);
      expect(body.data.overall.pairs).toBe(expected.pairs);
      expect(body.data.overall.wape).toBeCloseTo(expected.wape, 2);
      expect(body.data.overall.accuracy).toBeCloseTo(Math.max(0, 100 - expected.wape), 1);
      expect(body.data.overall.bias).toBeCloseTo(expected.bias, 2);
      expect(body.data.overall.mase).toBeCloseTo(expected.mase, 3);
      expect(body.data.fva.final).toBeCloseTo(expected.wape, 2);
      expect(body.data.fva.statistical).toBeCloseTo(expected.statWape, 2);
      expect(body.data.byProduct).toHaveLength(expected.pids.size);
      const buPairs = body.data.byBusinessUnit.reduce((s, r) => s + r.metrics.pairs, 0);
      expect(buPairs).toBe(expected.pairs);
      expect(body.data.byReason.reduce((s, r) => s + r.pairs, 0)).toBe(expected.pairs);
    },
  );

  it('shows a circor user only circor accuracy and exceptions', async () => {
    const { body } = await get<AccuracyReport>('/api/control-tower/accuracy?lag=2', 'circor');
    const expected = await expectedAccuracy(2, 'circor');
    expect(body.data.overall.pairs).toBe(expected.pairs);
    expect(body.data.byProduct.every((r) => r.pid?.startsWith('CIR-'))).toBe(true);
    const exceptions = (await get<ExceptionRow[]>('/api/control-tower/exceptions?lag=2', 'circor')).body.data;
    expect(exceptions.every((r) => r.pid.startsWith('CIR-'))).toBe(true);
    expect(body.data.alerts).toBe(exceptions.length);
    const scores = exceptions.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('gives the circor home its own plan, accuracy and last cycle', async () => {
    const { body } = await get<{
      currentQuarter: string;
      planRevenue: number;
      accuracy: number | null;
      lastCycle: { label: string } | null;
    }>('/api/control-tower/home', 'circor');
    const quarters = [0, 1, 2, 3].map((i) => {
      const [y, q] = body.data.currentQuarter.split('-Q').map(Number) as [number, number];
      const index = y * 4 + q - 1 + i;
      return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
    });
    const { rows } = await sql<{ week: string; fin: number }>`
      select r.week_start::text as week, r.final_pln_rev_dlrs::float8 as fin from demand_records r
      join products p on p.pid = r.pid where p.client_id = 'circor' and r.final_pln_rev_dlrs is not null`.execute(
      db(),
    );
    const plan = rows
      .filter((r) => quarters.includes(fiscalQuarterKey(new Date(`${r.week}T00:00:00Z`))))
      .reduce((s, r) => s + r.fin, 0);
    expect(body.data.planRevenue).toBeCloseTo(plan, 1);
    const expected = await expectedAccuracy(1, 'circor');
    expect(body.data.accuracy).toBeCloseTo(Math.max(0, 100 - expected.wape), 1);
    expect(body.data.lastCycle?.label).toMatch(/^Cycle /);
  });

  it('snapshots the plan and starts a marketing cycle when a cycle is published', async () => {
    const week = toIsoDate(weekStartSunday(new Date()));
    const published = await server.request<Ok<Array<{ cycle: string }>>>('POST', '/api/plan-cycles', {
      clientContext: 'circor',
    });
    expect(published.status).toBe(201);
    const { rows } = await sql<{ n: number; with_records: number }>`
      select (select count(*)::int from forecast_snapshots s join products p on p.pid = s.pid
          where s.snapshot_week = ${week}::date and s.source = 'publish' and p.client_id = 'circor') as n,
        (select count(distinct r.pid)::int from demand_records r join products p on p.pid = r.pid
          where p.client_id = 'circor' and r.week_start >= ${week}::date and r.week_start < ${week}::date + 182) as with_records`.execute(
      db(),
    );
    expect(rows[0]!.n).toBe(rows[0]!.with_records);
    const { rows: snap } = await sql<{ final: number[]; rec: number | null }>`
      select s.final_units as final, r.final_pln_units::float8 as rec from forecast_snapshots s
      join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 14
      where s.snapshot_week = ${week}::date and s.source = 'publish' limit 1`.execute(db());
    if (snap[0]) expect(snap[0].final[2]).toBeCloseTo(snap[0].rec ?? Number.NaN, 2);
    const cycle = published.body.data[0]!.cycle;
    const { rows: marketing } = await sql<{ n: number }>`
      select count(*)::int as n from marketing_plans where cycle = ${cycle} and client_id = 'circor'`.execute(
      db(),
    );
    expect(marketing[0]!.n).toBeGreaterThan(0);
    const filters = (await get<WorksheetFilters>('/api/control-tower/filters', 'circor')).body.data;
    const bu = filters.businessUnits[0]!.id;
    const sheet = (
      await get<Worksheet>(
        `/api/control-tower/worksheet?company=circor&businessUnit=${encodeURIComponent(bu)}`,
        'circor',
      )
    ).body.data;
    expect(sheet.currentCycle?.cycle).toBe(cycle);
    // The publish moved P1 from the current quarter on; earlier quarters keep the plan they were
    // published with (docs/adr/0006).
    const ahead = sheet.quarters.filter((q) => q.quarter >= sheet.currentQuarter);
    expect(ahead.length).toBeGreaterThan(0);
    for (const q of ahead)
      expect(q.p1FinalDemandPlan?.revenue).toBeCloseTo(q.finalDemandPlan?.revenue ?? 0, 2);
    for (const q of sheet.quarters)
      expect(q.p1MarketingForecast?.revenue).toBeCloseTo(q.marketingForecast?.revenue ?? 0, 2);
  });

  it('keeps the accuracy, product, reason and exception sums exact when actuals change, are added or are deleted', async () => {
    const { rows } = await sql<{ pid: string; week: string; a: number }>`
      select r.pid, r.week_start::text as week, r.act_bkg_units::float8 as a
      from forecast_snapshots s join products p on p.pid = s.pid
      join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 14
      where p.client_id = 'circor' and r.act_bkg_units is not null
      order by r.pid, r.week_start limit 2`.execute(db());
    const [changed, removed] = rows;
    await sql`update demand_records set act_bkg_units = ${changed!.a + 37}
      where pid = ${changed!.pid} and week_start = ${changed!.week}::date`.execute(db());
    await sql`delete from demand_records where pid = ${removed!.pid} and week_start = ${removed!.week}::date`.execute(
      db(),
    );
    const expected = await expectedAccuracy(2, 'circor');
    const { body } = await get<AccuracyReport>('/api/control-tower/accuracy?lag=2', 'circor');
    expect(body.data.overall.pairs).toBe(expected.pairs);
    expect(body.data.overall.wape).toBeCloseTo(expected.wape, 2);
    expect(body.data.overall.bias).toBeCloseTo(expected.bias, 2);
    expect(body.data.overall.mase).toBeCloseTo(expected.mase, 3);
    // Two writers at once changing actuals of two products of one client: both commit (the reason
    // totals are locked in one order) and the sums stay exact.
    const { rows: pair } = await sql<{ pid: string; week: string }>`
      select distinct on (r.pid) r.pid, r.week_start::text as week
      from forecast_snapshots s join products p on p.pid = s.pid
      join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 21
      where p.client_id = 'circor' and r.act_bkg_units is not null
      order by r.pid, r.week_start limit 2`.execute(db());
    expect(pair).toHaveLength(2);
    await Promise.all(
      pair.map((r) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await sql`update demand_records set act_bkg_units = act_bkg_units + 11
              where pid = ${r.pid} and week_start = ${r.week}::date`.execute(trx);
          }),
      ),
    );
    // The per-product and per-client reason totals (migration 0028) equal the per-reason rows
    // summed afresh: the reason totals exactly (NUMERIC), the product sums up to float rounding.
    const { rows: drift } = await sql<{ reasons: number; products: number }>`
      select (select count(*)::int from accuracy_reason_sums t
          full join (select a.lag, a.client_id, a.reason_code, sum(a.n)::int as n, sum(a.actual::numeric) as actual,
              sum(a.naive_abs::numeric) as naive_abs, sum(a.stat_abs::numeric) as stat_abs,
              sum(a.prelim_abs::numeric) as prelim_abs, sum(a.final_abs::numeric) as final_abs
            from accuracy_sums a join products p on p.pid = a.pid and p.client_id = a.client_id
            group by 1, 2, 3) f using (lag, client_id, reason_code)
          where coalesce(t.n, 0) <> coalesce(f.n, 0) or (f.n is not null and (t.actual, t.naive_abs, t.stat_abs,
            t.prelim_abs, t.final_abs) is distinct from (f.actual, f.naive_abs, f.stat_abs, f.prelim_abs, f.final_abs))) as reasons,
        (select count(*)::int from accuracy_product_sums t
          full join (select lag, pid, sum(n)::int as n, sum(final_abs) as final_abs, sum(final_err) as final_err
            from accuracy_sums group by 1, 2) f using (lag, pid)
          where t.n is distinct from f.n or abs(t.final_abs - f.final_abs) > 1e-6
            or abs(t.final_err - f.final_err) > 1e-6 or t.final_abs is null or f.final_abs is null) as products`.execute(
      db(),
    );
    expect(drift[0]).toEqual({ reasons: 0, products: 0 });
  });

  it("tells the client's users how many items entered the exception queue since the last run or publish", async () => {
    type Notice = { kind: string; content: { count?: number } };
    const notices = async () =>
      (
        await server.request<Ok<{ items: Notice[] }>>('GET', '/api/notifications', undefined, {
          as: 'circor',
        })
      ).body.data.items.filter((n) => n.kind === 'exceptions-found');
    const publish = () => server.request('POST', '/api/plan-cycles', { clientContext: 'circor' });
    const queue = async () =>
      new Set(
        (await get<ExceptionRow[]>('/api/control-tower/exceptions?lag=1', 'circor')).body.data.map(
          (r) => r.pid,
        ),
      );
    // Users are known to the notifier from their first settings read (the web app's first call).
    await server.request('GET', '/api/user-settings', undefined, { as: 'circor' });
    await publish(); // the queue as it stands now is what the next check compares with
    const before = await queue();
    const seen = (await notices()).length;
    await publish();
    expect(await notices()).toHaveLength(seen);

    // A product outside the queue books ten times its largest forecast in one week.
    const { rows } = await sql<{ pid: string; week: string; f: number }>`
      select r.pid, r.week_start::text as week, s.final_units[2]::float8 as f
      from forecast_snapshots s join products p on p.pid = s.pid
      join demand_records r on r.pid = s.pid and r.week_start = s.snapshot_week + 7
      where p.client_id = 'circor' and r.act_bkg_units is not null and s.final_units[2] > 0
        and p.pid <> all(${[...before]}::text[])
      order by r.week_start desc, r.pid limit 1`.execute(db());
    const target = rows[0]!;
    await sql`update demand_records set act_bkg_units = ${target.f * 10 + 1000}
      where pid = ${target.pid} and week_start = ${target.week}::date`.execute(db());
    const after = await queue();
    const fresh = [...after].filter((pid) => !before.has(pid));
    expect(fresh).toContain(target.pid);

    await publish();
    const latest = await notices();
    expect(latest).toHaveLength(seen + 1);
    expect(latest[0]!.content.count).toBe(fresh.length);
    await publish();
    expect(await notices()).toHaveLength(seen + 1);

    // All these publishes share this week's cycle: its marketing plan stays P0's and P1's.
    const filters = (await get<WorksheetFilters>('/api/control-tower/filters', 'circor')).body.data;
    const bu = encodeURIComponent(filters.businessUnits[0]!.id);
    const sheet = (
      await get<Worksheet>(`/api/control-tower/worksheet?company=circor&businessUnit=${bu}`, 'circor')
    ).body.data;
    expect(sheet.quarters.some((q) => q.marketingForecast !== null)).toBe(true);
    for (const q of sheet.quarters) expect(q.p1MarketingForecast).toEqual(q.marketingForecast);
  });
});
