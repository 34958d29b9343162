import type { DataLoadJob, InventoryMetrics, InventoryPage, InventoryRow } from '@ps/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_TABLES } from '../src/read-model';
import { samplePack } from '../src/seed/sample-data-pack';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

/** A Wednesday: the current week starts on Sunday 2026-11-15 (the seed's anchor). */
const TODAY = new Date('2026-11-18T12:00:00Z');

describe.each(backends)('inventory bulk loads (lead times, positions, open orders) on %s', (backend) => {
  let server: TestServer;
  /** An internal product of the demo data and one of its stocking sites. */
  let pid: string;
  let site: string;
  let otherSite: string;
  let unitCost: number;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 4, weeks: 12 });
    server.clock.setToday(TODAY);
    const row = await server.database.db
      .selectFrom('inventory_parameters as i')
      .innerJoin('products as p', 'p.pid', 'i.pid')
      .select(['i.pid', 'i.site', 'p.unit_cost'])
      .where('p.client_id', '=', 'internal')
      .orderBy('i.pid')
      .orderBy('i.site')
      .executeTakeFirstOrThrow();
    pid = row.pid;
    site = row.site;
    unitCost = row.unit_cost;
    otherSite = (
      await server.database.db
        .selectFrom('inventory_parameters')
        .select('site')
        .where('pid', '=', pid)
        .where('site', '<>', site)
        .orderBy('site')
        .executeTakeFirstOrThrow()
    ).site;
  });
  afterAll(async () => server?.close());

  const upload = async (
    entity: string,
    fileName: string,
    content: string | Buffer,
    options: { dryRun?: boolean; as?: Caller } = {},
  ): Promise<{ status: number; body: Ok<DataLoadJob> | Failure }> => {
    const form = new FormData();
    form.append('file', new Blob([content]), fileName);
    const token = (await server.tokensFor(options.as === 'anonymous' ? 'admin' : (options.as ?? 'admin')))
      .id_token;
    const response = await fetch(
      `${server.baseUrl}/api/data-loads/${entity}${options.dryRun ? '?dryRun=true' : ''}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form },
    );
    return { status: response.status, body: (await response.json()) as Ok<DataLoadJob> | Failure };
  };
  const load = async (
    entity: string,
    fileName: string,
    content: string | Buffer,
    options: { dryRun?: boolean } = {},
  ): Promise<DataLoadJob> => {
    const started = await upload(entity, fileName, content, options);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    let job = (started.body as Ok<DataLoadJob>).data;
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 30));
      job = (await server.request<Ok<DataLoadJob>>('GET', `/api/data-loads/jobs/${job.id}`)).body.data;
    }
    return job;
  };
  const params = (p: string, s: string) =>
    server.database.db
      .selectFrom('inventory_parameters')
      .selectAll()
      .where('pid', '=', p)
      .where('site', '=', s)
      .executeTakeFirst();
  const rowOf = async (sku: string, at: string): Promise<InventoryRow> => {
    const { body } = await server.request<Ok<InventoryPage>>('GET', `/api/inventory/overrides?sku=${sku}`);
    return body.data.items.find((r) => r.site === at)!;
  };

  it('loads lead times in days or weeks with aliased headers: dry run, load, the same file unchanged, a change audited', async () => {
    await load(
      'products',
      'p.csv',
      'PID,Client,Business Unit,Family,Site,Unit Cost,Unit Price\nINV-1,internal,Industrial,Pumps,Houston,4,9\n',
    );
    const before = (await params(pid, site))!;
    const csv = [
      'Item;Plant;Site Region;Lead Time (days);LT SD Days;Review Period;Share',
      'INV-1;Houston;;10;3.5;1;60',
      'INV-1;Dallas;South;21;;2;',
      `${pid};${site};;${(before.lead_time_weeks + 1) * 7};;;`,
    ].join('\n');
    const dry = await load('lead-times', 'lead-times.csv', csv, { dryRun: true });
    expect(dry.refusals).toEqual([]);
    expect(dry).toMatchObject({ status: 'succeeded', dryRun: true, processedRows: 3 });
    expect(dry.counts).toEqual({ inserted: 2, updated: 1, unchanged: 0, refused: 0 });
    expect(await params('INV-1', 'Houston')).toBeUndefined();

    const applied = await load('lead-times', 'lead-times.csv', csv);
    expect(applied.counts).toEqual({ inserted: 2, updated: 1, unchanged: 0, refused: 0 });
    // 10 days → 2 weeks, σ 3.5 days = 0.5 week; Dallas: 21 days = 3 weeks, reviewed every 2 weeks and
    // replenished at each review, and the 40 % that Houston's 60 % leaves.
    expect(await params('INV-1', 'Houston')).toMatchObject({
      lead_time_weeks: 2,
      lead_time_sd_weeks: 0.5,
      review_period_weeks: 1,
      replenishment_frequency_weeks: 1,
      demand_share: 0.6,
    });
    expect(await params('INV-1', 'Dallas')).toMatchObject({
      region: 'South',
      lead_time_weeks: 3,
      lead_time_sd_weeks: 0,
      review_period_weeks: 2,
      replenishment_frequency_weeks: 2,
      demand_share: 0.4,
    });
    // The known row keeps what the file leaves blank; the inventory page shows the new lead time.
    expect(await params(pid, site)).toMatchObject({
      lead_time_weeks: before.lead_time_weeks + 1,
      lead_time_sd_weeks: before.lead_time_sd_weeks,
      review_period_weeks: before.review_period_weeks,
      demand_share: before.demand_share,
    });
    expect((await rowOf(pid, site)).leadTime).toBe(before.lead_time_weeks + 1);
    const audit = await server.database.db
      .selectFrom('inventory_audit')
      .select(['field', 'old_value', 'new_value', 'source'])
      .where('pid', '=', pid)
      .where('site', '=', site)
      .execute();
    expect(audit).toEqual([
      {
        field: 'leadTime',
        old_value: String(before.lead_time_weeks),
        new_value: String(before.lead_time_weeks + 1),
        source: 'data-load',
      },
    ]);

    const again = await load('lead-times', 'lead-times.csv', csv);
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: 3, refused: 0 });
  }, 180_000);

  it('refuses a whole lead-times file row by row: unknown PID, a site twice, both units, shares over 100 %', async () => {
    const csv = [
      'PID,Site,Lead Time Weeks,Lead Time Days,Demand Share',
      'NOPE-9,Houston,2,,',
      'INV-1,Denver,2,,',
      'INV-1,Denver,3,,',
      'INV-1,Boston,2,14,',
      'INV-1,Houston,2,,90',
      'INV-1,Seattle,x,,',
    ].join('\n');
    const job = await load('lead-times', 'bad.csv', csv);
    expect(job.status).toBe('refused');
    expect(job.counts).toMatchObject({ refused: 5 });
    expect(job.refusals).toEqual([
      { row: 2, field: 'PID', reason: 'PID NOPE-9 is not a product: load it with the products first' },
      { row: 4, field: 'Site', reason: 'PID INV-1 at site Denver is also in row 3' },
      { row: 5, field: 'Lead Time Weeks', reason: 'Give Lead Time Weeks or Lead Time Days, not both' },
      {
        row: 6,
        field: 'Demand Share',
        reason:
          "The demand shares of PID INV-1's sites would add up to 130.00 %: they must add up to at most 100 %",
      },
      { row: 7, field: 'Lead Time Weeks', reason: 'Lead Time Weeks "x" is not a number' },
    ]);
    expect(await params('INV-1', 'Denver')).toBeUndefined();
  });

  it('loads positions: the latest is the on hand, each is its week’s stock in the history and the metrics', async () => {
    // 11-14 is the Saturday of the week of 11-08; 11-17 falls in the current week (11-15).
    const csv = [
      'SKU,Warehouse,Snapshot Date,QOH',
      `${pid},${site},2026-11-14,100`,
      `${pid},${site},11/17/2026,"1,200"`,
    ].join('\n');
    const dry = await load('inventory-positions', 'positions.csv', csv, { dryRun: true });
    expect(dry.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0, refused: 0 });
    const applied = await load('inventory-positions', 'positions.csv', csv);
    expect(applied.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0, refused: 0 });
    expect((await params(pid, site))!.on_hand_units).toBe(1200);
    expect((await rowOf(pid, site)).onHand).toBe(1200);
    const history = await server.database.db
      .selectFrom('inventory_history')
      .select(['week_start', 'on_hand_units'])
      .where('pid', '=', pid)
      .where('site', '=', site)
      .where('week_start', '>=', '2026-11-08')
      .orderBy('week_start')
      .execute();
    expect(history).toEqual([
      { week_start: '2026-11-08', on_hand_units: 100 },
      { week_start: '2026-11-15', on_hand_units: 1200 },
    ]);
    // The current week's stock is this one row's: 1,200 units at its unit cost.
    const metrics = await server.request<Ok<InventoryMetrics>>('GET', '/api/inventory/metrics');
    expect(metrics.body.data.asOf).toBe('2026-11-15');
    expect(metrics.body.data.cards.totalInventoryValue).toBeCloseTo(1200 * unitCost, 2);

    expect((await load('inventory-positions', 'positions.csv', csv)).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 2,
      refused: 0,
    });
  }, 180_000);

  it('loads positions from an .xlsx workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Stock');
    sheet.addRow(['PID', 'Site', 'As Of', 'On Hand']);
    sheet.addRow([pid, otherSite, new Date(Date.UTC(2026, 10, 16)), 75]);
    const job = await load(
      'inventory-positions',
      'stock.xlsx',
      Buffer.from(await workbook.xlsx.writeBuffer()),
    );
    expect(job.error).toBeNull();
    expect(job.counts).toEqual({ inserted: 1, updated: 0, unchanged: 0, refused: 0 });
    expect((await params(pid, otherSite))!.on_hand_units).toBe(75);
  }, 180_000);

  it('refuses positions of an unknown PID, a site not stocked, a day twice, a future day, part units', async () => {
    const csv = [
      'PID,Site,As Of,On Hand',
      'NOPE-9,Houston,2026-11-10,1',
      `${pid},Nowhere,2026-11-10,1`,
      `${pid},${site},2026-11-10,1`,
      `${pid},${site},2026-11-10,2`,
      `${pid},${site},2026-11-19,1`,
      `${pid},${site},2026-11-11,1.5`,
    ].join('\n');
    const job = await load('inventory-positions', 'bad.csv', csv);
    expect(job.status).toBe('refused');
    expect(job.refusals).toEqual([
      { row: 2, field: 'PID', reason: 'PID NOPE-9 is not a product: load it with the products first' },
      {
        row: 3,
        field: 'Site',
        reason: `PID ${pid} is not stocked at site Nowhere: load its lead time there first`,
      },
      { row: 5, field: 'As Of', reason: `PID ${pid} at site ${site} on 2026-11-10 is also in row 4` },
      {
        row: 6,
        field: 'As Of',
        reason: 'As Of 2026-11-19 is after today (2026-11-18): a position is a count already made',
      },
      { row: 7, field: 'On Hand', reason: 'On Hand must be a whole number of units' },
    ]);
    // All or nothing: row 4 was fine and is not written either.
    const written = await server.database.db
      .selectFrom('inventory_positions')
      .where('as_of', '=', '2026-11-10')
      .execute();
    expect(written).toHaveLength(0);
  });

  it('loads open orders: open lines are the projection’s receipts in their due weeks, a closed line no longer counts', async () => {
    // An order-up-to level of 0 makes the policy order nothing: the receipts are the loaded lines.
    await server.database.db
      .updateTable('inventory_parameters')
      .set({ override_oul_units: 0, override_reason: 'Other' })
      .where('pid', '=', pid)
      .where('site', '=', site)
      .execute();
    const csv = [
      'PO Number,Item,Site,Open Qty,ETA,Line Status',
      `PO-1,${pid},${site},50,2026-11-25,open`,
      `PO-2,${pid},${site},30,2026-12-02,`,
      `PO-3,${pid},${site},999,2027-06-01,released`,
    ].join('\n');
    const applied = await load('open-orders', 'orders.csv', csv);
    expect(applied.refusals).toEqual([]);
    expect(applied.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0, refused: 0 });
    // 50 due in week 1 and 30 in week 2 of the 13 projected; PO-3 is due after them.
    expect((await params(pid, site))!.sd_supply_units).toBe(80);
    expect((await load('open-orders', 'orders.csv', csv)).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 3,
      refused: 0,
    });
    const received = await load(
      'open-orders',
      'received.csv',
      `Order,PID,Site,Quantity,Due Date,Status\nPO-2,${pid},${site},30,2026-12-02,Received\n`,
    );
    expect(received.counts).toEqual({ inserted: 0, updated: 1, unchanged: 0, refused: 0 });
    expect((await params(pid, site))!.sd_supply_units).toBe(50);
  }, 180_000);

  it('refuses open orders per row: an order line twice, a site not stocked, an unknown status', async () => {
    const csv = [
      'Order,PID,Site,Quantity,Due Date,Status',
      `PO-9,${pid},${site},5,2026-12-01,open`,
      `PO-9,${pid},${site},6,2026-12-08,open`,
      `PO-9,${pid},Nowhere,5,2026-12-01,open`,
      `PO-8,${pid},${site},5,2026-12-01,lost`,
    ].join('\n');
    const job = await load('open-orders', 'bad.csv', csv);
    expect(job.status).toBe('refused');
    expect(job.refusals.map((r) => [r.row, r.field])).toEqual([
      [3, 'Order'],
      [4, 'Site'],
      [5, 'Status'],
    ]);
    expect(job.refusals[0]!.reason).toBe(`Order PO-9 of PID ${pid} at site ${site} is also in row 2`);
    const written = await server.database.db
      .selectFrom('inventory_open_orders')
      .where('order_id', '=', 'PO-9')
      .execute();
    expect(written).toHaveLength(0);
  });

  it('writes loaded sales history as a bulk write: every kept table equals its rebuild', async () => {
    const job = await load(
      'sales-history',
      'h.csv',
      `PID,Week,Units\n${pid},2026-11-01,7\n${pid},2026-11-08,9\nINV-1,2026-10-25,3\n`,
    );
    expect(job.error).toBeNull();
    expect(job.status).toBe('succeeded');
    const checks = await keptTablesVersusRebuild(server.database.db);
    expect(checks.map((c) => c.table).sort()).toEqual(KEPT_TABLES.map((t) => t.name).sort());
    for (const check of checks) expect(check, check.table).toMatchObject({ differing: 0 });
  }, 180_000);

  it('loads the sample pack: its products stocked with their lead times, stock and orders; a second load unchanged', async () => {
    const pack = samplePack(TODAY);
    const entities = [
      ['products', 'products.csv'],
      ['sales-history', 'sales-history.csv'],
      ['lead-times', 'lead-times.csv'],
      ['inventory-positions', 'inventory-positions.csv'],
      ['open-orders', 'open-orders.csv'],
    ] as const;
    const firsts = [];
    for (const [entity, file] of entities) firsts.push((await load(entity, file, pack[file])).counts);
    // 24 products (48 price rows), 104 weeks each, 30 product × site rows (6 A items at two sites),
    // 30 positions and 3 order lines each.
    expect(firsts).toEqual([
      { inserted: 48, updated: 0, unchanged: 0, refused: 0 },
      { inserted: 2496, updated: 0, unchanged: 0, refused: 0 },
      { inserted: 30, updated: 0, unchanged: 0, refused: 0 },
      { inserted: 30, updated: 0, unchanged: 0, refused: 0 },
      { inserted: 90, updated: 0, unchanged: 0, refused: 0 },
    ]);
    const row = await rowOf('ACME-CP-101', 'Houston');
    expect(row).toMatchObject({ leadTime: 3, leadTimeSd: 0.57, reviewPeriod: 1 });
    expect(row.onHand).toBeGreaterThan(0);
    expect(row.recommendedOULTarget).toBeGreaterThan(0);
    for (const [entity, file] of entities)
      expect((await load(entity, file, pack[file])).counts, entity).toMatchObject({
        inserted: 0,
        updated: 0,
      });
  }, 300_000);

  it('is for admins only, lists the layouts and serves their templates', async () => {
    for (const entity of ['lead-times', 'inventory-positions', 'open-orders'])
      for (const as of ['circor', 'nogroup'] as const) {
        expect((await upload(entity, 'x.csv', 'PID\n', { as })).status, `${entity} as ${as}`).toBe(403);
        expect(
          (await server.request('GET', `/api/data-loads/templates/${entity}`, undefined, { as })).status,
        ).toBe(403);
      }
    const layouts = await server.request<Ok<Array<{ entity: string }>>>('GET', '/api/data-loads/layouts');
    expect(layouts.body.data.map((l) => l.entity)).toEqual([
      'products',
      'sales-history',
      'lead-times',
      'inventory-positions',
      'open-orders',
    ]);
    const template = async (entity: string) =>
      (
        await fetch(`${server.baseUrl}/api/data-loads/templates/${entity}`, {
          headers: { authorization: `Bearer ${(await server.tokensFor('admin')).id_token}` },
        })
      ).text();
    expect(await template('lead-times')).toBe(
      'PID,Site,Region,Lead Time Weeks,Lead Time Days,Lead Time SD Weeks,Lead Time SD Days,Review Period,Replenishment Frequency,Demand Share\r\nPUMP-1000,Houston,North America,3,,0.5,,1,2,100\r\n',
    );
    expect(await template('inventory-positions')).toBe(
      'PID,Site,As Of,On Hand\r\nPUMP-1000,Houston,2026-11-21,240\r\n',
    );
    expect(await template('open-orders')).toBe(
      'Order,PID,Site,Quantity,Due Date,Status\r\nPO-4500123,PUMP-1000,Houston,500,2026-12-07,open\r\n',
    );
  });
});
