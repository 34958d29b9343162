import {
  hasCostOrRevenueData,
  rollUp,
  type AggregatedRow,
  type DemandRecord,
  type GridPage,
} from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { overlapTransactions } from './support/overlapping-transactions';
import { startTestServer, type TestServer } from './support/test-server';
import { importAndFollow } from './support/follow-import';
import { gridPageWithNotes } from './support/grid-page';
import { walkProducts } from '../src/modules/planning-grid/planning-grid.repository';

const GRID = '/api/demand-planning/grid';
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The original table's order: records with data first, then PID, then week. */
const byGridOrder = (a: DemandRecord, b: DemandRecord) =>
  Number(hasCostOrRevenueData(b)) - Number(hasCostOrRevenueData(a)) ||
  text(a.PID, b.PID) ||
  text(a.Time_Series_sk, b.Time_Series_sk);
const keyOf = (r: DemandRecord) => `${r.PID}|${r.Time_Series_sk}`;

/**
 * Product-level and record-level pages walk the products in PID order and stop at the page's end,
 * and take their totals from the per-slice product counts (migration 0036, ADR 0010). The counts
 * stay equal to a recount from the per-product totals after every kind of write, and every page —
 * filtered, searched, deep in the groups without data, past the end, sorted by PID either way —
 * equals the pure reference.
 */
describe.each(backends)('product-level pages on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 24, weeks: 16 });
  });
  afterAll(async () => server?.close());

  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const grid = (query: string) => gridPageWithNotes(server, query);
  /** Every row of a view, read in pages of `limit`, with the total each page reported. */
  const everyRow = async (query: string, limit: number) => {
    const rows: GridPage['rows'] = [];
    const totals = new Set<number>();
    for (;;) {
      const page = await grid(`${query}&limit=${limit}&offset=${rows.length}`);
      totals.add(page.total);
      rows.push(...page.rows);
      if (page.rows.length < limit) break;
    }
    return { rows, totals: [...totals] };
  };

  /** Slice rows of the kept counts that differ from a recount from demand_product_totals (zero rows aside). */
  const differencesFromRecount = async () => {
    const { rows } = await sql<{ differences: number; kept: number }>`
      with recount as (
        select p.client_id, p.bu, p.pf, p.region, count(*)::bigint as products,
          count(*) filter (where t.data_count > 0)::bigint as data_products,
          sum(t.record_count)::bigint as record_count, sum(t.data_count)::bigint as data_count,
          sum(t.month_groups)::bigint as month_groups, sum(t.month_data_groups)::bigint as month_data_groups,
          sum(t.quarter_groups)::bigint as quarter_groups, sum(t.quarter_data_groups)::bigint as quarter_data_groups,
          sum(t.year_groups)::bigint as year_groups, sum(t.year_data_groups)::bigint as year_data_groups
        from demand_product_totals t join products p on p.pid = t.pid
        group by p.client_id, p.bu, p.pf, p.region),
      kept as (select * from demand_slice_product_counts where products <> 0 or record_count <> 0)
      select
        (select count(*) from ((select * from kept except select * from recount)
          union all (select * from recount except select * from kept)) d)::int as differences,
        (select count(*) from kept)::int as kept`.execute(server.database.db);
    return rows[0]!;
  };

  const expectExact = async (step: string) => {
    const { differences, kept } = await differencesFromRecount();
    expect(kept, step).toBeGreaterThan(0);
    expect(differences, step).toBe(0);
  };

  it('keeps the per-slice product counts equal to a recount after every kind of write', async () => {
    const db = server.database.db;
    await expectExact('seeded');
    const records = await allRecords(server);

    // Records that lose every money figure lose their data flag: their products' data counts drop.
    const emptied = records
      .filter((r) => r.PID === records[0]!.PID || r.PID === records[40]!.PID)
      .slice(0, 20);
    await sql`update demand_records set act_bkg_cost = 0, act_rev_dlrs = 0, prelim_pln_cost = 0,
        prelim_pln_rev_dlrs = 0, final_bk_pln_cost = 0, final_pln_rev_dlrs = 0
      where (pid, to_char(week_start, 'YYYYMMDD')) in (select * from unnest(
        ${emptied.map((r) => r.PID)}::text[], ${emptied.map((r) => r.Time_Series_sk)}::text[]))`.execute(db);
    await expectExact('data flags dropped');

    const batch = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: records
        .filter((_, i) => i % 11 === 0)
        .slice(0, 20)
        .map((r) => ({ PID: r.PID, Time_Series_sk: r.Time_Series_sk, SOP_Pln_Ovrd_Units: 0 })),
    });
    expect(batch.status).toBe(200);
    await expectExact('batch');

    const family = (
      await server.request<Ok<GridPage>>('GET', `${GRID}?viewLevel=category&drillDown=none&limit=500`)
    ).body.data.rows[0] as AggregatedRow;
    const spread = await server.request('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'none',
      group: family.PF,
      field: 'SOP_Pln_Ovrd_Units',
      value: 3000,
    });
    expect(spread.status).toBe(200);
    await expectExact('spread');

    const form = new FormData();
    const product = records[3]!;
    form.append(
      'file',
      new Blob([
        `sku,category,businessUnit,overrideQ1,region\n${product.PID},${product.PF},${product.BU},1001,${product.Region}\n` +
          `SLICE-NEW-1,${product.PF},${product.BU},500,${product.Region}\n`,
      ]),
      'plan.csv',
    );
    // Throws unless the import succeeded.
    const imported = await importAndFollow(server.baseUrl, (await server.tokensFor('admin')).id_token, form);
    expect(imported.status).toBe(202);
    await expectExact('import');

    expect((await server.request('POST', '/api/plan-cycles', {})).status).toBe(201);
    await expectExact('publish');

    // Statements no endpoint makes: a product that changes slice, a deleted product, a product
    // that loses all its records, records inserted for a new product, and the seed's rebuild.
    await sql`update products set pf = 'Slice Family', region = 'Slice Region' where pid = ${records[60]!.PID}`.execute(
      db,
    );
    await expectExact('product moved');
    await sql`delete from products where pid = ${records[80]!.PID}`.execute(db);
    await expectExact('product deleted');
    await sql`delete from demand_records where pid = ${records[100]!.PID}`.execute(db);
    await expectExact('records deleted');
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      select 'SLICE-NEW-2', client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price
      from products where pid = ${records[120]!.PID}`.execute(db);
    await sql`insert into demand_records (pid, week_start, act_bkg_units, act_bkg_cost)
      values ('SLICE-NEW-2', date '2030-01-06', 5, 50), ('SLICE-NEW-2', date '2030-02-03', null, null)`.execute(
      db,
    );
    await expectExact('records inserted');
    await sql`select rebuild_demand_totals()`.execute(db);
    await expectExact('rebuild');
  });

  it.runIf(backend === 'postgres')(
    'stays exact when two transactions change products of one slice at once',
    async () => {
      const db = server.database.db;
      const { rows } = await sql<{ pid: string }>`
        select p.pid from products p join demand_product_totals t on t.pid = p.pid
        where (p.client_id, p.bu, p.pf, p.region) =
          (select client_id, bu, pf, region from demand_slice_product_counts order by products desc limit 1)
        order by p.pid limit 2`.execute(db);
      const [a, b] = rows.map((r) => r.pid) as [string, string];
      const drop = (pid: string) =>
        sql`update demand_records set act_bkg_cost = 0, act_rev_dlrs = 0, prelim_pln_cost = 0,
            prelim_pln_rev_dlrs = 0, final_bk_pln_cost = 0, final_pln_rev_dlrs = 0
          where pid = ${pid} and week_start = (select min(week_start) from demand_records where pid = ${pid})`;
      await overlapTransactions(
        db,
        (trx) => drop(a).execute(trx),
        (trx) => drop(b).execute(trx),
      );
      await expectExact('concurrent');
    },
  );

  it('pages every product-level view as the pure reference does, filtered, searched and past the end', async () => {
    const db = server.database.db;
    // Some records without data, so that pages run from the groups with data into those without.
    await sql`update demand_records set act_bkg_cost = 0, act_rev_dlrs = 0, prelim_pln_cost = 0,
        prelim_pln_rev_dlrs = 0, final_bk_pln_cost = 0, final_pln_rev_dlrs = 0
      where pid in (select pid from products order by pid offset 2 limit 3) and extract(month from week_start) in (1, 2, 3)`.execute(
      db,
    );
    // Products named before every other: some without records, some whose records hold no data
    // (as an import's catalogue SKUs and new SKUs' forecasts); pages must neither show nor read them.
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      select 'AAA-' || lpad(n::text, 4, '0'), client_id, bu, pf, class, region, site, entity_type, 0, 0
      from products cross join generate_series(1, 400) n where pid = (select min(pid) from products)`.execute(
      db,
    );
    await sql`insert into demand_records (pid, week_start, ensemble_fcst_units, final_pln_units)
      select p.pid, w.week_start, 5, 5 from products p
      cross join (select distinct week_start from demand_records order by week_start limit 2) w
      where p.pid like 'AAA-%' and p.pid::text collate "C" >= 'AAA-0390'`.execute(db);
    const records = await allRecords(server);
    expect(records.some((r) => !hasCostOrRevenueData(r))).toBe(true);
    expect(records.filter((r) => r.PID.startsWith('AAA-')).length).toBe(22);
    // The first page's walk through the products with data reads none of those before them.
    const walk = walkProducts({
      filters: { clientIds: ['internal', 'circor'] },
      count: sql<number>`t.data_count`,
      dir: 'asc',
      start: sql<number>`0`,
      end: sql<number>`10`,
      withData: true,
    });
    const { rows: plans } = await sql<{
      'QUERY PLAN': unknown;
    }>`explain (analyze, format json) ${walk}`.execute(db);
    const plan = plans[0]!['QUERY PLAN'];
    const productRowsRead = (node: unknown): number => {
      const n = node as {
        'Relation Name'?: string;
        'Actual Rows': number;
        'Actual Loops': number;
        'Rows Removed by Filter'?: number;
        Plans?: unknown[];
      };
      const read = (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'];
      const own = n['Relation Name'] === 'products' ? read : 0;
      return own + (n.Plans ?? []).reduce<number>((sum, child) => sum + productRowsRead(child), 0);
    };
    const root = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: unknown }>;
    expect(productRowsRead(root[0]!.Plan)).toBeLessThan(100);
    const bu = records.find((r) => r.BU.trim() !== '')!.BU;
    const pid = records[17]!.PID;
    for (const [filter, selected] of [
      ['', records],
      [`&bu=${encodeURIComponent(bu)}`, records.filter((r) => r.BU === bu)],
      [`&search=${pid.slice(-3).toLowerCase()}`, records.filter((r) => r.PID.includes(pid.slice(-3)))],
    ] as const) {
      const original = await everyRow(`viewLevel=none&drillDown=none${filter}`, 13);
      expect(original.totals, `original ${filter}`).toEqual([selected.length]);
      expect((original.rows as DemandRecord[]).map(keyOf), `original ${filter}`).toEqual(
        [...selected].sort(byGridOrder).map(keyOf),
      );
      for (const drillDown of ['none', 'monthly', 'quarterly'] as const) {
        const expected = rollUp(selected, 'sku', drillDown);
        const view = await everyRow(`viewLevel=sku&drillDown=${drillDown}${filter}`, 9);
        expect(view.totals, `sku × ${drillDown} ${filter}`).toEqual([expected.length]);
        expect(view.rows, `sku × ${drillDown} ${filter}`).toEqual(expected);
        // Sorted by PID, descending: products from the last, each one's periods ascending.
        const sorted = await everyRow(
          `viewLevel=sku&drillDown=${drillDown}${filter}&sortBy=PID&sortDir=desc`,
          9,
        );
        expect(
          (sorted.rows as AggregatedRow[]).map((r) => r.id),
          `sku × ${drillDown} by PID desc ${filter}`,
        ).toEqual(
          [...expected]
            .sort((a, b) => text(b.PID!, a.PID!) || text(a.periodKey ?? '', b.periodKey ?? ''))
            .map((r) => r.id),
        );
      }
    }
    // A page that starts deep in the records without data, and one past the end, report the total.
    const withData = records.filter(hasCostOrRevenueData).length;
    const deep = await grid(`viewLevel=none&drillDown=none&offset=${withData + 2}&limit=5`);
    expect((deep.rows as DemandRecord[]).map(keyOf)).toEqual(
      [...records]
        .sort(byGridOrder)
        .slice(withData + 2, withData + 7)
        .map(keyOf),
    );
    for (const query of [
      'viewLevel=none&drillDown=none',
      'viewLevel=sku&drillDown=monthly',
      'viewLevel=sku&drillDown=none&sortBy=PID&sortDir=asc',
    ]) {
      const beyond = await grid(`${query}&offset=100000&limit=10`);
      expect(beyond.rows, query).toEqual([]);
      expect(beyond.total, query).toBe(
        query.includes('monthly')
          ? rollUp(records, 'sku', 'monthly').length
          : query.includes('sku')
            ? new Set(records.map((r) => r.PID)).size
            : records.length,
      );
    }
  });
});
