import {
  addWeeks,
  fiscalQuarterKey,
  toIsoDate,
  weekStartSunday,
  type DashboardMetrics,
  type DemandRecord,
  type SummaryStats,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percentChange, shiftQuarter } from '../src/modules/dashboard/dashboard.service';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type RequestOptions, type TestServer } from './support/test-server';

// Half up to cents, as the server rounds money (3.015 → 3.02 despite binary 3.01499…).
const cents = (value: number): number => Math.round(Number((value * 100).toPrecision(12))) / 100;
const isOverridden = (r: DemandRecord): boolean =>
  r.Rev_Pln_Ovrd_Percent !== null ||
  r.Rev_Pln_Ovrd_Units !== null ||
  r.SOP_Pln_Ovrd_Percent !== null ||
  r.SOP_Pln_Ovrd_Units !== null;

describe('quarter arithmetic', () => {
  it('steps back across years and computes changes against the base', () => {
    expect(shiftQuarter('2026-Q4', -1)).toBe('2026-Q3');
    expect(shiftQuarter('2026-Q1', -1)).toBe('2025-Q4');
    expect(shiftQuarter('2026-Q2', -4)).toBe('2025-Q2');
    expect(percentChange(110, 100)).toBe(10);
    expect(percentChange(90, 120)).toBe(-25);
    expect(percentChange(5, 0)).toBe(0);
  });
});

describe.each(backends)('dashboard metrics and summary stats on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    // 30 weeks from 2026-08-02: this quarter and the one before both hold data.
    server = await startTestServer(backend, { products: 40, weeks: 30 });
  });
  afterAll(async () => server?.close());

  const records = async (options?: RequestOptions) =>
    (
      await server.request<Ok<{ items: DemandRecord[] }>>(
        'GET',
        '/api/demand-planning/real-data?limit=5000',
        undefined,
        options,
      )
    ).body.data.items;

  it('computes the four dashboard cards from published values, actuals, plans and sales history', async () => {
    const all = await records();
    const now = new Date();
    const quarter = fiscalQuarterKey(now);
    const currentWeek = toIsoDate(weekStartSunday(now));
    const firstWeek = all.map((r) => r.Date).sort()[0]!;
    const prices = new Map(
      (await server.database.db.selectFrom('products').select(['pid', 'unit_price']).execute()).map((p) => [
        p.pid,
        p.unit_price,
      ]),
    );
    const history = await server.database.db.selectFrom('sales_history').selectAll().execute();
    const inQuarter = (q: string) => all.filter((r) => r.Fiscal_Quarter === q);
    // Weeks the records do not reach count their sales history at the unit price.
    const historyRevenue = (q: string) =>
      history
        .filter((h) => h.week_start < firstWeek && h.week_start < currentWeek)
        .filter((h) => fiscalQuarterKey(new Date(`${h.week_start}T00:00:00Z`)) === q)
        .reduce((sum, h) => sum + h.units * prices.get(h.pid)!, 0);
    const revenue = (q: string) =>
      cents(
        inQuarter(q).reduce(
          (sum, r) => sum + ((r.Date < currentWeek ? r.Act_Rev_Dlrs : r.Final_Pln_Rev_Dlrs) ?? 0),
          0,
        ) + historyRevenue(q),
      );
    const { status, body } = await server.request<Ok<DashboardMetrics>>('GET', '/api/dashboard-metrics');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toEqual({
      // Tens of dollars: the screen multiplies by 10 (spec §9) and so shows true dollars.
      currentPublishValue: cents(
        inQuarter(quarter).reduce((s, r) => s + (r.P1_Pub_Pln_Rev_Dlrs ?? 0), 0) / 10,
      ),
      lastPublishValue: cents(inQuarter(quarter).reduce((s, r) => s + (r.P2_Pub_Pln_Rev_Dlrs ?? 0), 0) / 10),
      quarterChange: percentChange(revenue(quarter), revenue(shiftQuarter(quarter, -1))),
      yearOverYearChange: percentChange(revenue(quarter), revenue(shiftQuarter(quarter, -4))),
      quarter,
      asOf: toIsoDate(now),
    });
    // The records start in 2026-08: the year-ago quarter comes from sales history, so it has a base.
    expect(revenue(shiftQuarter(quarter, -4))).toBeGreaterThan(0);
    expect(body.data.yearOverYearChange).not.toBe(0);
  });

  it('computes the summary figures and follows a batch save', async () => {
    const expected = async (): Promise<SummaryStats> => {
      const all = await records();
      const prices = new Map(
        (await server.database.db.selectFrom('products').select(['pid', 'unit_price']).execute()).map((p) => [
          p.pid,
          p.unit_price,
        ]),
      );
      const lastPublish = new Map(
        (
          await server.database.db
            .selectFrom('plan_versions')
            .select(['client_id', (eb) => eb.fn.max('published_at').as('at')])
            .groupBy('client_id')
            .execute()
        ).map((v) => [v.client_id, new Date(v.at).getTime()]),
      );
      const now = new Date();
      const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const audit = await server.database.db
        .selectFrom('audit_log')
        .select(['pid', 'week_start', 'changed_at'])
        .execute();
      const modified = new Set(
        audit
          .filter((a) => new Date(a.changed_at).getTime() >= startOfToday)
          .map((a) => `${a.pid}|${a.week_start}`),
      );
      const overridden = all.filter(isOverridden).map((r) => ({
        record: r,
        delta: cents(r.Final_Pln_Rev_Dlrs! - cents(r.Ensemble_Fcst_Units! * prices.get(r.PID)!)),
      }));
      const clientOf = (pid: string) => (pid.startsWith('CIR-') ? 'circor' : 'internal');
      return {
        totalSkus: new Set(all.map((r) => r.PID)).size,
        modifiedToday: modified.size,
        pendingReview: overridden.filter(
          ({ record }) =>
            record.Reason_Code === null ||
            new Date(record.last_updated_at!).getTime() > lastPublish.get(clientOf(record.PID))!,
        ).length,
        netImpact: cents(overridden.reduce((s, o) => s + o.delta, 0)),
        positiveOverrides: overridden.filter((o) => o.delta > 0).length,
        negativeOverrides: overridden.filter((o) => o.delta < 0).length,
      };
    };
    const before = await server.request<Ok<SummaryStats>>('GET', '/api/summary-stats');
    expect(before.body.success).toBe(true);
    expect(before.body.data).toEqual(await expected());
    expect(before.body.data.totalSkus).toBe(40);
    expect(before.body.data.positiveOverrides + before.body.data.negativeOverrides).toBeGreaterThan(0);

    // Two fresh overrides without a reason code: modified today, pending review, net impact up.
    const fresh = (await records())
      .filter((r) => !isOverridden(r) && (r.Ensemble_Fcst_Units ?? 0) > 20)
      .slice(0, 2);
    const save = await server.request<Ok<unknown>>('POST', '/api/demand-planning/real-data/batch', {
      updates: fresh.map((r) => ({ PID: r.PID, Time_Series_sk: r.Time_Series_sk, SOP_Pln_Ovrd_Percent: 50 })),
    });
    expect(save.body.success).toBe(true);
    const after = await server.request<Ok<SummaryStats>>('GET', '/api/summary-stats');
    expect(after.body.data).toEqual(await expected());
    expect(after.body.data.pendingReview).toBe(before.body.data.pendingReview + 2);
    expect(after.body.data.positiveOverrides).toBe(before.body.data.positiveOverrides + 2);
    expect(after.body.data.netImpact).toBeGreaterThan(before.body.data.netImpact);
  });

  it('scopes both to the caller: a circor user counts only circor products', async () => {
    const circor = await server.request<Ok<SummaryStats>>(
      'GET',
      '/api/summary-stats?clientContext=admin',
      undefined,
      {
        as: 'circor',
      },
    );
    expect(circor.body.data.totalSkus).toBe(
      new Set((await records({ as: 'circor' })).map((r) => r.PID)).size,
    );
    expect(circor.body.data.totalSkus).toBe(8);
    const metrics = await server.request<Ok<DashboardMetrics>>('GET', '/api/dashboard-metrics', undefined, {
      as: 'circor',
    });
    const admin = await server.request<Ok<DashboardMetrics>>('GET', '/api/dashboard-metrics');
    expect(metrics.body.data.currentPublishValue).toBeLessThan(admin.body.data.currentPublishValue);
  });

  it('requires a signed-in caller', async () => {
    for (const path of ['/api/dashboard-metrics', '/api/summary-stats']) {
      const { status, body } = await server.request<{ success: boolean }>('GET', path, undefined, {
        as: 'anonymous',
      });
      expect(status).toBe(401);
      expect(body.success).toBe(false);
    }
  });
  it('reads Year over Year against the same quarter a year earlier from sales history (by hand)', async () => {
    const db = server.database.db;
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const yearAgoWeek = toIsoDate(addWeeks(weekStartSunday(new Date()), -52));
    const pid = (
      await db
        .selectFrom('products')
        .select('pid')
        .where('client_id', '=', 'circor')
        .orderBy('pid')
        .executeTakeFirstOrThrow()
    ).pid;
    // One circor product: its only revenue this quarter is the current week's plan, $1,500; a year
    // earlier it sold 10 + 2 units at $100.
    await db.updateTable('products').set({ unit_price: 100 }).where('pid', '=', pid).execute();
    await db
      .updateTable('demand_records')
      .set({
        act_rev_dlrs: 0,
        final_pln_rev_dlrs: sql<number>`case when pid = ${pid} and week_start = ${currentWeek}::date then 1500 else 0 end`,
      })
      .where('pid', 'in', db.selectFrom('products').select('pid').where('client_id', '=', 'circor'))
      .execute();
    await db
      .deleteFrom('sales_history')
      .where('pid', 'in', db.selectFrom('products').select('pid').where('client_id', '=', 'circor'))
      .execute();
    await db
      .insertInto('sales_history')
      .values([
        { pid, week_start: yearAgoWeek, units: 10 },
        { pid, week_start: toIsoDate(addWeeks(new Date(`${yearAgoWeek}T00:00:00Z`), 1)), units: 2 },
      ])
      .execute();
    const { body } = await server.request<Ok<DashboardMetrics>>(
      'GET',
      '/api/dashboard-metrics?clientContext=circor',
    );
    // R(Q) = 1500, R(Q−4) = 12 × 100 = 1200: (1500 − 1200) / 1200 = +25.00 %.
    expect(body.data.yearOverYearChange).toBe(25);
  });
  it('values year-ago history at the price in effect each week, or the revenue loaded with it (by hand)', async () => {
    const db = server.database.db;
    const currentWeek = toIsoDate(weekStartSunday(new Date()));
    const yearAgoWeek = toIsoDate(addWeeks(weekStartSunday(new Date()), -52));
    const nextWeek = toIsoDate(addWeeks(new Date(`${yearAgoWeek}T00:00:00Z`), 1));
    const [priced, loaded] = (
      await db
        .selectFrom('products')
        .select('pid')
        .where('client_id', '=', 'circor')
        .orderBy('pid')
        .limit(2)
        .execute()
    ).map((p) => p.pid);
    // Today's prices are $150; a year ago the first product cost $80 until its price of $100
    // took effect the week after.
    await db
      .updateTable('products')
      .set({ unit_price: 150 })
      .where('pid', 'in', [priced!, loaded!])
      .execute();
    await db.deleteFrom('product_prices').where('pid', 'in', [priced!, loaded!]).execute();
    await db
      .insertInto('product_prices')
      .values([
        { pid: priced!, effective_from: '1900-01-01', unit_cost: 40, unit_price: 80 },
        { pid: priced!, effective_from: nextWeek, unit_cost: 50, unit_price: 100 },
        { pid: priced!, effective_from: currentWeek, unit_cost: 75, unit_price: 150 },
      ])
      .execute();
    // Its only revenue this quarter is the current week's plan, $1,500.
    await db
      .updateTable('demand_records')
      .set({
        act_rev_dlrs: 0,
        final_pln_rev_dlrs: sql<number>`case when pid = ${priced!} and week_start = ${currentWeek}::date then 1500 else 0 end`,
      })
      .where('pid', 'in', db.selectFrom('products').select('pid').where('client_id', '=', 'circor'))
      .execute();
    await db
      .deleteFrom('sales_history')
      .where('pid', 'in', db.selectFrom('products').select('pid').where('client_id', '=', 'circor'))
      .execute();
    await db
      .insertInto('sales_history')
      .values([
        { pid: priced!, week_start: yearAgoWeek, units: 10 },
        { pid: priced!, week_start: nextWeek, units: 2 },
        // Loaded with its revenue: $200 for 4 units, whatever the prices say.
        { pid: loaded!, week_start: yearAgoWeek, units: 4, revenue: 200 },
      ])
      .execute();
    const { body } = await server.request<Ok<DashboardMetrics>>(
      'GET',
      '/api/dashboard-metrics?clientContext=circor',
    );
    // R(Q) = 1500, R(Q−4) = 10 × 80 + 2 × 100 + 200 = 1200: (1500 − 1200) / 1200 = +25.00 %.
    // (At today's $150 it would read 16 × 150 = 2400 and −37.50 %.)
    expect(body.data.yearOverYearChange).toBe(25);
  });
});
