import ExcelJS from 'exceljs';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { ms, type BenchRow } from './stats';

/** Rows per file (IMPORT_BENCH_ROWS shortens a run); the budget is for 100,000. */
const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);

/**
 * The file: every product of the default data set with a new Q1 override (an update spread over
 * its Q1 weeks), the rest new SKUs with four quarterly forecasts (52 weekly records each).
 */
function rowsOf(pids: string[], round: number): string[][] {
  const header = [
    'SKU',
    'Category',
    'Business Unit',
    'Region',
    'Forecast Q1',
    'Forecast Q2',
    'Forecast Q3',
    'Forecast Q4',
    'Override Q1',
  ];
  const rows = [header];
  for (let i = 0; i < ROWS; i++) {
    const existing = pids[i];
    rows.push(
      existing
        ? [existing, 'Ball Valves', 'Industrial Valves', 'EMEA', '', '', '', '', String(1000 + round * 7 + i)]
        : [
            `BENCH-${round}-${i}`,
            'Ball Valves',
            'Industrial Valves',
            'EMEA',
            '1300',
            '2600',
            '1,300',
            '$650',
            '',
          ],
    );
  }
  return rows;
}

const csvOf = (rows: string[][]): Buffer =>
  Buffer.from(
    rows.map((r) => r.map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\n'),
  );

async function xlsxOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  for (const row of rows) sheet.addRow(row.map((v, i) => (i >= 4 && /^\d+$/.test(v) ? Number(v) : v)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Milliseconds the call took, or why it failed (a refusal is a result here, not a crash). */
async function post(server: BenchServer, path: string, name: string, file: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: server.headers,
    body: form,
  });
  const text = await response.text();
  const took = ms(performance.now() - started);
  return response.ok ? took : `failed after ${took}: HTTP ${response.status} ${text.slice(0, 120)}`;
}

/** Preview (parse + validate) and import (parse + validate + apply) of a 100,000-row CSV and .xlsx, PostgreSQL. */
export async function runImportBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [];
  const server = await startBenchServer('postgres', { products: 700, weeks: 52 });
  const rows: BenchRow[] = [];
  try {
    const pids = (await server.database.db.selectFrom('products').select('pid').orderBy('pid').execute()).map(
      (p) => p.pid,
    );
    for (const [format, round] of [
      ['csv', 1],
      ['xlsx', 2],
    ] as const) {
      const table = rowsOf(pids, round);
      const file = format === 'csv' ? csvOf(table) : await xlsxOf(table);
      const name = `bench.${format}`;
      const preview = await post(server, '/api/demand-planning-items/import/preview', name, file);
      const applied = await post(server, '/api/demand-planning-items/import', name, file);
      rows.push({
        file: `${ROWS.toLocaleString('en-US')} rows .${format} (${(file.length / 1024 / 1024).toFixed(1)} MB)`,
        'preview (parse + validate)': preview,
        'import (parse + validate + apply)': applied,
        budget: '10 s',
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}
