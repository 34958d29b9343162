import type { DataLoadJob } from '@ps/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const MAX_BYTES = 64 * 1024;

describe.each(backends)('admin bulk data loads on %s', (backend) => {
  let server: TestServer;
  let circorPid: string;
  let internalPid: string;
  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: 6, weeks: 12 },
      { env: { DATA_LOAD_MAX_BYTES: String(MAX_BYTES) } },
    );
    const products = await server.database.db.selectFrom('products').select(['pid', 'client_id']).execute();
    circorPid = products.find((p) => p.client_id === 'circor')!.pid;
    internalPid = products.find((p) => p.client_id === 'internal')!.pid;
  });
  afterAll(async () => server?.close());

  const upload = async (
    entity: string,
    fileName: string,
    content: string | Buffer,
    options: { dryRun?: boolean; as?: Caller; field?: string } = {},
  ): Promise<{ status: number; body: Ok<DataLoadJob> | Failure }> => {
    const form = new FormData();
    form.append(options.field ?? 'file', new Blob([content]), fileName);
    const token = (await server.tokensFor(options.as === 'anonymous' ? 'admin' : (options.as ?? 'admin')))
      .id_token;
    const query = options.dryRun ? '?dryRun=true' : '';
    const response = await fetch(`${server.baseUrl}/api/data-loads/${entity}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Ok<DataLoadJob> | Failure };
  };
  /** Uploads and follows the load to its end, as the Data page does. */
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

  const productsCsv = [
    'SKU;CUSTOMER;Division;category;ABC Class;Region;Site;Entity Type;Planner Name;Standard Cost;List Price;Valid From',
    'LOAD-1;internal;Industrial;Pumps;A;North America;Houston;Finished Good;Dana Lee;10;20;',
    'LOAD-1;internal;Industrial;Pumps;A;North America;Houston;Finished Good;Dana Lee;12;25;2026-11-01',
    'LOAD-2;circor;Valves;Ball Valves;;;;;;"1,000.50";1500;',
  ].join('\n');

  it('loads products with aliased headers: a dry run writes nothing, a load inserts, the same file again is unchanged', async () => {
    const dry = await load('products', 'products.csv', productsCsv, { dryRun: true });
    expect(dry).toMatchObject({ status: 'succeeded', dryRun: true, processedRows: 3 });
    expect(dry.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0, refused: 0 });
    const none = await server.database.db.selectFrom('products').where('pid', 'like', 'LOAD-%').execute();
    expect(none).toHaveLength(0);

    const applied = await load('products', 'products.csv', productsCsv);
    expect(applied.counts).toEqual({ inserted: 3, updated: 0, unchanged: 0, refused: 0 });
    const products = await server.database.db
      .selectFrom('products')
      .leftJoin('product_details', 'product_details.pid', 'products.pid')
      .select([
        'products.pid',
        'client_id',
        'bu',
        'pf',
        'class',
        'region',
        'unit_cost',
        'unit_price',
        'planner_name',
      ])
      .where('products.pid', 'like', 'LOAD-%')
      .orderBy('products.pid')
      .execute();
    // LOAD-1's price from 2026-11-01 is in effect this week; LOAD-2 keeps "Unassigned" where blank.
    expect(products).toEqual([
      {
        pid: 'LOAD-1',
        client_id: 'internal',
        bu: 'Industrial',
        pf: 'Pumps',
        class: 'A',
        region: 'North America',
        unit_cost: 12,
        unit_price: 25,
        planner_name: 'Dana Lee',
      },
      {
        pid: 'LOAD-2',
        client_id: 'circor',
        bu: 'Valves',
        pf: 'Ball Valves',
        class: 'Unassigned',
        region: 'Unassigned',
        unit_cost: 1000.5,
        unit_price: 1500,
        planner_name: null,
      },
    ]);
    const prices = await server.database.db
      .selectFrom('product_prices')
      .selectAll()
      .where('pid', '=', 'LOAD-1')
      .orderBy('effective_from')
      .execute();
    expect(prices.map((p) => [p.effective_from, p.unit_price])).toEqual([
      ['1900-01-01', 20],
      ['2026-11-01', 25],
    ]);

    const again = await load('products', 'products.csv', productsCsv);
    expect(again.counts).toEqual({ inserted: 0, updated: 0, unchanged: 3, refused: 0 });

    const changed = await load('products', 'products.csv', productsCsv.replace('Ball Valves', 'Gate Valves'));
    expect(changed.counts).toEqual({ inserted: 0, updated: 1, unchanged: 2, refused: 0 });
    const audit = await server.database.db
      .selectFrom('product_audit_log')
      .select(['field', 'old_value', 'new_value', 'source'])
      .where('pid', '=', 'LOAD-2')
      .execute();
    expect(audit).toEqual([
      { field: 'family', old_value: 'Ball Valves', new_value: 'Gate Valves', source: 'data-load' },
    ]);
  });

  it('loads products from an .xlsx workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Products');
    sheet.addRow(['PID', 'Client', 'Business Unit', 'Family', 'Unit Cost', 'Unit Price', 'Effective Date']);
    sheet.addRow(['XLSX-1', 'internal', 'Industrial', 'Pumps', 3.5, 7, new Date(Date.UTC(2026, 0, 4))]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const job = await load('products', 'products.xlsx', bytes);
    expect(job.error).toBeNull();
    expect(job.counts).toEqual({ inserted: 1, updated: 0, unchanged: 0, refused: 0 });
    const price = await server.database.db
      .selectFrom('product_prices')
      .selectAll()
      .where('pid', '=', 'XLSX-1')
      .execute();
    expect(price).toEqual([{ pid: 'XLSX-1', effective_from: '2026-01-04', unit_cost: 3.5, unit_price: 7 }]);
  });

  it('refuses a whole products file when one row is refused, naming row, field and reason', async () => {
    const csv = [
      'PID,Client,Business Unit,Family,Unit Cost,Unit Price',
      'NEW-OK,internal,Industrial,Pumps,1,2',
      `${circorPid},internal,Industrial,Pumps,1,2`,
      'NEW-BAD,acme,Industrial,Pumps,1,2',
      'NEW-NEG,internal,Industrial,Pumps,-1,2',
      'NEW-TXT,internal,Industrial,Pumps,1,abc',
      'NEW-OK,internal,Industrial,Pumps,1,2',
    ].join('\n');
    const job = await load('products', 'bad.csv', csv);
    expect(job.status).toBe('refused');
    expect(job.counts!.refused).toBe(5);
    expect(job.refusals).toEqual([
      {
        row: 3,
        field: 'PID',
        reason: `PID ${circorPid} belongs to client circor; a product id is unique across clients: give this client's product a prefixed PID (e.g. internal-${circorPid})`,
      },
      { row: 4, field: 'Client', reason: 'Client "acme" is not a client: use internal or circor' },
      { row: 5, field: 'Unit Cost', reason: 'Unit Cost must be 0 or more' },
      { row: 6, field: 'Unit Price', reason: 'Unit Price "abc" is not a number' },
      { row: 7, field: 'Effective Date', reason: 'PID NEW-OK with this effective date is also in row 2' },
    ]);
    const written = await server.database.db.selectFrom('products').where('pid', 'like', 'NEW-%').execute();
    expect(written).toHaveLength(0);
  });

  it('loads sales history: days summed into the Sunday week, money from the price in effect, a re-sent week audited as a correction', async () => {
    await load(
      'products',
      'p.csv',
      [
        'PID,Client,Business Unit,Family,Unit Cost,Unit Price,Effective Date',
        'HIST-1,internal,Industrial,Pumps,2,5,',
        'HIST-1,internal,Industrial,Pumps,3,6,2026-10-04',
      ].join('\n'),
    );
    const csv = [
      'Product,Time_Series_sk,Qty,Sales',
      'HIST-1,20260927,10,',
      'HIST-1,20261004,4,100',
      '',
      'PID,Date,Units',
    ].join('\n');
    // A second header in the data is a refused row, not a header: nothing is written.
    const refused = await load('sales-history', 'h.csv', csv);
    expect(refused.status).toBe('refused');

    const weeks = ['PID,Week,Units,Revenue', 'HIST-1,2026-09-27,10,', 'HIST-1,10/04/2026,4,100'].join('\n');
    const days = ['pid,date,units', 'HIST-1,2026-10-12,3', 'HIST-1,2026-10-17,2'].join('\n');
    const first = await load('sales-history', 'weeks.csv', weeks);
    expect(first.error).toBe(null);
    expect(first.refusals).toEqual([]);
    expect(first.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0, refused: 0 });
    const second = await load('sales-history', 'days.csv', days);
    expect(second.counts).toEqual({ inserted: 1, updated: 0, unchanged: 0, refused: 0 });
    const history = await server.database.db
      .selectFrom('sales_history')
      .select(['week_start', 'units', 'revenue', 'cost'])
      .where('pid', '=', 'HIST-1')
      .orderBy('week_start')
      .execute();
    // 09-27: the price since always (5, cost 2); 10-04 on: the price from 10-04 (6, cost 3).
    expect(history).toEqual([
      { week_start: '2026-09-27', units: 10, revenue: 50, cost: 20 },
      { week_start: '2026-10-04', units: 4, revenue: 100, cost: 12 },
      { week_start: '2026-10-11', units: 5, revenue: 30, cost: 15 },
    ]);
    // Past weeks of the last year get demand records holding the actuals.
    const records = await server.database.db
      .selectFrom('demand_records')
      .select(['week_start', 'act_bkg_units', 'act_rev_dlrs', 'act_bkg_cost'])
      .where('pid', '=', 'HIST-1')
      .orderBy('week_start')
      .execute();
    expect(records).toEqual([
      { week_start: '2026-09-27', act_bkg_units: 10, act_rev_dlrs: 50, act_bkg_cost: 20 },
      { week_start: '2026-10-04', act_bkg_units: 4, act_rev_dlrs: 100, act_bkg_cost: 12 },
      { week_start: '2026-10-11', act_bkg_units: 5, act_rev_dlrs: 30, act_bkg_cost: 15 },
    ]);

    expect((await load('sales-history', 'weeks.csv', weeks)).counts).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 2,
      refused: 0,
    });
    const corrected = await load('sales-history', 'fix.csv', 'PID,Week,Units\nHIST-1,2026-09-27,12\n');
    expect(corrected.counts).toEqual({ inserted: 0, updated: 1, unchanged: 0, refused: 0 });
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['week_start', 'field', 'old_value', 'new_value', 'source'])
      .where('pid', '=', 'HIST-1')
      .orderBy('field')
      .execute();
    expect(audit).toEqual([
      {
        week_start: '2026-09-27',
        field: 'Act_Bkg_Cost',
        old_value: '20.00',
        new_value: '24.00',
        source: 'data-load',
      },
      {
        week_start: '2026-09-27',
        field: 'Act_Bkg_Units',
        old_value: '10',
        new_value: '12',
        source: 'data-load',
      },
      {
        week_start: '2026-09-27',
        field: 'Act_Rev_Dlrs',
        old_value: '50.00',
        new_value: '60.00',
        source: 'data-load',
      },
    ]);
  }, 180_000);

  it('refuses sales-history rows per row: unknown PID, not a Sunday, a week twice, both week and date', async () => {
    const csv = [
      'PID,Week,Date,Units',
      'NOPE-1,2026-09-27,,1',
      `${internalPid},2026-09-28,,1`,
      `${internalPid},2026-09-20,,1`,
      `${internalPid},2026-09-20,,2`,
      `${internalPid},2026-09-13,2026-09-14,2`,
      `${internalPid},,,2`,
      `${internalPid},2026-09-06,,x`,
    ].join('\n');
    const job = await load('sales-history', 'bad.csv', csv);
    expect(job.status).toBe('refused');
    expect(job.refusals.map((r) => [r.row, r.field])).toEqual([
      [2, 'PID'],
      [3, 'Week'],
      [5, 'Week'],
      [6, 'Week'],
      [7, 'Week'],
      [8, 'Units'],
    ]);
    expect(job.refusals[1]!.reason).toBe(
      "Week 2026-09-28 is not a Sunday: give the week's Sunday, or put days in a Date column",
    );
    expect(job.refusals[2]!.reason).toBe(`PID ${internalPid} week 2026-09-20 is also in row 4`);
  });

  it('fails a file without the required columns, refuses other types and oversize files with 400', async () => {
    const missing = await load('sales-history', 'x.csv', 'Product,Amount\nA,1\n');
    expect(missing.status).toBe('failed');
    expect(missing.error).toBe(
      'The file is missing the columns Units, Week or Date of the sales history layout (found: Product, Amount)',
    );
    const binary = await load('products', 'x.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]));
    expect(binary.status).toBe('failed');
    const empty = await load('products', 'empty.csv', '');
    expect(empty).toMatchObject({
      status: 'failed',
      error: 'The file appears to be empty: it has no header row',
    });

    const text = await upload('products', 'notes.txt', 'hello');
    expect(text.status).toBe(400);
    expect((text.body as Failure).message).toBe('file: only .csv and .xlsx files can be loaded');
    const big = await upload('products', 'big.csv', 'x'.repeat(MAX_BYTES + 10));
    expect(big.status).toBe(400);
    expect((big.body as Failure).message).toBe('file is larger than the 0.1 MB data load limit');
    const entity = await upload('forecasts', 'a.csv', 'a');
    expect(entity.status).toBe(400);
    const field = await upload('products', 'a.csv', 'a', { field: 'upload' });
    expect(field.status).toBe(400);
  });

  it('is for admins only: circor and a user without a group get 403, and the log lists the loads', async () => {
    for (const as of ['circor', 'nogroup'] as const) {
      expect((await upload('products', 'p.csv', productsCsv, { as })).status).toBe(403);
      expect((await server.request('GET', '/api/data-loads', undefined, { as })).status).toBe(403);
      expect((await server.request('GET', '/api/data-loads/jobs/1', undefined, { as })).status).toBe(403);
      expect(
        (await server.request('GET', '/api/data-loads/templates/products', undefined, { as })).status,
      ).toBe(403);
    }
    const { body } = await server.request<Ok<DataLoadJob[]>>('GET', '/api/data-loads');
    expect(body.data.length).toBeGreaterThan(5);
    const latest = body.data[0]!;
    expect(latest.loadedBy).not.toBe('');
    expect(latest.durationMs).toBeGreaterThanOrEqual(0);
    expect(latest.status).not.toBe('running');
    const openApi = await server.request<{ paths: Record<string, Record<string, { 'x-access': string }>> }>(
      'GET',
      '/api/openapi.json',
    );
    for (const [path, method] of [
      ['/api/data-loads/layouts', 'get'],
      ['/api/data-loads/templates/{entity}', 'get'],
      ['/api/data-loads/{entity}', 'post'],
      ['/api/data-loads/jobs/{id}', 'get'],
      ['/api/data-loads', 'get'],
    ] as const)
      expect(openApi.body.paths[path]?.[method]?.['x-access'], `${method} ${path}`).toBe('admin');
    const template = await fetch(`${server.baseUrl}/api/data-loads/templates/sales-history`, {
      headers: { authorization: `Bearer ${(await server.tokensFor('admin')).id_token}` },
    });
    expect(await template.text()).toBe(
      'PID,Week,Date,Units,Revenue,Cost\r\nPUMP-1000,2026-11-08,,120,9588.00,\r\n',
    );
  });

  it('marks a load whose server stopped as failed when the log or the load is read; a load still held stays running', async () => {
    const { db } = server.database;
    // The row a server leaves behind when it stops mid-load: its transaction went with it.
    const leftBehind = (fileName: string) =>
      db
        .insertInto('data_loads')
        .values({
          entity: 'sales-history',
          file_name: fileName,
          dry_run: false,
          status: 'running',
          loaded_by: 'admin',
          loaded_by_id: 'admin-id',
          started_at: new Date(Date.now() - 60_000),
          finished_at: null,
          duration_ms: null,
          error: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const stopped = Number((await leftBehind('stopped.csv')).id);
    const readLog = async () => (await server.request<Ok<DataLoadJob[]>>('GET', '/api/data-loads')).body.data;
    const stoppedFailed = {
      status: 'failed',
      error: 'The server stopped during the load: nothing was written',
    };
    if (backend === 'pglite') {
      expect((await readLog()).find((j) => j.id === stopped)).toMatchObject(stoppedFailed);
      return;
    }
    // On PostgreSQL a load another live server runs holds its transaction's lock (class 7304, its
    // id within the schema) and must stay running.
    const held = Number((await leftBehind('held.csv')).id);
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(7304, hashtext(current_schema() || '/' || ${held}::text))`.execute(
        trx,
      );
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    try {
      const log = await readLog();
      expect(log.find((j) => j.id === stopped)).toMatchObject(stoppedFailed);
      expect(log.find((j) => j.id === held)).toMatchObject({ status: 'running', error: null });
      const still = await server.request<Ok<DataLoadJob>>('GET', `/api/data-loads/jobs/${held}`);
      expect(still.body.data.status).toBe('running');
    } finally {
      release();
      await holding;
    }
    // Its server gone (the lock with it), reading the load says so.
    const gone = await server.request<Ok<DataLoadJob>>('GET', `/api/data-loads/jobs/${held}`);
    expect(gone.body.data).toMatchObject(stoppedFailed);
  });

  it('keeps sales history to existing products for every writer: unknown PIDs refused, deleted products take their history', async () => {
    const db = server.database.db;
    const codeOf = async (query: Promise<unknown>) =>
      query.then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
    expect(
      await codeOf(
        sql`insert into sales_history (pid, week_start, units) values ('NO-SUCH-PID', '2026-01-04', 1)`.execute(
          db,
        ),
      ),
    ).toBe('23503');
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      values ('FK-1', 'internal', 'Industrial', 'Pumps', 'A', 'EMEA', 'Rotterdam', 'Finished Good', 1, 2)`.execute(
      db,
    );
    await sql`insert into sales_history (pid, week_start, units) values ('FK-1', '2026-01-04', 1), ('FK-1', '2026-01-11', 2)`.execute(
      db,
    );
    expect(
      await codeOf(sql`update sales_history set pid = 'NO-SUCH-PID' where pid = 'FK-1'`.execute(db)),
    ).toBe('23503');
    expect(await codeOf(sql`update products set pid = 'FK-2' where pid = 'FK-1'`.execute(db))).toBe('23503');
    await sql`delete from products where pid = 'FK-1'`.execute(db);
    const left = await sql<{
      n: number;
    }>`select count(*)::int as n from sales_history where pid = 'FK-1'`.execute(db);
    expect(left.rows[0]!.n).toBe(0);
  });
});
