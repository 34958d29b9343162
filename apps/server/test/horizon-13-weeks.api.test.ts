import {
  addWeeks,
  CLIENT_IDS,
  toIsoDate,
  type AccuracyReport,
  type DashboardMetrics,
  type DataLoadJob,
  type ServerClock,
} from '@ps/domain';
import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema';
import { snapshotForecasts } from '../src/modules/control-tower';
import { rollHorizon } from '../src/modules/horizon';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, TEST_ANCHOR, type TestServer } from './support/test-server';

const HORIZON = 52;
const PRODUCTS = 10;
const PAST = 13;
const STEPS = 13;

/** Rows of a query as text, in a stable order: any change to one of them shows. */
const rowsAsText = async (db: Kysely<Database>, query: string): Promise<string[]> =>
  (
    await sql<{ row: string }>`select t::text as row from (${sql.raw(query)}) t order by 1`.execute(db)
  ).rows.map((r) => r.row);

const OVERRIDES = `select pid, week_start, rev_pln_ovrd_percent, rev_pln_ovrd_units, sop_pln_ovrd_percent,
  sop_pln_ovrd_units, reason_code, comments, last_updated_by from demand_records
  where rev_pln_ovrd_percent is not null or rev_pln_ovrd_units is not null
    or sop_pln_ovrd_percent is not null or sop_pln_ovrd_units is not null`;
const PUBLISHED = `select pid, week_start, p1_pub_pln_units, p1_pub_pln_cost, p1_pub_pln_rev_dlrs,
  p2_pub_pln_units, p2_pub_pln_cost, p2_pub_pln_rev_dlrs from demand_records
  where p1_pub_pln_units is not null or p2_pub_pln_units is not null`;
const PLAN_VERSIONS = 'select * from plan_versions';
const snapshotsBefore = (week: string) => `select * from forecast_snapshots where snapshot_week < '${week}'`;

/**
 * One week's sales-history file for every product, as the weekly sales feed brings it: units that
 * miss the plan by a factor that changes week by week, with their revenue and cost at the
 * product's price.
 */
async function weekActualsCsv(db: Kysely<Database>, week: string, step: number): Promise<string> {
  const { rows } = await sql<{ pid: string; units: number; revenue: number; cost: number }>`
    select r.pid, s.units::float8 as units, round(s.units * p.unit_price, 2)::float8 as revenue,
      round(s.units * p.unit_cost, 2)::float8 as cost
    from demand_records r
    join products p on p.pid = r.pid
    cross join lateral (
      select round(coalesce(r.final_pln_units, 0)::numeric * ${(0.8 + 0.03 * step).toFixed(2)}::numeric) as units) s
    where r.week_start = ${week}::date
    order by r.pid`.execute(db);
  return [
    'PID,Week,Units,Revenue,Cost',
    ...rows.map((r) => `${r.pid},${week},${r.units},${r.revenue},${r.cost}`),
  ].join('\n');
}

describe.each(backends)('thirteen weeks on the clock on %s', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: PRODUCTS, weeks: PAST + HORIZON, futureWeeks: HORIZON },
      { env: { PLAN_HORIZON_WEEKS: String(HORIZON) } },
    );
    db = server.database.db;
    server.clock.setToday(TEST_ANCHOR);
  });
  afterAll(() => server?.close());

  /** Posts one week's sales-history file to the data load and follows it to its end, as the cycle's feed does. */
  const loadWeekActuals = async (week: string, step: number): Promise<void> => {
    const form = new FormData();
    form.append('file', new Blob([await weekActualsCsv(db, week, step)]), `sales-${week}.csv`);
    const token = (await server.tokensFor('admin')).id_token;
    const response = await fetch(`${server.baseUrl}/api/data-loads/sales-history`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status, `step ${step}`).toBe(202);
    let job = ((await response.json()) as Ok<DataLoadJob>).data;
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 30));
      job = (await server.request<Ok<DataLoadJob>>('GET', `/api/data-loads/jobs/${job.id}`)).body.data;
    }
    expect(job, `step ${step}`).toMatchObject({ status: 'succeeded', refusals: [] });
    expect(job.counts!.inserted + job.counts!.updated, `step ${step}`).toBe(PRODUCTS);
    const { rows } = await sql<{ actuals: number; history: number }>`
      select count(*) filter (where r.act_bkg_units is not null)::int as actuals,
        (select count(*)::int from sales_history h where h.week_start = ${week}::date) as history
      from demand_records r where r.week_start = ${week}::date`.execute(db);
    expect(rows[0], `step ${step}`).toEqual({ actuals: PRODUCTS, history: PRODUCTS });
  };

  const accuracyPairs = async (): Promise<AccuracyReport> =>
    (await server.request<Ok<AccuracyReport>>('GET', '/api/control-tower/accuracy?lag=1')).body.data;

  it('keeps the horizon full and everything planners made, and fills accuracy week by week', async () => {
    const anchorWeek = toIsoDate(TEST_ANCHOR);
    const overrides = await rowsAsText(db, OVERRIDES);
    const published = await rowsAsText(db, PUBLISHED);
    const versions = await rowsAsText(db, PLAN_VERSIONS);
    const snapshots = await rowsAsText(db, snapshotsBefore(anchorWeek));
    expect(overrides.length).toBeGreaterThan(0);
    expect(published.length).toBeGreaterThan(0);
    expect(versions.length).toBeGreaterThan(0);
    const { rows: keys } = await sql<{ key: string }>`
      select pid || '/' || week_start as key from demand_records`.execute(db);
    const keysBefore = new Set(keys.map((k) => k.key));

    for (let step = 1; step <= STEPS; step += 1) {
      const current = toIsoDate(addWeeks(TEST_ANCHOR, step - 1));
      // The cycle's forecast snapshot of the current week, before the week turns.
      await snapshotForecasts(db, CLIENT_IDS, 'forecast', current);
      const before = await accuracyPairs();

      server.clock.advanceWeeks(1);
      const week = toIsoDate(addWeeks(TEST_ANCHOR, step));
      expect(await rollHorizon(db, server.clock, { horizonWeeks: HORIZON })).toMatchObject({
        rolled: true,
        week,
        recordsAdded: PRODUCTS,
      });
      // The week that became past kept its plan; its actuals arrive now.
      await loadWeekActuals(current, step);

      const { rows: horizon } = await sql<{ pid: string; weeks: number; last: string }>`
        select p.pid, count(r.week_start)::int as weeks, to_char(max(r.week_start), 'YYYY-MM-DD') as last
        from products p left join demand_records r on r.pid = p.pid and r.week_start >= ${week}::date
        group by p.pid`.execute(db);
      const lastWeek = toIsoDate(addWeeks(TEST_ANCHOR, step + HORIZON - 1));
      expect(horizon, `step ${step}`).toEqual(
        horizon.map((h) => ({ pid: h.pid, weeks: HORIZON, last: lastWeek })),
      );
      const { rows: counts } = await sql<{ records: number; keys: number; actuals: number }>`
        select count(*)::int as records, count(distinct (pid, week_start))::int as keys,
          count(*) filter (where week_start = ${current}::date and act_bkg_units is not null)::int as actuals
        from demand_records`.execute(db);
      expect(counts[0], `step ${step}`).toEqual({
        records: keysBefore.size + PRODUCTS * step,
        keys: keysBefore.size + PRODUCTS * step,
        actuals: PRODUCTS,
      });

      // Accuracy at lag 1 gains the week's pairs: last week's snapshot forecast this week.
      const after = await accuracyPairs();
      if (step > 1) {
        expect(after.overall.pairs - before.overall.pairs, `step ${step}`).toBe(PRODUCTS);
        expect(after.toWeek).toBe(current);
      } else {
        expect(after.overall.pairs).toBeGreaterThanOrEqual(before.overall.pairs);
      }
    }

    // Nothing lost, nothing planners or publishes made touched.
    const { rows: keysAfter } = await sql<{ key: string }>`
      select pid || '/' || week_start as key from demand_records`.execute(db);
    const stillThere = new Set(keysAfter.map((k) => k.key));
    expect([...keysBefore].filter((key) => !stillThere.has(key))).toEqual([]);
    expect(await rowsAsText(db, OVERRIDES)).toEqual(overrides);
    expect(await rowsAsText(db, PUBLISHED)).toEqual(published);
    expect(await rowsAsText(db, PLAN_VERSIONS)).toEqual(versions);
    expect(await rowsAsText(db, snapshotsBefore(anchorWeek))).toEqual(snapshots);
  });

  it('shows the new quarter on the dashboard, the control tower and the clock', async () => {
    // 2026-11-15 + 13 weeks = 2027-02-14: the first quarter of 2027.
    const today = '2027-02-14';
    const clock = await server.request<Ok<ServerClock>>('GET', '/api/clock');
    expect(clock.body.data).toMatchObject({ today, currentWeek: today, horizon: { lastRolledWeek: today } });
    const metrics = await server.request<Ok<DashboardMetrics>>('GET', '/api/dashboard-metrics');
    expect(metrics.body.data).toMatchObject({ quarter: '2027-Q1', asOf: today });

    const ZHome = z.object({ currentQuarter: z.string(), planRevenue: z.number() });
    const home = ZHome.parse((await server.request<Ok<unknown>>('GET', '/api/control-tower/home')).body.data);
    const { rows } = await sql<{ revenue: number; quarters: number }>`
      select coalesce(sum(final_pln_rev_dlrs), 0)::float8 as revenue,
        count(distinct to_char(week_start, 'YYYY-"Q"Q'))::int as quarters
      from demand_records where week_start >= '2027-01-01' and week_start < '2028-01-01'`.execute(db);
    expect(home.currentQuarter).toBe('2027-Q1');
    // The four quarters ahead (2027-Q1 to Q4) all have weeks, and the plan's figure covers them.
    expect(rows[0]!.quarters).toBe(4);
    expect(home.planRevenue).toBeCloseTo(rows[0]!.revenue, 0);
  });
});
