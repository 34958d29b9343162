import { EDITABLE_FIELDS, PLAN_OUTPUT_FIELDS, type Worksheet } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordColumnSpecs } from '../src/db/demand-record-row';
import { insertNewSkuWeeks, type NewWeeks } from '../src/modules/imports/imports.repository';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';
import { importAndFollow } from './support/follow-import';

type Money = { revenue: number; cost: number };
const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * Pub Ensemble Forecast (docs/metrics.md "Data behind the screens", migration 0031): a family's
 * figure per quarter is exactly the sum of its products' Product ID Drill Down figures, each
 * record's statistical units at its product's list price and unit cost to the cent, and the kept
 * sums stay equal to a rebuild from the records after an edit, a price change, a product that
 * moves region, an import and a publish.
 */
describe.each(backends)('Pub Ensemble Forecast on %s', (backend) => {
  let server: TestServer;
  /** The family with the most products of one region: the old per-slice price rule misvalued it. */
  let family: { bu: string; pf: string };
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 30, weeks: 52 });
    const { rows } = await sql<{ bu: string; pf: string }>`
      select bu, pf from products where client_id = 'internal'
      group by bu, pf, region order by count(*) desc, bu, pf limit 1`.execute(server.database.db);
    family = rows[0]!;
  });
  afterAll(async () => server?.close());
  const db = () => server.database.db;

  const worksheet = async (query: Record<string, string>) => {
    const params = new URLSearchParams({ company: 'internal', businessUnit: family.bu, ...query });
    const { status, body } = await server.request<Ok<Worksheet>>(
      'GET',
      `/api/control-tower/worksheet?${params.toString()}`,
    );
    expect(status).toBe(200);
    return new Map(body.data.quarters.map((q) => [q.quarter, q.pubEnsembleForecast]));
  };

  /** The family's figure by quarter, and the sum of its products' drill-down figures by quarter. */
  const familyAndProducts = async () => {
    const familyFigures = await worksheet({ productFamily: family.pf });
    const products = await db()
      .selectFrom('products')
      .select('pid')
      .where('client_id', '=', 'internal')
      .where('bu', '=', family.bu)
      .where('pf', '=', family.pf)
      .execute();
    const summed = new Map<string, Money>();
    for (const { pid } of products) {
      for (const [quarter, money] of await worksheet({ pid })) {
        if (money === null) continue;
        const sum = summed.get(quarter) ?? { revenue: 0, cost: 0 };
        summed.set(quarter, {
          revenue: cents(sum.revenue + money.revenue),
          cost: cents(sum.cost + money.cost),
        });
      }
    }
    return { familyFigures, summed, products: products.length };
  };

  /** Σ round(units × price or cost, 2) by quarter, computed here from the records. */
  const fromRecords = async () => {
    const { rows } = await sql<{ quarter: string; revenue: number; cost: number }>`
      select to_char(r.week_start, 'YYYY-"Q"Q') as quarter,
        sum(round((r.ensemble_fcst_units * p.unit_price)::numeric, 2))::float8 as revenue,
        sum(round((r.ensemble_fcst_units * p.unit_cost)::numeric, 2))::float8 as cost
      from demand_records r join products p on p.pid = r.pid
      where p.client_id = 'internal' and p.bu = ${family.bu} and p.pf = ${family.pf}
        and r.ensemble_fcst_units is not null
      group by 1`.execute(db());
    return new Map(rows.map((r) => [r.quarter, { revenue: cents(r.revenue), cost: cents(r.cost) }]));
  };

  const expectExactSums = async () => {
    const { familyFigures, summed, products } = await familyAndProducts();
    expect(products).toBeGreaterThan(1);
    const expected = await fromRecords();
    expect(expected.size).toBeGreaterThan(0);
    expect([...summed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [quarter, money] of expected) {
      expect(familyFigures.get(quarter), quarter).toEqual(money);
      expect(summed.get(quarter), quarter).toEqual(money);
    }
  };

  /** Rows of demand_week_totals that differ from rebuild_demand_totals(), compared as values. */
  const differencesFromRebuild = () =>
    db()
      .transaction()
      .execute(async (trx) => {
        await sql`create temp table kept_week on commit drop as select * from demand_week_totals`.execute(
          trx,
        );
        await sql`select rebuild_demand_totals()`.execute(trx);
        const { rows } = await sql<{ n: number; valued: number }>`
          select (select count(*) from ((select * from kept_week except select * from demand_week_totals)
              union all (select * from demand_week_totals except select * from kept_week)) d)::int as n,
            (select count(*) from kept_week where ensemble_fcst_rev_dlrs <> 0 and ensemble_fcst_cost <> 0)::int as valued`.execute(
          trx,
        );
        return rows[0]!;
      });

  it('values the family at exactly the sum of its products, where the per-slice price rule did not', async () => {
    // The products of the family's largest region-slice are priced apart, so the price mix
    // within a slice-week matters (the price change goes through the products' trigger).
    await sql`update products set unit_price = 10 + 7.37 * r.n, unit_cost = 4 + 3.11 * r.n
      from (select pid, row_number() over (order by pid) as n from products
        where client_id = 'internal' and bu = ${family.bu} and pf = ${family.pf}) r
      where products.pid = r.pid`.execute(db());
    await expectExactSums();
    // The rule before migration 0031 (Σ units × the slice-week's Final revenue per Final unit)
    // gives other figures for this family: the test above tells the two apart.
    const { rows: oldRule } = await sql<{ quarter: string; revenue: number }>`
      select to_char(t.week_start, 'YYYY-"Q"Q') as quarter,
        sum(t.ensemble_fcst_units * t.final_pln_rev_dlrs / t.final_pln_units)::float8 as revenue
      from demand_week_totals t
      where t.client_id = 'internal' and t.bu = ${family.bu} and t.pf = ${family.pf}
        and t.final_pln_units > 0 and t.ensemble_fcst_units_n > 0
      group by 1`.execute(db());
    const exact = await fromRecords();
    expect(oldRule.some((q) => Math.abs(q.revenue - exact.get(q.quarter)!.revenue) > 1)).toBe(true);
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });
  });

  it('keeps the sums equal to a rebuild after an edit, a move, an import and a publish', async () => {
    const { rows: picked } = await sql<{ pid: string; week_start: string }>`
      select r.pid, r.week_start::text as week_start from demand_records r join products p on p.pid = r.pid
      where p.client_id = 'internal' and p.bu = ${family.bu} and p.pf = ${family.pf}
        and r.ensemble_fcst_units is not null
      order by r.pid, r.week_start limit 40`.execute(db());
    // A forecast written over existing values, and one taken away (the trigger's update path).
    await sql`update demand_records set ensemble_fcst_units = ensemble_fcst_units * 1.5 + 0.333
      where (pid, week_start) in (select * from unnest(${picked.slice(0, 30).map((r) => r.pid)}::text[],
        ${picked.slice(0, 30).map((r) => r.week_start)}::date[]))`.execute(db());
    await sql`update demand_records set ensemble_fcst_units = null
      where pid = ${picked[35]!.pid} and week_start = ${picked[35]!.week_start}::date`.execute(db());
    // An override saved through the API (the plan chain moves, the forecast stays).
    const [pid, week] = [picked[31]!.pid, picked[31]!.week_start.replaceAll('-', '')];
    const edit = await server.request('PUT', `/api/demand-planning/real-data/${pid}/${week}`, {
      SOP_Pln_Ovrd_Units: 77,
    });
    expect(edit.status).toBe(200);
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });

    // A product moves to another region and back out of the family's largest slice.
    await sql`update products set region = 'PE-MOVED' where pid = ${picked[0]!.pid}`.execute(db());
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });

    // A new SKU of the family by import (price 0 until set), then priced.
    const form = new FormData();
    form.append(
      'file',
      new Blob([`SKU,Category,Business Unit,Forecast Q1\nPE-NEW-1,${family.pf},${family.bu},260\n`]),
      'new.csv',
    );
    // Throws unless the import succeeded.
    const imported = await importAndFollow(server.baseUrl, (await server.tokensFor('admin')).id_token, form);
    expect(imported.status).toBe(202);
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });
    await sql`update products set unit_price = 99.99, unit_cost = 41.5 where pid = 'PE-NEW-1'`.execute(db());
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });

    const published = await server.request('POST', '/api/plan-cycles', {});
    expect(published.status).toBe(201);
    const after = await differencesFromRebuild();
    expect(after.n).toBe(0);
    expect(after.valued).toBeGreaterThan(0);
    await expectExactSums();
  });
  it("adds an import's new records at their product's price, as the trigger would", async () => {
    // The API creates new SKUs at price 0, so the shapes path is driven here with a priced product.
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      values ('PE-IMP-1', 'internal', ${family.bu}, ${family.pf}, 'x', 'PE-IMPORTED', 'x', 'x', 5.5, 12.345)`.execute(
      db(),
    );
    const blank = Object.fromEntries(
      recordColumnSpecs(['Ensemble_Fcst_Units', ...EDITABLE_FIELDS, ...PLAN_OUTPUT_FIELDS]).map((c) => [
        c.name,
        null,
      ]),
    ) as NewWeeks['shapes'][number];
    const weeks = ['2030-01-06', '2030-01-13', '2030-01-20'];
    await db()
      .transaction()
      .execute((trx) =>
        insertNewSkuWeeks(
          trx,
          {
            pids: ['PE-IMP-1'],
            weeks,
            shapes: [{ ...blank, ensemble_fcst_units: 7.3 }, blank],
            records: { sku: [0, 0, 0], week: [0, 1, 2], shape: [0, 1, 0] },
          },
          { at: new Date(), by: 'test' },
          { clientId: 'internal', source: 'import', importId: 0 },
        ),
      );
    const { rows } = await sql<{ week: string; rev: number; cost: number }>`
      select week_start::text as week, ensemble_fcst_rev_dlrs::float8 as rev, ensemble_fcst_cost::float8 as cost
      from demand_week_totals where region = 'PE-IMPORTED' order by week_start`.execute(db());
    // 7.3 × 12.345 = 90.1185 → 90.12; 7.3 × 5.5 = 40.15; the week without a forecast adds 0.
    expect(rows).toEqual([
      { week: weeks[0], rev: 90.12, cost: 40.15 },
      { week: weeks[1], rev: 0, cost: 0 },
      { week: weeks[2], rev: 90.12, cost: 40.15 },
    ]);
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });
    // A product deleted with its records leaves its slice to the others (the products' triggers).
    await sql`update products set region = (select region from products
        where client_id = 'internal' and bu = ${family.bu} and pf = ${family.pf} and pid <> 'PE-IMP-1'
        group by region order by count(*) desc, region limit 1)
      where pid = 'PE-IMP-1'`.execute(db());
    await sql`delete from products where pid = 'PE-IMP-1'`.execute(db());
    expect(await differencesFromRebuild()).toMatchObject({ n: 0 });
  });
});
