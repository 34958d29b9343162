import {
  DATA_SHEET_HEADER_ROW,
  EXPORT_ROW_COLUMNS,
  TEMPLATE_COLUMNS,
  TEMPLATE_INSTRUCTIONS,
  csvFileName as exportFileName,
  horizonOf,
  weeksOfPeriod,
  workbookFileName,
  DEFAULT_USER_SETTINGS,
  detailedWorkbookFileName,
  excelNumberFormat,
  fieldSpecOf,
  rateOn,
  type AggregatedRow,
  type DemandRecord,
  type ExchangeRates,
  type GridPage,
  type StoredUserSettings,
} from '@ps/domain';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../src/modules/exports/export-csv';
import { ExportService } from '../src/modules/exports/export.service';
import { PlanningGridService } from '../src/modules/planning-grid/planning-grid.service';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { importAndFollow } from './support/follow-import';
import { startTestServer, type TestServer } from './support/test-server';

/** Quick Export and CSV head a field's column with its grid label from the field catalogue. */
const headerOf = (name: string): string => fieldSpecOf(name)?.label ?? name;

/** Splits CSV text into rows of cells (RFC 4180: quoted cells may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

/** One part of a ZIP archive, read through its central directory (no ZIP64: test files are small). */
function zipPart(zip: Buffer, name: string): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i += 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const local = zip.readUInt32LE(at + 42);
      const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const compressed = zip.subarray(data, data + zip.readUInt32LE(at + 20));
      return (zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(compressed) : compressed).toString('utf8');
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error(`${name} is not in the archive`);
}

/** The number formats a workbook's styles declare, as written (exceljs unescapes `\,` when it reads). */
const declaredFormats = (zip: Buffer): string[] =>
  [...zipPart(zip, 'xl/styles.xml').matchAll(/formatCode="([^"]*)"/g)].map((m) =>
    m[1]!.replaceAll('&quot;', '"').replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&amp;', '&'),
  );
/** A format as exceljs reports it after reading. */
const asRead = (format: string): string => format.replace(/\\(.)/g, '$1');

describe('CSV cells', () => {
  it('writes money and percents with 2 decimals and leaves other numbers as they are', () => {
    expect(csvCell(1234.5, 'money')).toBe('1234.50');
    expect(csvCell(-3, 'money')).toBe('-3.00');
    expect(csvCell(17.555, 'percent')).toBe('17.55');
    expect(csvCell(42, 'number')).toBe('42');
    expect(csvCell(null, 'money')).toBe('');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('Pumps, Gear', 'text')).toBe('"Pumps, Gear"');
    expect(csvCell('say "hi"', 'text')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines', 'text')).toBe('"two\nlines"');
    expect(csvCell('plain', 'text')).toBe('plain');
  });

  it('makes text that a spreadsheet would run as a formula inert, but not negative numbers', () => {
    expect(csvCell('=SUM(A1:A9)', 'text')).toBe("'=SUM(A1:A9)");
    expect(csvCell('+1 555', 'text')).toBe("'+1 555");
    expect(csvCell('-x', 'text')).toBe("'-x");
    expect(csvCell('@cmd', 'text')).toBe("'@cmd");
    expect(csvCell('=HYPERLINK("http://x","y")', 'text')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell(-12.5, 'money')).toBe('-12.50');
  });

  it('names the file after the day in UTC', () => {
    expect(exportFileName(new Date('2026-11-21T23:30:00Z'))).toBe('demand-planning-real-data-2026-11-21.csv');
  });
});

describe.each(backends)('CSV and Excel exports on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    // 26 weeks: 13 of them from the seed's anchor on, so the export horizon has figures.
    server = await startTestServer(backend, { products: 20, weeks: 26 });
  });
  afterAll(async () => server?.close());

  const download = async (query: string) => {
    const { id_token } = await server.tokensFor('admin');
    const response = await fetch(`${server.baseUrl}/api/demand-planning/export.csv?${query}`, {
      headers: { authorization: `Bearer ${id_token}` },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A UTF-8 byte-order mark first, for spreadsheet programs; the text is what follows it.
    const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { response, hasBom, text: new TextDecoder().decode(hasBom ? bytes.subarray(3) : bytes) };
  };
  const gridRows = async (query: string) =>
    (await server.request<Ok<GridPage>>('GET', `/api/demand-planning/grid?${query}&limit=500`)).body.data;

  it('exports a roll-up as the grid shows it, with its file name and header', async () => {
    const { response, hasBom, text } = await download('viewLevel=business_unit&drillDown=quarterly');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${exportFileName(new Date())}"`,
    );
    expect(hasBom).toBe(true);
    const [header, ...lines] = parseCsv(text);
    expect(header!.slice(0, 4)).toEqual(['Business Unit', 'Period', 'Records', 'Actual Units']);
    const page = await gridRows('viewLevel=business_unit&drillDown=quarterly');
    expect(lines).toHaveLength(page.total);
    const first = page.rows[0] as AggregatedRow;
    const cell = (line: string[], name: string) => line[header!.indexOf(headerOf(name))];
    expect(cell(lines[0]!, 'BU')).toBe(first.BU);
    expect(cell(lines[0]!, 'Period')).toBe(first.periodLabel);
    expect(cell(lines[0]!, 'Final_Pln_Rev_Dlrs')).toBe(first.Final_Pln_Rev_Dlrs!.toFixed(2));
    expect(cell(lines[0]!, 'Records')).toBe(String(first.recordCount));
  });

  it('exports the original table with the filters applied, page after page', async () => {
    const records = (
      await server.request<Ok<{ items: DemandRecord[] }>>('GET', '/api/demand-planning/real-data?limit=5000')
    ).body.data.items;
    const bu = records[0]!.BU;
    const query = `viewLevel=none&drillDown=none&bu=${encodeURIComponent(bu)}`;
    const { text } = await download(query);
    const [header, ...lines] = parseCsv(text);
    expect(header!.slice(0, 3)).toEqual(['Product ID', 'Week Key', 'Business Unit']);
    expect(lines).toHaveLength(records.filter((r) => r.BU === bu).length);
    expect(lines.every((line) => line[2] === bu)).toBe(true);

    // Small pages give the same file as one big page.
    const grid = new PlanningGridService(server.database.db, () => ({
      currentWeek: '2026-01-04',
      horizonWeeks: 52,
    }));
    const scope = {
      userId: 't',
      userName: 'Test',
      groups: ['admin'],
      clientIds: ['internal', 'circor'] as const,
      canWrite: true,
      isAdmin: true,
    };
    let paged = '';
    const service = new ExportService(server.database.db, grid, 7);
    const locale = await service.localeOf(scope, new Date());
    for await (const chunk of service.csv(
      scope,
      { viewLevel: 'none', drillDown: 'none', bu: [bu] },
      locale,
    )) {
      paged += chunk;
    }
    expect(paged).toBe(`\uFEFF${text}`);
  });

  it('neutralises formulas typed into comments', async () => {
    const target = (await gridRows('viewLevel=none&drillDown=none')).rows[0] as DemandRecord;
    await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: [
        { PID: target.PID, Time_Series_sk: target.Time_Series_sk, Comments: '=HYPERLINK("http://evil","x")' },
      ],
    });
    const { text } = await download(`viewLevel=none&drillDown=none&search=${target.PID}`);
    expect(text).toContain('"\'=HYPERLINK(""http://evil"",""x"")"');
  });

  it('refuses a bad view level before streaming anything', async () => {
    const { response, text } = await download('viewLevel=everything');
    expect(response.status).toBe(400);
    const body = JSON.parse(text) as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/^viewLevel /);
  });

  const workbook = async (path: string, as: 'admin' | 'circor' = 'admin') => {
    const { id_token } = await server.tokensFor(as);
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${id_token}` },
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (!response.ok) return { response, book: null, text: bytes.toString('utf8'), bytes };
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    return { response, book, text: '', bytes };
  };
  const allRecords = async (as: 'admin' | 'circor' = 'admin') =>
    (
      await server.request<Ok<{ items: DemandRecord[] }>>(
        'GET',
        '/api/demand-planning/real-data?limit=5000',
        undefined,
        {
          as,
        },
      )
    ).body.data.items;

  it('Quick Export to Excel: the view as the grid shows it, numbers as numbers with formats, frozen header', async () => {
    const { response, book } = await workbook(
      '/api/demand-planning/export.xlsx?viewLevel=business_unit&drillDown=quarterly',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${workbookFileName('business_unit', 'quarterly', new Date())}"`,
    );
    const sheet = book!.worksheets[0]!;
    expect(sheet.name).toBe('Demand Plan');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 4)).toEqual(['Business Unit', 'Period', 'Records', 'Actual Units']);
    const page = await gridRows('viewLevel=business_unit&drillDown=quarterly');
    expect(sheet.actualRowCount).toBe(page.total + 1);
    const first = page.rows[0] as AggregatedRow;
    const cell = (name: string) => sheet.getRow(2).getCell(header.indexOf(headerOf(name)) + 1);
    expect(cell('BU').value).toBe(first.BU);
    expect(cell('Final_Pln_Rev_Dlrs').value).toBe(first.Final_Pln_Rev_Dlrs);
    expect(cell('Final_Pln_Rev_Dlrs').numFmt).toContain('"$"#,##0.00');
    expect(cell('Records').value).toBe(first.recordCount);
  });

  it('Quick Export to Excel of the original table holds every filtered record, with formulas made text', async () => {
    const records = await allRecords();
    const target = records[0]!;
    await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: [{ PID: target.PID, Time_Series_sk: target.Time_Series_sk, Comments: '@SUM(1+1)' }],
    });
    const bu = target.BU;
    const { book } = await workbook(
      `/api/demand-planning/export.xlsx?viewLevel=none&drillDown=none&bu=${encodeURIComponent(bu)}`,
    );
    const sheet = book!.worksheets[0]!;
    expect(sheet.actualRowCount - 1).toBe(records.filter((r) => r.BU === bu).length);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const comments: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) comments.push(row.getCell(header.indexOf('Comments') + 1).value);
    });
    expect(comments).toContain("'@SUM(1+1)");
  });

  it('Detailed Export: data sheet per SKU with 4, 13 and 52 period columns, filters on top, summary and template', async () => {
    const { response, book } = await workbook(
      '/api/demand-planning/export-detailed.xlsx?viewLevel=category&drillDown=none',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${detailedWorkbookFileName('category', 'none', new Date())}"`,
    );
    expect(book!.worksheets.map((s) => s.name)).toEqual(['Demand Plan Data', 'Summary', 'Import Template']);
    const data = book!.getWorksheet('Demand Plan Data')!;
    expect(data.views[0]).toMatchObject({ state: 'frozen', ySplit: DATA_SHEET_HEADER_ROW });
    expect(data.getRow(4).getCell(1).value).toBe('Business Unit');
    expect(data.getRow(4).getCell(2).value).toBe('All');
    const header = (data.getRow(DATA_SHEET_HEADER_ROW).values as unknown[]).slice(1);
    expect(header).toEqual(EXPORT_ROW_COLUMNS.map((c) => c.key));

    const records = await allRecords();
    const pids = [...new Set(records.map((r) => r.PID))].sort();
    expect(response.headers.get('x-export-rows')).toBe(String(pids.length));
    expect(data.actualRowCount).toBe(DATA_SHEET_HEADER_ROW + pids.length - 1);

    // Every figure of one SKU against its records: Q1 = the 13 weeks from this week.
    const horizon = horizonOf(new Date());
    const q1 = new Set(weeksOfPeriod(horizon, 'Q', 1));
    const pid = pids[0]!;
    const row = data.getRow(DATA_SHEET_HEADER_ROW + 1);
    const value = (name: string) => row.getCell(header.indexOf(name) + 1).value;
    const own = records.filter((r) => r.PID === pid);
    const inQ1 = own.filter((r) => q1.has(r.Time_Series_sk));
    const inHorizon = own.filter((r) => horizon.weeks.includes(r.Time_Series_sk));
    const sum = (list: DemandRecord[], f: keyof DemandRecord) =>
      list.reduce((s, r) => s + Number(r[f] ?? 0), 0);
    expect(value('sku')).toBe(pid);
    expect(value('category')).toBe(own[0]!.PF);
    expect(value('businessUnit')).toBe(own[0]!.BU);
    expect(value('forecastQ1')).toBe(inQ1.length ? sum(inQ1, 'Ensemble_Fcst_Units') : null);
    expect(value('totalForecast')).toBe(inHorizon.length ? sum(inHorizon, 'Ensemble_Fcst_Units') : null);
    expect(value('totalOverride')).toBe(inHorizon.length ? sum(inHorizon, 'Final_Pln_Units') : null);
    const overridden = (r: DemandRecord) =>
      [r.Rev_Pln_Ovrd_Percent, r.Rev_Pln_Ovrd_Units, r.SOP_Pln_Ovrd_Percent, r.SOP_Pln_Ovrd_Units].some(
        (v) => v !== null,
      );
    expect(value('overrideQ1')).toBe(inQ1.some(overridden) ? sum(inQ1, 'Final_Pln_Units') : null);
    expect(row.getCell(header.indexOf('variancePercent') + 1).numFmt).toBe('0.00"%"');
    expect(row.getCell(header.indexOf('totalPlanRevenue') + 1).numFmt).toContain('"$"');
    expect(row.getCell(header.indexOf('lastModified') + 1).value).toBeInstanceOf(Date);
    expect(row.getCell(header.indexOf('lastModified') + 1).numFmt).toBe('mm/dd/yyyy');

    const summary = book!.getWorksheet('Summary')!;
    const labels = new Map<unknown, unknown>();
    summary.eachRow((r) => labels.set(r.getCell(1).value, r.getCell(2).value));
    expect(labels.get('SKUs')).toBe(pids.length);
    const template = book!.getWorksheet('Import Template')!;
    expect((template.getRow(1).values as unknown[]).slice(1)).toEqual([...TEMPLATE_COLUMNS]);
  });

  it('Detailed Export writes the filters it applied and neutralises typed text', async () => {
    const records = await allRecords();
    const bu = records[0]!.BU;
    const { book, response } = await workbook(
      `/api/demand-planning/export-detailed.xlsx?viewLevel=sku&drillDown=weekly&bu=${encodeURIComponent(bu)}&search=${encodeURIComponent('=1')}`,
    );
    expect(response.status).toBe(200);
    const data = book!.getWorksheet('Demand Plan Data')!;
    expect(data.getRow(4).getCell(2).value).toBe(bu);
    expect(data.getRow(7).getCell(2).value).toBe("'=1");
    expect(response.headers.get('x-export-rows')).toBe('0');
  });

  it('a circor user exports only circor SKUs, whatever client context is asked for', async () => {
    const circorPids = new Set((await allRecords('circor')).map((r) => r.PID));
    expect(circorPids.size).toBeGreaterThan(0);
    const { book } = await workbook(
      '/api/demand-planning/export-detailed.xlsx?viewLevel=category&drillDown=none&clientContext=internal',
      'circor',
    );
    const data = book!.getWorksheet('Demand Plan Data')!;
    const skus: unknown[] = [];
    data.eachRow((row, n) => {
      if (n > DATA_SHEET_HEADER_ROW) skus.push(row.getCell(1).value);
    });
    expect(new Set(skus)).toEqual(circorPids);
    const quick = await workbook('/api/demand-planning/export.xlsx?viewLevel=none&drillDown=none', 'circor');
    const quickSheet = quick.book!.worksheets[0]!;
    const pids = new Set<unknown>();
    quickSheet.eachRow((row, n) => {
      if (n > 1) pids.add(row.getCell(1).value);
    });
    expect(pids).toEqual(circorPids);
  });

  it('Template Download: the template sheet first, then the spec instructions', async () => {
    const { response, book } = await workbook(
      '/api/demand-planning/import-template.xlsx?viewLevel=sku&drillDown=weekly',
    );
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="demand-planning-import-template-sku-weekly.xlsx"',
    );
    expect(book!.worksheets.map((s) => s.name)).toEqual(['Import Template', 'Instructions']);
    expect((book!.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual([...TEMPLATE_COLUMNS]);
    const lines: unknown[] = [];
    book!.worksheets[1]!.eachRow((row) => lines.push(row.getCell(1).value));
    expect(lines).toEqual([...TEMPLATE_INSTRUCTIONS]);
  });

  it('refuses bad input with a 400 naming the field, and anonymous callers with 401', async () => {
    for (const path of [
      '/api/demand-planning/export.xlsx?drillDown=daily',
      '/api/demand-planning/export-detailed.xlsx?viewLevel=all',
      '/api/demand-planning/import-template.xlsx?drillDown=x',
    ]) {
      const { response, text } = await workbook(path);
      expect(response.status).toBe(400);
      expect((JSON.parse(text) as { error: string }).error).toMatch(/^(viewLevel|drillDown) /);
    }
    const anonymous = await server.request('GET', '/api/demand-planning/import-template.xlsx', undefined, {
      as: 'anonymous',
    });
    expect(anonymous.status).toBe(401);
  });

  it('formats every .xlsx number in lakh and crore for a user who reads Indian numbers, values still numbers; CSV stays plain', async () => {
    const settings = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings');
    await server.request('PUT', '/api/user-settings', {
      ...DEFAULT_USER_SETTINGS,
      currency: 'inr',
      numberFormat: 'indian',
    });
    try {
      const rates = (await server.request<Ok<ExchangeRates>>('GET', '/api/exchange-rates')).body.data;
      const inr = rateOn(rates.rates, 'inr', new Date().toISOString().slice(0, 10))!;
      const money = { numberFormat: 'indian', decimals: 2, currency: 'inr' } as const;
      const units = (value: number) =>
        ({ numberFormat: 'indian', decimals: Number.isInteger(value) ? 0 : 2 }) as const;
      const lakhMoney =
        '[>=9999999.995]"₹"##\\,##\\,##\\,##0.00;[>=99999.995]"₹"##\\,##\\,##0.00;"₹"#,##0.00';

      // Quick Export of the business units: sums reach lakhs and crores of rupees.
      const quickFile = await workbook(
        '/api/demand-planning/export.xlsx?viewLevel=business_unit&drillDown=none',
      );
      const quick = quickFile.book!.worksheets[0]!;
      const header = (quick.getRow(1).values as unknown[]).slice(1);
      const page = await gridRows('viewLevel=business_unit&drillDown=none');
      const formats = new Set<string>();
      page.rows.forEach((row, i) => {
        const grid = row as AggregatedRow;
        const cell = (name: string) => quick.getRow(i + 2).getCell(header.indexOf(headerOf(name)) + 1);
        const revenue = cell('Final_Pln_Rev_Dlrs');
        expect(revenue.value).toBe(Math.round(grid.Final_Pln_Rev_Dlrs! * inr.rate * 100) / 100);
        const format = excelNumberFormat(revenue.value as number, money);
        expect(revenue.numFmt).toBe(asRead(format));
        formats.add(format);
        const planned = cell('Final_Pln_Units');
        expect(planned.value).toBe(grid.Final_Pln_Units);
        expect(planned.numFmt).toBe(
          asRead(excelNumberFormat(planned.value as number, units(planned.value as number))),
        );
        expect(cell('Records').numFmt).toBe(
          asRead(excelNumberFormat(grid.recordCount, units(grid.recordCount))),
        );
      });
      expect(formats).toContain(lakhMoney);
      // The file itself holds the escaped commas that make Excel group in lakhs (built-in formats
      // such as #,##0 are referred to by number and not declared).
      for (const format of formats) {
        if (format.includes('\\,')) expect(declaredFormats(quickFile.bytes)).toContain(format);
      }
      const largest = Math.max(...page.rows.map((r) => (r as AggregatedRow).Final_Pln_Rev_Dlrs! * inr.rate));
      expect(largest).toBeGreaterThanOrEqual(100_000);

      // Detailed Export: the data sheet's money and units, and the Summary's totals.
      const detailedFile = await workbook(
        '/api/demand-planning/export-detailed.xlsx?viewLevel=category&drillDown=none',
      );
      const detailed = detailedFile.book!;
      const detailedFormats = new Set<string>();
      const data = detailed.getWorksheet('Demand Plan Data')!;
      const dataHeader = (data.getRow(DATA_SHEET_HEADER_ROW).values as unknown[]).slice(1);
      let checked = 0;
      data.eachRow((row, n) => {
        if (n <= DATA_SHEET_HEADER_ROW) return;
        for (const [name, style] of [
          ['totalPlanRevenue', () => money],
          ['totalOverride', () => units(0)],
          ['variance', () => units(0)],
        ] as const) {
          const cell = row.getCell(dataHeader.indexOf(name) + 1);
          if (typeof cell.value !== 'number') continue;
          const format = excelNumberFormat(cell.value, style());
          expect(cell.numFmt, `${name} ${cell.value}`).toBe(asRead(format));
          detailedFormats.add(format);
          checked += 1;
        }
      });
      expect(checked).toBeGreaterThan(0);
      const summary = new Map<unknown, ExcelJS.Cell>();
      detailed.getWorksheet('Summary')!.eachRow((r) => summary.set(r.getCell(1).value, r.getCell(2)));
      const planRevenue = summary.get('Final Plan Revenue')!;
      expect(typeof planRevenue.value).toBe('number');
      expect(planRevenue.value as number).toBeGreaterThanOrEqual(10_000_000);
      detailedFormats.add(excelNumberFormat(planRevenue.value as number, money));
      expect(planRevenue.numFmt).toBe(asRead(excelNumberFormat(planRevenue.value as number, money)));
      expect(summary.get('Total Final Plan (units)')!.numFmt).toBe(
        asRead(excelNumberFormat(summary.get('Total Final Plan (units)')!.value as number, units(0))),
      );
      const lakhFormats = [...detailedFormats].filter((format) => format.includes('\\,'));
      expect(lakhFormats.length).toBeGreaterThan(0);
      for (const format of lakhFormats) expect(declaredFormats(detailedFile.bytes)).toContain(format);

      // CSV is for machines: plain numbers, a point for decimals, no grouping.
      const csv = await download('viewLevel=business_unit&drillDown=none');
      const [csvHeader, first] = parseCsv(csv.text);
      expect(first![csvHeader!.indexOf(headerOf('Final_Pln_Rev_Dlrs'))]).toMatch(/^-?\d+\.\d{2}$/);
    } finally {
      await server.request('PUT', '/api/user-settings', settings.body.data.settings ?? DEFAULT_USER_SETTINGS);
    }
  });

  it('writes date cells in the date format the user chose (dd/mm/yyyy), still dates', async () => {
    const settings = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings');
    await server.request('PUT', '/api/user-settings', { ...DEFAULT_USER_SETTINGS, dateFormat: 'dd/mm/yyyy' });
    try {
      const { book } = await workbook(
        '/api/demand-planning/export-detailed.xlsx?viewLevel=category&drillDown=none',
      );
      const data = book!.getWorksheet('Demand Plan Data')!;
      const header = (data.getRow(DATA_SHEET_HEADER_ROW).values as unknown[]).slice(1);
      const modified = data.getRow(DATA_SHEET_HEADER_ROW + 1).getCell(header.indexOf('lastModified') + 1);
      expect(modified.value).toBeInstanceOf(Date);
      expect(modified.numFmt).toBe('dd/mm/yyyy');
    } finally {
      await server.request('PUT', '/api/user-settings', settings.body.data.settings ?? DEFAULT_USER_SETTINGS);
    }
  });

  it("writes money in the user's currency at today's rate, says which, fills planner and notes, and a file in EUR imports back unchanged", async () => {
    const sku = (await allRecords())[0]!;
    // Planner and notes live in product_details, which an import writes.
    const csv = `sku,category,businessUnit,plannerName,notes\n${sku.PID},${sku.PF},${sku.BU},Ana Ruiz,Launch in Q2\n`;
    const form = new FormData();
    form.append('file', new Blob([csv]), 'details.csv');
    const { id_token } = await server.tokensFor('admin');
    const imported = await importAndFollow(server.baseUrl, id_token, form);
    expect(imported.status).toBe(202);

    const path = `/api/demand-planning/export-detailed.xlsx?viewLevel=none&drillDown=none&search=${sku.PID}`;
    const rowOf = (book: ExcelJS.Workbook) => {
      const data = book.getWorksheet('Demand Plan Data')!;
      const header = (data.getRow(DATA_SHEET_HEADER_ROW).values as unknown[]).slice(1);
      const row = data.getRow(DATA_SHEET_HEADER_ROW + 1);
      return { data, cell: (name: string) => row.getCell(header.indexOf(name) + 1) };
    };
    const inDollars = rowOf((await workbook(path)).book!);
    expect(inDollars.cell('plannerName').value).toBe('Ana Ruiz');
    expect(inDollars.cell('notes').value).toBe('Launch in Q2');
    expect(inDollars.data.getRow(9).getCell(2).value).toBe('USD (US dollars, as stored)');
    const dollars = inDollars.cell('totalPlanRevenue').value as number;
    expect(dollars).toBeGreaterThan(0);

    const settings = await server.request<Ok<StoredUserSettings>>('GET', '/api/user-settings');
    await server.request('PUT', '/api/user-settings', { ...DEFAULT_USER_SETTINGS, currency: 'eur' });
    try {
      const rates = (await server.request<Ok<ExchangeRates>>('GET', '/api/exchange-rates')).body.data;
      const eur = rateOn(rates.rates, 'eur', new Date().toISOString().slice(0, 10))!;
      const { book, response } = await workbook(path);
      const inEuros = rowOf(book!);
      expect(inEuros.data.getRow(9).getCell(1).value).toBe('Currency');
      expect(inEuros.data.getRow(9).getCell(2).value).toBe(
        `EUR, converted from USD at ${eur.rate.toFixed(4)} EUR per USD (rate valid from ${eur.validFrom})`,
      );
      // The dollar total converted once, to the cent; units are not money and stay as they are.
      expect(inEuros.cell('totalPlanRevenue').value).toBe(Math.round(dollars * eur.rate * 100) / 100);
      expect(inEuros.cell('totalPlanRevenue').numFmt).toBe('"€"#,##0.00;[Red]-"€"#,##0.00');
      expect(inEuros.cell('totalOverride').value).toBe(inDollars.cell('totalOverride').value);
      const summary = new Map<unknown, unknown>();
      book!.getWorksheet('Summary')!.eachRow((r) => summary.set(r.getCell(1).value, r.getCell(2).value));
      expect(summary.get('Final Plan Revenue')).toBe(Math.round(dollars * eur.rate * 100) / 100);
      expect(summary.get('Currency')).toBe(inEuros.data.getRow(9).getCell(2).value);

      // Quick Export: money converted, currency and rate on every row.
      const quick = await download(`viewLevel=none&drillDown=none&search=${sku.PID}`);
      const [header, first] = parseCsv(quick.text);
      const at = (name: string) => first![header!.indexOf(headerOf(name))];
      const record = (await allRecords()).find(
        (r) => r.PID === sku.PID && r.Time_Series_sk === at('Time_Series_sk'),
      )!;
      expect(at('Final_Pln_Rev_Dlrs')).toBe(
        (Math.round(record.Final_Pln_Rev_Dlrs! * eur.rate * 100) / 100).toFixed(2),
      );
      expect(header!.slice(-3)).toEqual(['Currency', 'Rate per USD', 'Rate Valid From']);
      expect([at('Currency'), Number(at('Rate per USD')), at('Rate Valid From')]).toEqual([
        'EUR',
        eur.rate,
        eur.validFrom,
      ]);

      // Import reads no money: the EUR workbook imported back changes nothing.
      const before = await allRecords();
      const back = new FormData();
      back.append('file', new Blob([Buffer.from(await book!.xlsx.writeBuffer())]), 'eur.xlsx');
      expect(response.status).toBe(200);
      const again = await importAndFollow(server.baseUrl, id_token, back);
      expect(again.status).toBe(202);
      expect(again.outcome).toMatchObject({
        imported: 1,
        unchanged: 1,
        updated: 0,
        failed: 0,
      });
      expect(await allRecords()).toEqual(before);
    } finally {
      await server.request('PUT', '/api/user-settings', settings.body.data.settings ?? DEFAULT_USER_SETTINGS);
    }
  });
});
