import {
  STORED_QUANTILE_LEVELS,
  Z_VALUES,
  normalOul,
  quantileExcessOf,
  quantileOul,
  recommendedServiceLevel,
  type ForecastAccuracy,
  type InventoryPage,
  type InventoryRow,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Run = { id: number; status: string; error: string | null };

const round2 = (value: number): number => Math.round(value * 100) / 100;

describe.each(backends)('inventory levels from forecast quantiles on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 26 });
  });
  afterAll(async () => server?.close());

  const allRows = async (): Promise<{ rows: InventoryRow[]; summary: InventoryPage['summary'] }> => {
    const first = await server.request<Ok<InventoryPage>>('GET', '/api/inventory/overrides?page=1');
    const rows = [...first.body.data.items];
    const pages = Math.ceil(first.body.data.total / first.body.data.pageSize);
    for (let page = 2; page <= pages; page++) {
      const { body } = await server.request<Ok<InventoryPage>>(
        'GET',
        `/api/inventory/overrides?page=${page}`,
      );
      rows.push(...body.data.items);
    }
    return { rows, summary: first.body.data.summary };
  };

  const runForecast = async (): Promise<void> => {
    const started = await server.request<Ok<Run>>('POST', '/api/forecast/runs');
    expect(started.status).toBe(202);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { body } = await server.request<Ok<Run>>('GET', `/api/forecast/runs/${started.body.data.id}`);
      if (body.data.status === 'succeeded') return;
      if (body.data.status === 'failed') throw new Error(body.data.error ?? 'run failed');
      if (Date.now() > deadline) throw new Error('forecast run still running');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it('sets smooth items’ OULs from the forecast quantiles after a run and shows the safety stock change', async () => {
    // Before any forecast run no product has quantiles: the normal formula, and no change to show.
    const before = await allRows();
    expect(before.rows.some((r) => r.demandModel === 'quantile')).toBe(false);
    for (const row of before.rows.filter((r) => r.demandModel === 'normal'))
      expect(row.safetyStock).toBe(row.safetyStockNormal);

    await runForecast();

    const { rows, summary } = await allRows();
    const quantileRows = rows.filter((r) => r.demandModel === 'quantile');
    expect(quantileRows.length).toBeGreaterThan(0);
    for (const row of quantileRows) {
      const accuracy = await server.request<Ok<ForecastAccuracy>>('GET', `/api/forecast/accuracy/${row.sku}`);
      const quantiles = accuracy.body.data.quantiles!;
      expect(quantiles.levels).toEqual([...STORED_QUANTILE_LEVELS]);
      // Each week's quantiles rise with the level and surround the point forecast.
      quantiles.mean.forEach((mean, j) => {
        const week = quantiles.values.map((v) => v[j]!);
        week.slice(1).forEach((v, i) => expect(v).toBeGreaterThanOrEqual(week[i]!));
        expect(quantiles.values[1]![j]!).toBeLessThanOrEqual(mean + 0.01);
        expect(quantiles.values[3]![j]!).toBeGreaterThanOrEqual(mean - 0.01);
      });

      const { rows: stored } = await sql<{
        avg_demand: number;
        std_demand: number;
        demand_share: number;
        lead_time_weeks: number;
        lead_time_sd_weeks: number;
        review_period_weeks: number;
        replenishment_frequency_weeks: number;
      }>`select avg_demand, std_demand, demand_share, lead_time_weeks, lead_time_sd_weeks, review_period_weeks,
          replenishment_frequency_weeks
        from inventory_parameters where pid = ${row.sku} and site = ${row.site}`.execute(server.database.db);
      const p = stored[0]!;
      const cover = p.lead_time_weeks + Math.max(p.review_period_weeks, p.replenishment_frequency_weeks);
      const excess = quantileExcessOf(quantiles)!;
      const expected = (level: 90 | 95 | 98): number =>
        quantileOul(
          p.avg_demand,
          excess[level],
          p.demand_share,
          cover,
          Z_VALUES[level],
          p.lead_time_sd_weeks,
        );
      expect([row.targetOUL90, row.targetOUL95, row.targetOUL98]).toEqual([
        expected(90),
        expected(95),
        expected(98),
      ]);

      const level = recommendedServiceLevel(row.revenueClass);
      expect(row.recommendedOULTarget).toBe(expected(level));
      expect(row.safetyStock).toBeCloseTo(round2(row.recommendedOULTarget - p.avg_demand * cover), 2);
      const normal = normalOul(p.avg_demand, p.std_demand, cover, Z_VALUES[level], p.lead_time_sd_weeks);
      expect(row.safetyStockNormal).toBeCloseTo(round2(normal - p.avg_demand * cover), 2);
    }
    // The cards sum the rows' safety stocks, both ways.
    const sum = (pick: (r: InventoryRow) => number | null): number =>
      rows.reduce((t, r) => t + (pick(r) ?? 0), 0);
    expect(summary.safetyStockUnits).toBeCloseTo(
      sum((r) => r.safetyStock),
      1,
    );
    expect(summary.safetyStockNormalUnits).toBeCloseTo(
      sum((r) => r.safetyStockNormal),
      1,
    );
    expect(rows.some((r) => r.demandModel === 'quantile' && r.safetyStock !== r.safetyStockNormal)).toBe(
      true,
    );
  }, 180_000);
});
