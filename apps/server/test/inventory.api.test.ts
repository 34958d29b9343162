import {
  addWeeks,
  oulLevels,
  toIsoDate,
  weekStartSunday,
  type OptimisationRunDetail,
  type InventoryMetrics,
  type InventoryPage,
  type InventoryRow,
  type SdMatch,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, TEST_ANCHOR, type TestServer } from './support/test-server';

const round = (value: number, decimals: number): number =>
  Math.round(Number((value * 10 ** decimals).toPrecision(12))) / 10 ** decimals;

describe.each(backends)('inventory planning on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 30, weeks: 26 });
  });
  afterAll(async () => server?.close());

  const page = async (query = '', as: 'admin' | 'circor' = 'admin') =>
    server.request<Ok<InventoryPage>>('GET', `/api/inventory/overrides${query}`, undefined, { as });
  const rowOf = async (sku: string, site: string): Promise<InventoryRow> => {
    const { body } = await page(`?sku=${sku}`);
    return body.data.items.find((r) => r.site === site)!;
  };

  it('pages 20 product × site rows of the caller’s clients, three sites per product', async () => {
    const { status, body } = await page();
    expect(status).toBe(200);
    expect(body.data.total).toBe(90);
    expect(body.data.items).toHaveLength(20);
    expect(body.data.pageSize).toBe(20);
    const last = await page('?page=5');
    expect(last.body.data.items).toHaveLength(10);
    const circor = await page('?clientContext=internal', 'circor');
    expect(circor.body.data.total).toBe(18);
    expect(circor.body.data.items.every((r) => r.sku.startsWith('CIR-'))).toBe(true);
    const site = body.data.items[0]!.site;
    const bySite = await page(`?site=${encodeURIComponent(site)}`);
    expect(bySite.body.data.items.every((r) => r.site === site)).toBe(true);
    const options = await server.request<Ok<{ sites: string[]; categories: string[] }>>(
      'GET',
      '/api/inventory/filter-options',
      undefined,
      { as: 'circor' },
    );
    expect(options.body.data.sites).toContain(circor.body.data.items[0]!.site);
  });

  it('computes μ from the plan, σ from the forecast error and the OULs from them with the lead time’s spread', async () => {
    const { body } = await page('?page=1');
    for (const row of body.data.items.slice(0, 6)) {
      const { rows } = await sql<{ plan_mean: number; error_sd: number; share: number; lead_sd: number }>`
        select
          (select avg(final_pln_units) from demand_records where pid = ${row.sku}
             and week_start >= ${TEST_ANCHOR.toISOString().slice(0, 10)}::date
             and week_start < ${TEST_ANCHOR.toISOString().slice(0, 10)}::date + 91)::float8 as plan_mean,
          (select sqrt(avg(power(act_bkg_units - ensemble_fcst_units, 2))) from demand_records where pid = ${row.sku}
             and week_start < ${TEST_ANCHOR.toISOString().slice(0, 10)}::date
             and week_start >= ${TEST_ANCHOR.toISOString().slice(0, 10)}::date - 91
             and act_bkg_units is not null and ensemble_fcst_units is not null)::float8 as error_sd,
          (select demand_share from inventory_parameters where pid = ${row.sku} and site = ${row.site})::float8 as share,
          (select lead_time_sd_weeks from inventory_parameters where pid = ${row.sku} and site = ${row.site}) as lead_sd`.execute(
        server.database.db,
      );
      const expected = rows[0]!;
      expect(row.avgDemand).toBeCloseTo(expected.plan_mean * expected.share, 2);
      expect(row.stdDemand).toBeCloseTo(expected.error_sd * expected.share, 2);
      // The demo seeds a lead-time spread on every row (5–35 % of the lead time).
      expect(expected.lead_sd).toBeGreaterThan(0);
      expect(row.leadTimeSd).toBe(expected.lead_sd);
      const cover = row.leadTime + Math.max(row.reviewPeriod, row.replenishmentFreq);
      if (row.demandModel === 'normal') {
        const mu = expected.plan_mean * expected.share;
        const sigma = expected.error_sd * expected.share;
        // σ_total = √((L+R)σ_d² + μ_d²σ_L²)
        const total = Math.sqrt(cover * sigma ** 2 + mu ** 2 * expected.lead_sd ** 2);
        expect(row.targetOUL95).toBe(Math.ceil(mu * cover + 1.6449 * total - 1e-9));
      } else {
        const levels = oulLevels({
          avgDemand: expected.plan_mean * expected.share,
          stdDemand: expected.error_sd * expected.share,
          leadTimeWeeks: row.leadTime,
          leadTimeSdWeeks: expected.lead_sd,
          reviewPeriodWeeks: cover - row.leadTime,
          intermittent: true,
        });
        expect(row.targetOUL95).toBe(levels.oul95);
      }
      expect(row.targetOUL90).toBeLessThanOrEqual(row.targetOUL95);
      expect(row.targetOUL95).toBeLessThanOrEqual(row.targetOUL98);
      const byClass = { A: row.targetOUL98, B: row.targetOUL95, C: row.targetOUL90 } as Record<
        string,
        number
      >;
      expect(row.recommendedOULTarget).toBe(byClass[row.revenueClass]);
    }
  });

  it('confirms units and percent by the spec’s rounding, audits them, refuses a stale version', async () => {
    const { body } = await page();
    const [first, second] = body.data.items.filter((r) => r.recommendedOULTarget > 0);
    const units = first!.recommendedOULTarget + 7;
    const saved = await server.request<Ok<InventoryRow>>(
      'PUT',
      `/api/inventory/overrides/${first!.sku}/${encodeURIComponent(first!.site)}`,
      {
        overrideOULUnits: units,
        reasonCode: 'Demand Spike',
        comments: 'Tender won',
        version: first!.version,
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.overrideOULUnits).toBe(units);
    expect(saved.body.data.overridePercentage).toBe(round((units / first!.recommendedOULTarget) * 100, 1));
    expect(saved.body.data.overrideUser).toBeTruthy();
    expect(saved.body.data.version).toBe(first!.version + 1);

    const stale = await server.request<Failure>(
      'PUT',
      `/api/inventory/overrides/${first!.sku}/${encodeURIComponent(first!.site)}`,
      { overrideOULUnits: 1, reasonCode: 'Other', version: first!.version },
    );
    expect(stale.status).toBe(409);
    expect((await rowOf(first!.sku, first!.site)).overrideOULUnits).toBe(units);

    const byPercent = await server.request<Ok<InventoryRow>>(
      'PUT',
      `/api/inventory/overrides/${second!.sku}/${encodeURIComponent(second!.site)}`,
      { overridePercentage: 125.5, reasonCode: 'Seasonal Spike', version: second!.version },
    );
    expect(byPercent.body.data.overridePercentage).toBe(125.5);
    // Units with the percent they came from keep the percent; units alone set it by the rule.
    const both = await server.request<Ok<InventoryRow>>(
      'PUT',
      `/api/inventory/overrides/${second!.sku}/${encodeURIComponent(second!.site)}`,
      {
        overrideOULUnits: Math.round((second!.recommendedOULTarget * 120) / 100),
        overridePercentage: 120,
        reasonCode: 'Seasonal Spike',
        version: byPercent.body.data.version,
      },
    );
    expect(both.body.data.overridePercentage).toBe(120);
    byPercent.body.data.version = both.body.data.version;
    expect(byPercent.body.data.overrideOULUnits).toBe(
      Math.round((second!.recommendedOULTarget * 125.5) / 100),
    );

    const audit = await server.request<Ok<Array<{ field: string; newValue: string; reasonCode: string }>>>(
      'GET',
      `/api/inventory/overrides/${first!.sku}/${encodeURIComponent(first!.site)}/audit`,
    );
    expect(audit.body.data.map((a) => a.field).sort()).toEqual([
      'comments',
      'overrideOULUnits',
      'overridePercentage',
      'reasonCode',
    ]);
    expect(audit.body.data.find((a) => a.field === 'overrideOULUnits')!.newValue).toBe(String(units));

    // Clearing clears user and timestamp.
    const cleared = await server.request<Ok<InventoryRow>>(
      'PUT',
      `/api/inventory/overrides/${second!.sku}/${encodeURIComponent(second!.site)}`,
      { overrideOULUnits: null, version: byPercent.body.data.version },
    );
    expect(cleared.body.data).toMatchObject({
      overrideOULUnits: null,
      overridePercentage: null,
      overrideUser: null,
      overrideTimestamp: null,
    });

    const summary = (await page()).body.data;
    expect(summary.summary.overridesActive).toBeGreaterThanOrEqual(1);
    expect(summary.summary.modifiedItems).toBeGreaterThanOrEqual(1);
    expect(summary.insights.largestChanges.length).toBeGreaterThanOrEqual(1);
  });

  it('bulk confirms all rows or none', async () => {
    const rows = (await page('?page=2')).body.data.items.slice(0, 3);
    const changes = rows.map((r, i) => ({
      sku: r.sku,
      site: r.site,
      overrideOULUnits: 10 + i,
      reasonCode: 'Risk Mitigation',
      version: r.version,
    }));
    const stale = await server.request<Failure>('POST', '/api/inventory/overrides/batch', {
      changes: [...changes.slice(0, 2), { ...changes[2]!, version: rows[2]!.version + 5 }],
    });
    expect(stale.status).toBe(409);
    expect((await rowOf(rows[0]!.sku, rows[0]!.site)).overrideOULUnits).toBe(rows[0]!.overrideOULUnits);
    const saved = await server.request<Ok<{ updated: number; items: InventoryRow[] }>>(
      'POST',
      '/api/inventory/overrides/batch',
      { changes },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.updated).toBe(3);
    expect(saved.body.data.items.map((r) => r.overrideOULUnits)).toEqual([10, 11, 12]);
  });

  it('refuses bad input with a 400 naming the field, saving nothing', async () => {
    const row = (await page('?page=3')).body.data.items[0]!;
    const path = `/api/inventory/overrides/${row.sku}/${encodeURIComponent(row.site)}`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ overrideOULUnits: -1, reasonCode: 'Other', version: row.version }, 'overrideOULUnits'],
      [{ overrideOULUnits: 2.5, reasonCode: 'Other', version: row.version }, 'overrideOULUnits'],
      [{ overridePercentage: 1000.1, reasonCode: 'Other', version: row.version }, 'overridePercentage'],
      [{ overridePercentage: -3, reasonCode: 'Other', version: row.version }, 'overridePercentage'],
      [{ overrideOULUnits: 5, reasonCode: 'Market Trend', version: row.version }, 'reasonCode'],
      [
        { overrideOULUnits: 5, reasonCode: 'Other', comments: 'x'.repeat(501), version: row.version },
        'comments',
      ],
      [{ overrideOULUnits: 5, version: row.version }, 'reasonCode'],
      [{ overrideOULUnits: 5, reasonCode: 'Other', comments: 'a\u0000b', version: row.version }, 'comments'],
    ];
    for (const [body, field] of cases) {
      const answer = await server.request<Failure>('PUT', path, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.message).toContain(field);
    }
    const batch = await server.request<Failure>('POST', '/api/inventory/overrides/batch', {
      changes: [
        { sku: row.sku, site: row.site, overrideOULUnits: -4, reasonCode: 'Other', version: row.version },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.message).toContain('overrideOULUnits');
    const after = await rowOf(row.sku, row.site);
    expect(after.version).toBe(row.version);
    expect(after.overrideOULUnits).toBe(row.overrideOULUnits);
  });

  it('finds rows by part of their SKU, in any case, within the caller’s clients only', async () => {
    // 30 products: PRD-00001 … PRD-00024 and six circor ones; "0001" is in PRD-00001 and PRD-00010 … PRD-00019.
    const found = await page('?search=rd-0001');
    expect(found.status).toBe(200);
    const skus = [...new Set(found.body.data.items.map((r) => r.sku))];
    // Three sites per product, more than one product.
    expect(found.body.data.total % 3).toBe(0);
    expect(found.body.data.total).toBeGreaterThan(3);
    expect(skus.every((sku) => sku.toLowerCase().includes('rd-0001'))).toBe(true);
    // A LIKE wildcard is matched as itself, not as "anything".
    expect((await page('?search=%25')).body.data.total).toBe(0);
    const circor = await page(`?search=${skus[0]}`, 'circor');
    expect(circor.body.data.total).toBe(0);
  });

  it('keeps a circor user to circor rows', async () => {
    const internal = (await page()).body.data.items.find((r) => r.sku.startsWith('PRD-'))!;
    const answer = await server.request<Failure>(
      'PUT',
      `/api/inventory/overrides/${internal.sku}/${encodeURIComponent(internal.site)}`,
      { overrideOULUnits: 3, reasonCode: 'Other', version: internal.version },
      { as: 'circor' },
    );
    expect(answer.status).toBe(404);
    // Another client's row's audit answers as an unknown row's does; the caller's own answers.
    const auditOf = (sku: string, site: string) =>
      server.request<Failure>(
        'GET',
        `/api/inventory/overrides/${sku}/${encodeURIComponent(site)}/audit`,
        undefined,
        { as: 'circor' },
      );
    const foreign = await auditOf(internal.sku, internal.site);
    const unknown = await auditOf('NO-SUCH-SKU', internal.site);
    expect(foreign).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: `No inventory row ${internal.sku} at ${internal.site}` },
    });
    expect(JSON.stringify(unknown).replaceAll('NO-SUCH-SKU', internal.sku)).toBe(JSON.stringify(foreign));
    const own = (await page('', 'circor')).body.data.items[0]!;
    expect((await auditOf(own.sku, own.site)).status).toBe(200);
    const nogroup = await server.request<Failure>('GET', '/api/inventory/metrics', undefined, {
      as: 'nogroup',
    });
    expect(nogroup.status).toBe(403);
  });

  it('inventory metrics agree with the simulated history, recomputed in SQL', async () => {
    for (const as of ['admin', 'circor'] as const) {
      const { body } = await server.request<Ok<InventoryMetrics>>(
        'GET',
        '/api/inventory/metrics',
        undefined,
        { as },
      );
      const clients = as === 'admin' ? ['internal', 'circor'] : ['circor'];
      const { rows } = await sql<{
        week: string;
        value: number;
        cogs: number;
        items: number;
        stockouts: number;
      }>`
        select h.week_start::text as week, sum(h.on_hand_units * p.unit_cost)::float8 as value,
          sum((h.demand_units - h.lost_units) * p.unit_cost)::float8 as cogs, count(*)::int as items,
          count(*) filter (where h.lost_units > 0)::int as stockouts
        from inventory_history h join products p on p.pid = h.pid
        where p.client_id = any(${clients}::text[])
        group by 1 order by 1`.execute(server.database.db);
      expect(body.data.weeks).toHaveLength(52);
      expect(rows).toHaveLength(52);
      const last = rows.at(-1)!;
      expect(body.data.cards.totalInventoryValue).toBeCloseTo(last.value, 1);
      const items = rows.reduce((s, r) => s + r.items, 0);
      const stockouts = rows.reduce((s, r) => s + r.stockouts, 0);
      expect(body.data.cards.stockouts).toBe(stockouts);
      expect(body.data.cards.serviceLevel).toBeCloseTo(((items - stockouts) / items) * 100, 2);
      const avgValue = rows.reduce((s, r) => s + r.value, 0) / rows.length;
      const cogs = rows.reduce((s, r) => s + r.cogs, 0);
      expect(body.data.cards.inventoryTurnover).toBeCloseTo(cogs / avgValue, 2);
      expect(body.data.serviceTarget).toBe(95);
      expect(body.data.byBusinessUnit.reduce((s, b) => s + b.stockouts, 0)).toBe(stockouts);
      if (as === 'circor')
        expect(body.data.byBusinessUnit.every((b) => b.businessUnit.startsWith('CIRCOR'))).toBe(true);
    }
  });

  it('S&D match agrees with the rows’ projections, recomputed in SQL', async () => {
    const { body } = await server.request<Ok<SdMatch>>('GET', '/api/inventory/sd-match');
    const { rows } = await sql<{
      supply: number;
      demand: number;
      gap: number;
      std: number;
      avg: number;
      items: number;
      in_band: number;
    }>`
      select sum(sd_supply_units)::float8 as supply, sum(sd_demand_units)::float8 as demand,
        sum(sd_gap_units)::float8 as gap, sum(std_demand)::float8 as std, sum(avg_demand)::float8 as avg,
        count(*)::int as items,
        count(*) filter (where coalesce(override_oul_units, recommended_oul) between oul_90 and oul_98)::int as in_band
      from inventory_parameters`.execute(server.database.db);
    const t = rows[0]!;
    expect(body.data.horizonWeeks).toBe(13);
    expect(body.data.weeks).toHaveLength(13);
    // sd_gap_units holds each row's projected shortfall (plan demand the projected stock cannot serve).
    expect(body.data.cards.matchRate).toBeCloseTo(((t.demand - t.gap) / t.demand) * 100, 2);
    expect(body.data.cards.supplyVariance).toBeCloseTo(((t.supply - t.demand) / t.demand) * 100, 2);
    expect(body.data.cards.demandVolatility).toBeCloseTo((t.std / t.avg) * 100, 2);
    expect(body.data.cards.optimizationScore).toBeCloseTo((t.in_band / t.items) * 100, 2);
    expect(body.data.worst.length).toBeGreaterThan(0);
    const gaps = body.data.worst.map((w) => w.gap);
    expect([...gaps].sort((a, b) => b - a)).toEqual(gaps);
  });

  it('projects supply from the latest baseline network plan and says so; the policy before one exists', async () => {
    const sdMatch = async () =>
      (await server.request<Ok<SdMatch>>('GET', '/api/inventory/sd-match')).body.data;
    expect((await sdMatch()).supplySource).toEqual({ kind: 'policy', runId: null, networkWeeks: 0 });

    // A baseline solve of three months from this month: the projection (13 weeks from this week) is
    // recomputed with its plan when the run has finished.
    const now = new Date();
    const start = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const started = await server.request<Ok<OptimisationRunDetail>>('POST', '/api/optimisation/runs', {
      horizon: { start, periods: 3, granularity: 'month' },
      mipGapPercent: 0,
    });
    expect(started.status).toBe(202);
    const months = new Set(
      [0, 1, 2].map((m) =>
        toIsoDate(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, 1))).slice(0, 7),
      ),
    );
    const projectionWeeks = Array.from({ length: 13 }, (_, w) =>
      toIsoDate(addWeeks(weekStartSunday(now), w)),
    );
    const planned = projectionWeeks.filter((week) => months.has(week.slice(0, 7)));
    let body = await sdMatch();
    for (const deadline = Date.now() + 90_000; body.supplySource.kind === 'policy'; body = await sdMatch()) {
      if (Date.now() > deadline) throw new Error('the projection never took the network plan');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const run = (
      await server.request<Ok<OptimisationRunDetail>>('GET', `/api/optimisation/runs/${started.body.data.id}`)
    ).body.data;
    expect(body.supplySource).toEqual({ kind: 'network', runId: run.id, networkWeeks: planned.length });

    // The plan's served share per region × family × month, applied to each row's planned demand.
    const share = new Map<string, number>();
    const unmet = new Map(run.result!.unmet.map((u) => [`${u.region}|${u.family}|${u.period}`, u.units]));
    for (const flow of run.result!.flows.filter((f) => f.leg === 'outbound')) {
      const key = `${flow.to}|${flow.family}|${flow.period}`;
      share.set(key, (share.get(key) ?? 0) + flow.units);
    }
    for (const [key, shipped] of share)
      share.set(key, Math.min(1, Math.round((shipped / (shipped + (unmet.get(key) ?? 0))) * 1e4) / 1e4));
    const { rows } = await sql<{
      pid: string;
      site: string;
      region: string;
      pf: string;
      share: number;
      week: string;
      units: number;
    }>`
      select i.pid, i.site, p.region, p.pf, i.demand_share::float8 as share, r.week_start::text as week,
        r.final_pln_units::float8 as units
      from inventory_parameters i join products p on p.pid = i.pid join demand_records r on r.pid = i.pid
      where r.week_start = any(${planned}::date[])`.execute(server.database.db);
    for (const week of planned) {
      const expected = rows
        .filter((r) => r.week === week)
        .reduce((sum, r) => {
          const demand = Math.round(r.units * r.share);
          return sum + Math.round(demand * (share.get(`${r.region}|${r.pf}|${week.slice(0, 7)}`) ?? 0));
        }, 0);
      expect([week, body.weeks.find((w) => w.week === week)!.supply]).toEqual([week, expected]);
    }
  });
});
