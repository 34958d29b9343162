import type { AggregatedRow, DemandRecord, GridPage } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, exportFileName } from '../src/modules/exports/export-csv';
import { ExportService } from '../src/modules/exports/export.service';
import { PlanningGridService } from '../src/modules/planning-grid/planning-grid.service';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Ok<T> = { success: true; data: T };

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

describe.each(backends)('CSV export on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
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
    expect(header!.slice(0, 4)).toEqual(['BU', 'Period', 'Records', 'Act_Bkg_Units']);
    const page = await gridRows('viewLevel=business_unit&drillDown=quarterly');
    expect(lines).toHaveLength(page.total);
    const first = page.rows[0] as AggregatedRow;
    const cell = (line: string[], name: string) => line[header!.indexOf(name)];
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
    expect(header!.slice(0, 3)).toEqual(['PID', 'Time_Series_sk', 'BU']);
    expect(lines).toHaveLength(records.filter((r) => r.BU === bu).length);
    expect(lines.every((line) => line[2] === bu)).toBe(true);

    // Small pages give the same file as one big page.
    const grid = new PlanningGridService(server.database.db);
    const scope = {
      userId: 't',
      userName: 'Test',
      groups: ['admin'],
      clientIds: ['internal', 'circor'] as const,
      canWrite: true,
      isAdmin: true,
    };
    let paged = '';
    for await (const chunk of new ExportService(grid, 7).csv(scope, {
      viewLevel: 'none',
      drillDown: 'none',
      bu: [bu],
    })) {
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
});
