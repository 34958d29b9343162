import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import {
  importQuarterWeeks,
  type ImportJob,
  type ImportOutcome,
  type ImportPreview,
  type ImportRowOutcome,
} from '@ps/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'spreadsheets');
/** Small limits so the size and row refusals are cheap to reach. */
const MAX_BYTES = 64 * 1024;
const MAX_ROWS = 50;

describe.each(backends)('spreadsheet import on %s', (backend) => {
  let server: TestServer;
  let internalSkus: string[];
  let circorSku: string;
  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: 8, weeks: 52 },
      {
        // One row per slice: a failure mid-import always has slices to undo.
        env: {
          IMPORT_MAX_BYTES: String(MAX_BYTES),
          IMPORT_MAX_ROWS: String(MAX_ROWS),
          IMPORT_SLICE_ROWS: '1',
        },
      },
    );
    const products = await server.database.db
      .selectFrom('products')
      .select(['pid', 'client_id'])
      .orderBy('pid')
      .execute();
    internalSkus = products.filter((p) => p.client_id === 'internal').map((p) => p.pid);
    circorSku = products.find((p) => p.client_id === 'circor')!.pid;
  });
  afterAll(async () => server?.close());

  const upload = async <T>(
    path: string,
    fileName: string,
    content: string | Buffer,
    as: Caller = 'admin',
    field = 'file',
  ): Promise<{ status: number; body: T }> => {
    const form = new FormData();
    form.append(field, new Blob([content]), fileName);
    const token = (await server.tokensFor(as === 'anonymous' ? 'admin' : as)).id_token;
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const preview = (name: string, content: string | Buffer, as: Caller = 'admin') =>
    upload<Ok<ImportPreview> | Failure>('/api/demand-planning-items/import/preview', name, content, as);
  const startImport = (name: string, content: string | Buffer, as: Caller = 'admin') =>
    upload<Ok<ImportJob> | Failure>('/api/demand-planning-items/import', name, content, as);
  /** Polls an import until it ends, as the dialog does. */
  const followImport = async (id: number, as: Caller = 'admin'): Promise<ImportJob> => {
    for (;;) {
      const { body } = await server.request<Ok<ImportJob>>(
        'GET',
        `/api/demand-planning-items/import/${id}`,
        undefined,
        {
          as,
        },
      );
      if (body.data.status !== 'running') return body.data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** Uploads a file and follows its import: the outcome when it succeeded, else the refusal. */
  const importFile = async (
    name: string,
    content: string | Buffer,
    as: Caller = 'admin',
  ): Promise<{ status: number; body: Ok<ImportOutcome> | Failure }> => {
    const started = await startImport(name, content, as);
    if (started.status !== 202) return started as { status: number; body: Failure };
    const job = await followImport((started.body as Ok<ImportJob>).data.id, as);
    if (job.status !== 'succeeded') throw new Error(`import ${name} ${job.status}: ${job.error}`);
    return { status: 200, body: { success: true, data: job.outcome!, error: null } };
  };

  /** Every table an import writes, so a refusal can be shown to change nothing. */
  const checksum = async (): Promise<string> => {
    const parts: string[] = [];
    for (const table of ['products', 'product_details', 'demand_records', 'audit_log', 'product_audit_log']) {
      const { rows } = await sql<{ sum: string | null }>`
        select md5(string_agg(t::text, '|' order by t::text)) as sum from ${sql.table(table)} t`.execute(
        server.database.db,
      );
      parts.push(`${table}:${rows[0]?.sum ?? 'empty'}`);
    }
    return parts.join(',');
  };

  /** The grid's kept totals (week, product, slice), so an undone import can be shown to leave them as they were. */
  const keptChecksum = async (): Promise<string> => {
    const parts: string[] = [];
    for (const table of ['demand_week_totals', 'demand_product_totals', 'demand_slice_product_counts']) {
      const { rows } = await sql<{ sum: string | null }>`
        select md5(string_agg(t::text, '|' order by t::text)) as sum from ${sql.table(table)} t
        where not (to_jsonb(t) ? 'record_count') or (to_jsonb(t)->>'record_count')::int > 0`.execute(
        server.database.db,
      );
      parts.push(`${table}:${rows[0]?.sum ?? 'empty'}`);
    }
    return parts.join(',');
  };

  const quarterRecords = async (pid: string, quarter: number) => {
    const weeks = importQuarterWeeks(new Date())[quarter - 1]!;
    return server.database.db
      .selectFrom('demand_records')
      .select(['week_start', 'ensemble_fcst_units', 'sop_pln_ovrd_units', 'final_pln_units'])
      .where('pid', '=', pid)
      .where('week_start', 'in', weeks)
      .orderBy('week_start')
      .execute();
  };

  it('previews a ;-separated CSV with a BOM: aliases, spec messages by row, duplicates, the first 5 rows', async () => {
    const csv =
      '\uFEFFPart Number;Product Category;Division;Territory;Warehouse;Buyer;Q1 Forecast;Override Q1;Remarks;Last Modified;;\n' +
      `${internalSkus[0]};Valves;Flow;EMEA;Leeds;Ann;"1.200";"$1,500";ok;03/15/2026;;\n` +
      ';;;;;;;;;;;\n' +
      'NEW-1;;Flow;;;;;;;;;\n' +
      'NEW-2;Pumps;Flow;;;;lots;12%;;someday;;\n';
    const { status, body } = await preview('plan.csv', csv);
    expect(status).toBe(200);
    const data = (body as Ok<ImportPreview>).data;
    expect(data).toMatchObject({
      fileName: 'plan.csv',
      totalRows: 3,
      validRowCount: 2,
      errorCount: 1,
      warningCount: 2,
    });
    expect(data.preview).toEqual([
      {
        row: 2,
        sku: internalSkus[0],
        category: 'Valves',
        businessUnit: 'Flow',
        region: 'EMEA',
        site: 'Leeds',
        plannerName: 'Ann',
        forecastQ1: 1200,
        overrideQ1: 1500,
        notes: 'ok',
        lastModified: '2026-03-15',
      },
      expect.objectContaining({ row: 5, sku: 'NEW-2', forecastQ1: 0, overrideQ1: 12 }),
    ]);
    expect(data.errors).toEqual([
      {
        row: 4,
        field: 'category',
        message: 'category is required but is empty',
        severity: 'error',
        sku: 'NEW-1',
      },
    ]);
    expect(data.warnings.map((w) => [w.row, w.field, w.message])).toEqual([
      [5, 'forecastQ1', 'Invalid number "lots" - will be set to 0'],
      [5, 'lastModified', 'Invalid date "someday" - will use current date'],
    ]);
    expect(data.duplicates).toEqual([internalSkus[0]]);
  });

  it('refuses files that are empty, lack required columns, or are not what their extension says; writes nothing', async () => {
    const before = await checksum();
    const refusals: Array<[string, string | Buffer, string]> = [
      ['empty.csv', '', 'The file appears to be empty'],
      ['blank.csv', '\n ; \n', 'The file appears to be empty'],
      ['cols.csv', 'sku,region\nA,B\n', 'Missing required columns: category, businessUnit'],
      [
        'fake.xlsx',
        'sku,category,bu\nA,B,C\n',
        'The file is not an Excel workbook: its contents do not match its .xlsx extension',
      ],
      [
        'zip.csv',
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]),
        'The file is not a text CSV file: its contents do not match its .csv extension',
      ],
      [
        'old.xls',
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
        'The file is not a valid .xls workbook: its contents cannot be read (CFB file size 10 < 512)',
      ],
      [
        'broken.xlsx',
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
        'The file is not a valid .xlsx workbook: its archive is corrupt',
      ],
      ['notes.txt', 'sku,category,bu\n', 'Only .xlsx, .xls and .csv files can be imported'],
    ];
    for (const [name, content, message] of refusals) {
      const { status, body } = await importFile(name, content);
      expect([name, status, (body as Failure).message, (body as Failure).details?.field]).toEqual([
        name,
        400,
        message,
        'file',
      ]);
    }
    expect(await checksum()).toBe(before);
  });

  it('refuses a file over the size limit, over the row limit, a zip bomb, two files and no file', async () => {
    const before = await checksum();
    const big = `sku,category,bu,notes\n${'A,B,C,xxxxxxxxxx\n'.repeat(5000)}`;
    expect(await importFile('big.csv', big)).toMatchObject({
      status: 413,
      body: { message: 'file is larger than the 0.1 MB import limit' },
    });
    const rows = `sku,category,bu\n${Array.from({ length: MAX_ROWS + 1 }, (_, i) => `R-${i},B,C`).join('\n')}`;
    expect(await importFile('rows.csv', rows)).toMatchObject({
      status: 400,
      body: {
        message: 'The file has more than 50 rows, the most one import takes; split it into smaller files',
      },
    });
    expect(
      await importFile('bomb.xlsx', zipOf({ 'xl/workbook.xml': Buffer.alloc(2_000_000) })),
    ).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('zip bomb') as string },
    });
    // A header that understates the size: inflating stops at the declared size, and says so.
    expect(
      await importFile(
        'liar.xlsx',
        zipOf({ 'xl/workbook.xml': Buffer.alloc(500_000) }, { declaredSize: 10 }),
      ),
    ).toMatchObject({
      status: 400,
      body: {
        message:
          'The file is not a valid .xlsx workbook: its part xl/workbook.xml is damaged (it unpacks to more than its recorded size)',
      },
    });

    const token = (await server.tokensFor('admin')).id_token;
    const send = async (form: FormData | string) => {
      const response = await fetch(`${server.baseUrl}/api/demand-planning-items/import`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(typeof form === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as Failure };
    };
    const two = new FormData();
    two.append('file', new Blob(['sku,category,bu\n']), 'a.csv');
    two.append('file', new Blob(['sku,category,bu\n']), 'b.csv');
    expect(await send(two)).toMatchObject({
      status: 400,
      body: { details: { field: 'file' }, message: 'file: only one file can be imported at a time' },
    });
    expect(await send('{}')).toMatchObject({ status: 400, body: { details: { field: 'file' } } });
    expect(
      await upload<Failure>('/api/demand-planning-items/import', 'a.csv', 'x', 'admin', 'upload'),
    ).toMatchObject({
      status: 400,
      body: { message: 'file: the spreadsheet must be sent in the field "file"' },
    });
    expect(await checksum()).toBe(before);
  });

  it('counts the row limit exactly in both formats: data rows only, header, filters and blank lines aside', async () => {
    const before = await checksum();
    const workbook = async (dataRows: number): Promise<Buffer> => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Demand Planning Data');
      sheet.addRow(['Filters: Business Unit = Flow']);
      sheet.addRow([]);
      sheet.addRow(['SKU', 'Category', 'Business Unit']);
      for (let i = 0; i < dataRows; i++) sheet.addRow([`LIM-${i}`, 'Valves', 'Flow']);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const atLimit = await preview('limit.xlsx', await workbook(MAX_ROWS));
    expect(atLimit.status).toBe(200);
    expect((atLimit.body as Ok<ImportPreview>).data.totalRows).toBe(MAX_ROWS);
    const tooMany = 'The file has more than 50 rows, the most one import takes; split it into smaller files';
    expect(await preview('over.xlsx', await workbook(MAX_ROWS + 1))).toMatchObject({
      status: 400,
      body: { message: tooMany },
    });
    const csv = (dataRows: number) =>
      `Filters\n\nsku,category,bu\n${Array.from({ length: dataRows }, (_, i) => `R-${i},B,C\n\n`).join('')}`;
    expect((await preview('limit.csv', csv(MAX_ROWS))).status).toBe(200);
    expect(await preview('over.csv', csv(MAX_ROWS + 1))).toMatchObject({
      status: 400,
      body: { message: tooMany },
    });
    expect(await checksum()).toBe(before);
  });

  it('names the damaged part of a corrupt workbook (a checksum that differs, data that cannot unpack)', async () => {
    const before = await checksum();
    const workbookXml = Buffer.from('<workbook><sheets/></workbook>');
    expect(
      await importFile('crc.xlsx', zipOf({ 'xl/workbook.xml': workbookXml }, { crc: 1234 })),
    ).toMatchObject({
      status: 400,
      body: {
        message:
          'The file is not a valid .xlsx workbook: its part xl/workbook.xml is damaged (its checksum does not match its contents)',
        details: { field: 'file' },
      },
    });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['SKU', 'Category', 'Business Unit', 'Notes']);
    for (let i = 0; i < 200; i++) sheet.addRow([`DMG-${i}`, 'Valves', 'Flow', `note ${i * 7919}`]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    // Overwrite the middle of the sheet's packed data: the archive's directory stays readable.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const at = bytes.indexOf(name) + name.length;
    bytes.fill(0x55, at + 200, at + 260);
    const { status, body } = await importFile('damaged.xlsx', bytes);
    expect(status).toBe(400);
    expect((body as Failure).message).toMatch(
      /^The file is not a valid \.xlsx workbook: its part xl\/worksheets\/sheet1\.xml is damaged \((its compressed data cannot be unpacked|its checksum does not match its contents|it unpacks to (more|less) than its recorded size)\)$/,
    );
    expect(await checksum()).toBe(before);
  });

  it('refuses an import with no valid row (4xx naming the refusals) and writes nothing; the preview still answers', async () => {
    const before = await checksum();
    const invalid = 'sku,category,bu,override q1\nBAD-1,,Flow,5\n,Valves,Flow,1\nBAD<3>,Valves,Flow,-2\n';
    expect(await startImport('invalid.csv', invalid)).toMatchObject({
      status: 400,
      body: {
        details: { field: 'file' },
        message:
          'No row of the file can be imported: row 2 (BAD-1): category is required but is empty; ' +
          'row 3: sku is required but is empty; ' +
          'row 4 (BAD<3>): sku may hold letters, digits, spaces and . _ - / only; overrideQ1 must be between 0 and 1000000000',
      },
    });
    expect(await startImport('header.csv', 'sku,category,bu\n')).toMatchObject({
      status: 400,
      body: { message: 'The file has no data rows to import' },
    });
    const previewed = await preview('invalid.csv', invalid);
    expect(previewed.status).toBe(200);
    // One line per refused row, naming its SKU.
    expect((previewed.body as Ok<ImportPreview>).data.errors.map((e) => [e.row, e.sku])).toEqual([
      [2, 'BAD-1'],
      [3, undefined],
      [4, 'BAD<3>'],
    ]);
    const imports = await server.database.db
      .selectFrom('imports')
      .select('id')
      .where('file_name', 'in', ['invalid.csv', 'header.csv'])
      .execute();
    expect(imports).toEqual([]);
    expect(await checksum()).toBe(before);
  });

  it('reports a refused row once, naming its SKU, beside the rows it imports', async () => {
    const long = `LONG-${'X'.repeat(70)}`;
    const csv = `sku,category,bu,override q1\nONCE-1,Valves,Flow,3\n${long},Valves,Flow,4\nONCE-3,,Flow,-1\n`;
    const outcome = ((await importFile('once.csv', csv)).body as Ok<ImportOutcome>).data;
    expect(outcome).toMatchObject({ imported: 1, failed: 2 });
    expect(outcome.rows.filter((r) => r.status === 'failed').map((r) => [r.row, r.message])).toEqual([
      [3, `Failed to import ${long}: sku must be at most 64 characters`],
      [
        4,
        'Failed to import ONCE-3: category is required but is empty; overrideQ1 must be between 0 and 1000000000',
      ],
    ]);
  });

  it("keeps the decimals of a new SKU's forecast (split in hundredths) and rounds overrides to whole units", async () => {
    const csv = 'sku,category,bu,forecast q1,forecast q2,override q2\nDEC-1,Valves,Flow,812.5,10,20.6\n';
    const outcome = ((await importFile('decimals.csv', csv)).body as Ok<ImportOutcome>).data;
    expect(outcome.rows[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'forecastQ1', quarter: 1, oldValue: null, newValue: 812.5 },
        { field: 'overrideQ2', quarter: 2, oldValue: null, newValue: 21 },
      ]),
    );
    // 812.5 over 13 weeks is 62.5 each. 10 over 13 in hundredths: 1000 / 13 = 76.9 → 76 each (988),
    // the 12 hundredths left to the first 12 weeks: 0.77 × 12 and 0.76.
    expect((await quarterRecords('DEC-1', 1)).map((r) => r.ensemble_fcst_units)).toEqual(
      Array(13).fill(62.5),
    );
    const q2 = await quarterRecords('DEC-1', 2);
    expect(q2.map((r) => r.ensemble_fcst_units)).toEqual([...Array<number>(12).fill(0.77), 0.76]);
    expect(q2.reduce((sum, r) => sum + (r.final_pln_units ?? 0), 0)).toBe(21);
    const item = await server.request<Ok<ImportRowOutcome>>('POST', '/api/demand-planning-items', {
      sku: 'DEC-2',
      category: 'Valves',
      businessUnit: 'Flow',
      forecastQ1: 13.26,
      overrideQ1: 7.4,
    });
    expect(item.body.data.changes).toEqual([
      { field: 'forecastQ1', quarter: 1, oldValue: null, newValue: 13.26 },
      { field: 'overrideQ1', quarter: 1, oldValue: null, newValue: 7 },
    ]);
  });

  it("previews each quarter's Final before → after with the zeroed cells marked, then applies all four quarters", async () => {
    // The seed plans 26 weeks ahead; a SKU created with four quarterly forecasts has all 52 weeks.
    await importFile(
      'allq-new.csv',
      'sku,category,bu,forecast q1,forecast q2,forecast q3,forecast q4\nALLQ-1,Valves,Flow,130,260,390,520\n',
    );
    const csv =
      'sku,category,bu,forecast q1,override q1,override q2,override q3,override q4\n' +
      'ALLQ-1,Valves,Flow,,100,abc,300,400\n' +
      'ALLQ-2,Valves,Flow,812.5,,x,,\n';
    const previewed = ((await preview('allq.csv', csv)).body as Ok<ImportPreview>).data;
    expect(previewed.plan[0]).toEqual({
      row: 2,
      sku: 'ALLQ-1',
      action: 'update',
      // 130 over 13 weeks is 10 a week, so each quarter's Final is its forecast; "abc" becomes 0.
      quarters: [
        { quarter: 1, before: 130, after: 100, zeroed: false },
        { quarter: 2, before: 260, after: 0, zeroed: true },
        { quarter: 3, before: 390, after: 300, zeroed: false },
        { quarter: 4, before: 520, after: 400, zeroed: false },
      ],
    });
    expect(previewed.plan[1]).toMatchObject({
      row: 3,
      sku: 'ALLQ-2',
      action: 'create',
      quarters: [
        { quarter: 1, before: null, zeroed: false },
        { quarter: 2, before: null, after: 0, zeroed: true },
        { quarter: 3, before: null, after: null, zeroed: false },
        { quarter: 4, before: null, after: null, zeroed: false },
      ],
    });
    const outcome = ((await importFile('allq.csv', csv)).body as Ok<ImportOutcome>).data;
    expect(outcome).toMatchObject({ imported: 2, updated: 1, created: 1, failed: 0 });
    // What the preview said is what the import did, in all four quarters.
    for (const { sku, quarters } of previewed.plan)
      for (const { quarter, after } of quarters) {
        const records = await quarterRecords(sku, quarter);
        expect([
          sku,
          quarter,
          records.length === 0 ? null : records.reduce((sum, r) => sum + (r.final_pln_units ?? 0), 0),
        ]).toEqual([sku, quarter, after]);
      }
  });

  it('sets a quarter Final by spreading the override over its weeks by the forecast, audited with the import', async () => {
    const sku = internalSkus[1]!;
    const weeks = importQuarterWeeks(new Date())[0]!;
    // Hand-set forecasts: weeks 1–3 of Q1 get 10, 30, 60, the other ten weeks 0.
    await sql`update demand_records set ensemble_fcst_units = case week_start
        when ${weeks[0]}::date then 10 when ${weeks[1]}::date then 30 when ${weeks[2]}::date then 60 else 0 end,
        sop_pln_ovrd_units = null, sop_pln_ovrd_percent = null
      where pid = ${sku} and week_start = any(${weeks}::date[])`.execute(server.database.db);
    const product = await server.database.db
      .selectFrom('products')
      .select(['bu', 'pf'])
      .where('pid', '=', sku)
      .executeTakeFirstOrThrow();
    const csv = `sku,category,businessUnit,overrideQ1,region,planner name\n${sku},${product.pf},${product.bu},1001,NORTH,Bob\n`;
    const { status, body } = await importFile('q1.csv', csv);
    expect(status).toBe(200);
    const outcome = (body as Ok<ImportOutcome>).data;
    expect(outcome).toMatchObject({
      imported: 1,
      updated: 1,
      failed: 0,
      message: 'Successfully imported 1 items',
    });
    const row = outcome.rows[0]!;
    expect(row.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'overrideQ1', quarter: 1, newValue: 1001 }),
        expect.objectContaining({ field: 'region', newValue: 'NORTH' }),
        { field: 'plannerName', oldValue: null, newValue: 'Bob' },
      ]),
    );
    // 1001 × 10/100 = 100.1, × 30/100 = 300.3, × 60/100 = 600.6 → 100, 300, 600 and the 1 left to 600.6.
    const records = await quarterRecords(sku, 1);
    expect(records.map((r) => r.sop_pln_ovrd_units)).toEqual([100, 300, 601, ...Array<number>(10).fill(0)]);
    expect(records.map((r) => r.final_pln_units)).toEqual([100, 300, 601, ...Array<number>(10).fill(0)]);
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['field', 'new_value', 'source', 'import_id'])
      .where('pid', '=', sku)
      .where('source', '=', 'import')
      .execute();
    expect(audit).toHaveLength(13);
    expect(new Set(audit.map((a) => `${a.field}|${a.source}|${a.import_id}`))).toEqual(
      new Set([`SOP_Pln_Ovrd_Units|import|${outcome.importId}`]),
    );
    const productAudit = await server.database.db
      .selectFrom('product_audit_log')
      .select(['field', 'new_value'])
      .where('import_id', '=', outcome.importId)
      .orderBy('field')
      .execute();
    expect(productAudit).toEqual([
      { field: 'plannerName', new_value: 'Bob' },
      { field: 'region', new_value: 'NORTH' },
    ]);

    // The same file again changes nothing: the override equals the quarter's Final now.
    const again = (await importFile('q1.csv', csv)).body as Ok<ImportOutcome>;
    expect(again.data).toMatchObject({ imported: 1, unchanged: 1, updated: 0, rows: [] });
  });

  it('creates a new SKU with its quarterly forecasts as the weekly baseline', async () => {
    const csv =
      'SKU,Category,Business Unit,Forecast Q1,Forecast Q2,Override Q2,Notes\nIMP-NEW-1,Valves,Flow,130,27,40,launch\n';
    const outcome = ((await importFile('new.csv', csv)).body as Ok<ImportOutcome>).data;
    expect(outcome).toMatchObject({ created: 1, imported: 1 });
    // 130 over 13 weeks is 10 each.
    expect((await quarterRecords('IMP-NEW-1', 1)).map((r) => r.ensemble_fcst_units)).toEqual(
      Array(13).fill(10),
    );
    const q2 = await quarterRecords('IMP-NEW-1', 2);
    // 27 over 13 in hundredths: 2700 / 13 = 207.7 → 207 each (2691), the 9 left to the first 9 weeks.
    expect(q2.map((r) => r.ensemble_fcst_units)).toEqual([
      ...Array<number>(9).fill(2.08),
      ...Array<number>(4).fill(2.07),
    ]);
    // The Q2 override of 40 split by those forecasts, in whole units that add up to 40.
    expect(q2.reduce((sum, r) => sum + (r.final_pln_units ?? 0), 0)).toBe(40);
    // Each Q2 week's override is audited with the import; Q1 has none to audit.
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['week_start', 'new_value', 'import_id'])
      .where('pid', '=', 'IMP-NEW-1')
      .orderBy('week_start')
      .execute();
    expect(audit.map((a) => a.week_start)).toEqual(q2.map((r) => r.week_start));
    expect(audit.map((a) => Number(a.new_value))).toEqual(q2.map((r) => r.final_pln_units));
    expect(new Set(audit.map((a) => a.import_id))).toEqual(new Set([outcome.importId]));
    // Quarters the file gives no value for get no records (docs/spreadsheet-import.md).
    expect(await quarterRecords('IMP-NEW-1', 3)).toEqual([]);
    expect(await quarterRecords('IMP-NEW-1', 4)).toEqual([]);
    const { body } = await server.request<Ok<{ items: Array<{ PID: string; BU: string; PF: string }> }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5&pid=IMP-NEW-1',
    );
    expect(body.data.items[0]).toMatchObject({ PID: 'IMP-NEW-1', BU: 'Flow', PF: 'Valves' });
  });

  it('lets a circor user import only its own products: other rows fail with the spec messages', async () => {
    const csv = `sku,category,bu,override q1\n${circorSku},Valves,Flow,77\n${internalSkus[2]},Valves,Flow,88\n`;
    const previewed = ((await preview('c.csv', csv, 'circor')).body as Ok<ImportPreview>).data;
    expect(previewed.validRowCount).toBe(1);
    expect(previewed.errors[0]).toMatchObject({
      row: 3,
      message: `Failed to import ${internalSkus[2]}: the SKU is not one of your products; new products are created by an admin`,
    });
    const before = await quarterRecords(internalSkus[2]!, 1);
    const outcome = ((await importFile('c.csv', csv, 'circor')).body as Ok<ImportOutcome>).data;
    expect(outcome).toMatchObject({
      imported: 1,
      failed: 1,
      message: '1 items failed to import. 1 items imported successfully.',
    });
    expect(outcome.rows.find((r: ImportRowOutcome) => r.status === 'failed')).toMatchObject({
      row: 3,
      message: `Failed to import ${internalSkus[2]}: the SKU is not one of your products; new products are created by an admin`,
    });
    expect(await quarterRecords(internalSkus[2]!, 1)).toEqual(before);
    const q1 = await quarterRecords(circorSku, 1);
    expect(q1.reduce((sum, r) => sum + (r.final_pln_units ?? 0), 0)).toBe(77);
    // Products are created by an admin: a circor user's unknown SKU fails like another client's.
    const unknown = (
      (await importFile('c2.csv', 'sku,category,bu\nCIRCOR-NEW,Valves,Flow\n', 'circor'))
        .body as Ok<ImportOutcome>
    ).data;
    expect(unknown).toMatchObject({ imported: 0, failed: 1 });
    const created = await server.database.db
      .selectFrom('products')
      .select('client_id')
      .where('pid', '=', 'CIRCOR-NEW')
      .executeTakeFirst();
    expect(created).toBeUndefined();
  });

  it('applies all rows or none: a value a record cannot hold undoes the slices committed before it', async () => {
    const [first, second] = [internalSkus[3]!, internalSkus[4]!];
    await sql`update products set unit_price = 9999999 where pid = ${second}`.execute(server.database.db);
    const before = await checksum();
    const keptBefore = await keptChecksum();
    // A new SKU, an update of an existing one and a moved product commit (one row per slice) before
    // the row that fails.
    const csv = `sku,category,bu,region,forecast q1,override q1\nUNDONE-1,Valves,Flow,,13,\n${first},Valves,Flow,EMEA,,5\n${second},Valves,Flow,,,1000000000\n`;
    const started = await startImport('overflow.csv', csv);
    expect(started.status).toBe(202);
    const job = await followImport((started.body as Ok<ImportJob>).data.id);
    expect(job).toMatchObject({
      status: 'failed',
      outcome: null,
      progressPercent: expect.any(Number) as number,
    });
    expect(job.error).toMatch(new RegExp(`^${second} / \\d{4}-\\d{2}-\\d{2}: Final_Pln_Rev_Dlrs would be`));
    expect(await checksum()).toBe(before);
    expect(await keptChecksum()).toBe(keptBefore);
    const imports = await server.database.db
      .selectFrom('imports')
      .select(['status', 'created_count', 'updated_count'])
      .where('file_name', '=', 'overflow.csv')
      .execute();
    expect(imports).toEqual([{ status: 'failed', created_count: 0, updated_count: 0 }]);
    const undoNotes = await sql<{ n: number }>`
      select (select count(*) from import_undo_records) + (select count(*) from import_undo_products) as n`.execute(
      server.database.db,
    );
    expect(Number(undoNotes.rows[0]!.n)).toBe(0);
  });

  it('runs a file as a background job: 202 with the running import, polled to its outcome, yours only', async () => {
    const csv = `sku,category,bu,forecast q2\nJOB-1,Valves,Flow,13\nJOB-2,Valves,Flow,26\n,Valves,Flow,1\n`;
    const started = await startImport('job.csv', csv);
    expect(started.status).toBe(202);
    const running = (started.body as Ok<ImportJob>).data;
    expect(running).toMatchObject({
      fileName: 'job.csv',
      status: 'running',
      totalRows: 3,
      processedRows: 0,
      progressPercent: 0,
      error: null,
      outcome: null,
      finishedAt: null,
    });
    const done = await followImport(running.id);
    expect(done).toMatchObject({
      id: running.id,
      status: 'succeeded',
      totalRows: 3,
      processedRows: 3,
      progressPercent: 100,
      error: null,
      outcome: {
        importId: running.id,
        created: 2,
        failed: 1,
        message: '1 items failed to import. 2 items imported successfully.',
      },
    });
    expect(Object.keys(done.steps)).toEqual(
      expect.arrayContaining(['readMs', 'validateMs', 'writeNewRecordsMs']),
    );
    // Only the quarter the file gives a value for gets weekly records.
    const weeks = await server.database.db
      .selectFrom('demand_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pid', '=', 'JOB-1')
      .executeTakeFirstOrThrow();
    expect(Number(weeks.n)).toBe(13);
    expect((await quarterRecords('JOB-1', 2)).map((r) => r.ensemble_fcst_units)).toEqual(Array(13).fill(1));

    // Another user's import is not found; a bad id is a 400 naming it.
    const foreign = await server.request<Failure>(
      'GET',
      `/api/demand-planning-items/import/${running.id}`,
      undefined,
      {
        as: 'circor',
      },
    );
    expect(foreign.status).toBe(404);
    const bad = await server.request<Failure>('GET', '/api/demand-planning-items/import/abc');
    expect(bad).toMatchObject({ status: 400, body: { details: { field: 'id' } } });
    const viewer = await server.request<Failure>(
      'GET',
      `/api/demand-planning-items/import/${running.id}`,
      undefined,
      {
        as: 'nogroup',
      },
    );
    expect(viewer.status).toBe(403);
  });

  it('marks an import whose server stopped as failed and undoes the slices it committed', async () => {
    const mine = await importFile('mine.csv', 'sku,category,bu\nMINE-1,Valves,Flow\n');
    const { imported_by_id: userId } = await server.database.db
      .selectFrom('imports')
      .select('imported_by_id')
      .where('id', '=', (mine.body as Ok<ImportOutcome>).data.importId!)
      .executeTakeFirstOrThrow();
    // The row a server leaves behind when it stops mid-import: its transaction went with it.
    const left = await server.database.db
      .insertInto('imports')
      .values({
        file_name: 'stopped.csv',
        imported_by: 'admin',
        imported_by_id: userId,
        imported_at: new Date(Date.now() - 60_000),
        row_count: 10,
        created_count: 0,
        updated_count: 0,
        failed_count: 0,
        status: 'running',
        processed_rows: 5,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // It had committed a slice that created a product with records.
    const before = await checksum();
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      values ('STOPPED-1', 'internal', 'Flow', 'Valves', 'x', 'x', 'x', 'x', 0, 0)`.execute(
      server.database.db,
    );
    await sql`insert into demand_records (pid, week_start, ensemble_fcst_units)
      values ('STOPPED-1', ${importQuarterWeeks(new Date())[0]![0]!}, 5)`.execute(server.database.db);
    await sql`insert into product_audit_log (client_id, pid, field, old_value, new_value, changed_by, source, import_id)
      values ('internal', 'STOPPED-1', 'product', null, 'created', 'admin', 'import', ${left.id})`.execute(
      server.database.db,
    );
    const { body } = await server.request<Ok<ImportJob>>(
      'GET',
      `/api/demand-planning-items/import/${left.id}`,
    );
    expect(await checksum()).toBe(before);
    expect(body.data).toMatchObject({
      status: 'failed',
      error: 'Interrupted: the server stopped before the import finished; nothing of it was written',
      outcome: null,
    });
  });

  it('reads real workbooks: the data sheet, filter lines, merged cells, formulas, dates and text numbers', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Summary').addRow(['Total SKUs', 2]);
    const data = workbook.addWorksheet('Demand Planning Data');
    data.addRow(['Filters: Business Unit = Flow']);
    data.addRow([]);
    data.addRow([
      'SKU',
      'Name',
      'Category',
      'Business Unit',
      'Forecast Q1',
      'Override Q1',
      'Last Modified',
      null,
      null,
    ]);
    data.addRow([
      'XL-1',
      'First',
      'Valves',
      'Flow',
      { formula: '100+30', result: 130 },
      '1,300',
      new Date(Date.UTC(2026, 2, 15)),
    ]);
    data.addRow(['XL-2', 'Second', null, 'Flow', 26, null, 45658]);
    data.mergeCells('C4:C5');
    workbook.addWorksheet('Import Template').addRow(['SKU', 'Category', 'Business Unit']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const previewed = ((await preview('export.xlsx', bytes)).body as Ok<ImportPreview>).data;
    expect(previewed.errors).toEqual([]);
    expect(previewed.preview).toEqual([
      {
        row: 4,
        sku: 'XL-1',
        category: 'Valves',
        businessUnit: 'Flow',
        forecastQ1: 130,
        overrideQ1: 1300,
        lastModified: '2026-03-15',
      },
      {
        row: 5,
        sku: 'XL-2',
        category: 'Valves',
        businessUnit: 'Flow',
        forecastQ1: 26,
        lastModified: '2025-01-01',
      },
    ]);
  });

  it.each([
    ['openpyxl.xlsx', { formulaCached: false }],
    ['prefixed.xlsx', { formulaCached: true }],
    ['xlwt.xls', { formulaCached: false }],
    ['excel-utf8-bom.csv', { formulaCached: true }],
    ['excel-cp1252.csv', { formulaCached: true }],
    ['excel-utf16.csv', { formulaCached: true }],
    // LibreOffice computes the formula openpyxl left without a value when it converts the file.
    ['libreoffice.xlsx', { formulaCached: true }],
    ['libreoffice.xls', { formulaCached: true }],
  ])(
    'reads %s as its writer wrote it (fixtures/spreadsheets/make-fixtures.py)',
    async (name, { formulaCached }) => {
      const { status, body } = await preview(name, readFileSync(join(FIXTURES, name)));
      expect(status).toBe(200);
      const data = (body as Ok<ImportPreview>).data;
      expect(data.errors).toEqual([]);
      expect(data.preview).toEqual([
        {
          row: 2,
          sku: 'FX-1',
          category: 'Valves',
          businessUnit: 'Flow',
          forecastQ1: 812.5,
          overrideQ2: 1200,
          notes: 'Ünïcödé – €5',
          lastModified: '2026-03-15',
        },
        {
          row: 3,
          sku: 'FX-2',
          // Merged with the cell above in the workbooks.
          category: 'Valves',
          businessUnit: 'Flow',
          // A formula's cached result; writers that store none leave the cell empty.
          ...(formulaCached ? { forecastQ1: 130 } : {}),
          overrideQ2: 0,
          notes: 'Ball & <b> valves',
          lastModified: '2026-03-16',
        },
      ]);
      expect(data.warnings.map((w) => [w.row, w.field, w.message])).toEqual([
        [3, 'overrideQ2', 'Invalid number "abc" - will be set to 0'],
      ]);
    },
  );

  it('keeps the roll-up totals and sort extremes equal to a rebuild from the records after the imports above', async () => {
    // Batches of new SKUs with some quarters only, and override updates, went through the trigger.
    const { rows } = await server.database.db.transaction().execute(async (trx) => {
      await sql`create temp table kept_week on commit drop as select * from demand_week_totals`.execute(trx);
      await sql`create temp table kept_product on commit drop as select * from demand_product_totals`.execute(
        trx,
      );
      // Products an import of many SKUs only marked stale (migration 0032) are refreshed first.
      await sql`select refresh_stale_product_extremes(100000)`.execute(trx);
      await sql`create temp table kept_extremes on commit drop as select * from demand_product_extremes`.execute(
        trx,
      );
      await sql`select rebuild_demand_totals()`.execute(trx);
      await sql`truncate demand_product_extremes`.execute(trx);
      await sql`select refresh_product_extremes(array(select distinct pid from demand_records))`.execute(trx);
      const differences = await sql<{ week: number; product: number; extremes: number }>`
        select
          (select count(*) from ((select * from kept_extremes except select * from demand_product_extremes)
            union all (select * from demand_product_extremes except select * from kept_extremes)) d)::int as extremes,
          (select count(*) from ((select * from kept_week except select * from demand_week_totals)
            union all (select * from demand_week_totals except select * from kept_week)) d)::int as week,
          (select count(*) from ((select * from kept_product except select * from demand_product_totals)
            union all (select * from demand_product_totals except select * from kept_product)) d)::int as product`.execute(
        trx,
      );
      return differences;
    });
    expect(rows[0]).toEqual({ week: 0, product: 0, extremes: 0 });
  });

  it('keeps POST /api/demand-planning-items for one item, validated', async () => {
    const created = await server.request<Ok<ImportRowOutcome>>('POST', '/api/demand-planning-items', {
      sku: 'ONE-1',
      category: 'Valves',
      businessUnit: 'Flow',
      forecastQ1: 13,
    });
    expect(created).toMatchObject({ status: 201, body: { data: { sku: 'ONE-1', status: 'created' } } });
    const bad = await server.request<Failure>('POST', '/api/demand-planning-items', {
      sku: 'ONE-2',
      category: '',
      businessUnit: 'Flow',
    });
    expect(bad).toMatchObject({ status: 400, body: { message: 'category is required but is empty' } });
    const negative = await server.request<Failure>('POST', '/api/demand-planning-items', {
      sku: 'ONE-2',
      category: 'C',
      businessUnit: 'B',
      overrideQ1: -1,
    });
    expect(negative).toMatchObject({ status: 400, body: { message: 'overrideQ1 must be 0 or more' } });
    const foreign = await server.request<Failure>(
      'POST',
      '/api/demand-planning-items',
      { sku: internalSkus[0], category: 'C', businessUnit: 'B' },
      { as: 'circor' },
    );
    expect(foreign).toMatchObject({ status: 404 });
    const viewer = await server.request<Failure>(
      'POST',
      '/api/demand-planning-items',
      { sku: 'V', category: 'C', businessUnit: 'B' },
      { as: 'nogroup' },
    );
    expect(viewer.status).toBe(403);
  });
});

/**
 * A zip archive of deflated entries; `declaredSize` lies about the unpacked size of `entries`, `crc`
 * records a wrong checksum for them.
 */
function zipOf(
  entries: Record<string, Buffer>,
  options: { declaredSize?: number; crc?: number } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const all = { '[Content_Types].xml': Buffer.from('<Types/>'), ...entries };
  for (const [name, content] of Object.entries(all)) {
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name);
    const size = name in entries ? (options.declaredSize ?? content.length) : content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(name in entries ? (options.crc ?? crc32(content)) : crc32(content), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(name in entries ? (options.crc ?? crc32(content)) : crc32(content), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(all).length, 8);
  end.writeUInt16LE(Object.keys(all).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
