import ExcelJS from 'exceljs';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { ms, percentile, type BenchRow } from './stats';

/** Rows per file (IMPORT_BENCH_ROWS shortens a run); the budget is for 100,000. */
const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);
/** Imports per format, each of a file with fresh new SKUs (IMPORT_BENCH_RUNS). */
const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 3);
const BUDGET_MS = 10_000;

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

/** Milliseconds the call took; a refusal is reported as the bench's failure with its answer. */
async function post(server: BenchServer, path: string, name: string, file: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: server.headers,
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return performance.now() - started;
}

/**
 * Preview (parse + validate) and import (parse + validate + apply) of a 100,000-row CSV and .xlsx
 * on PostgreSQL: RUNS imports per format, each a file with new SKUs of its own (an import of the
 * same file again would change nothing), p50/p95 against the budget.
 */
export async function runImportBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [];
  const server = await startBenchServer('postgres', { products: 700, weeks: 52 });
  const rows: BenchRow[] = [];
  try {
    const pids = (await server.database.db.selectFrom('products').select('pid').orderBy('pid').execute()).map(
      (p) => p.pid,
    );
    let round = 0;
    for (const format of ['csv', 'xlsx'] as const) {
      const fileOf = async () => {
        round += 1;
        const table = rowsOf(pids, round);
        return format === 'csv' ? csvOf(table) : xlsxOf(table);
      };
      const name = `bench.${format}`;
      const first = await fileOf();
      const preview = await post(server, '/api/demand-planning-items/import/preview', name, first);
      const timings = [await post(server, '/api/demand-planning-items/import', name, first)];
      while (timings.length < RUNS)
        timings.push(await post(server, '/api/demand-planning-items/import', name, await fileOf()));
      const p95 = percentile(timings, 95);
      rows.push({
        file: `${ROWS.toLocaleString('en-US')} rows .${format} (${(first.length / 1024 / 1024).toFixed(1)} MB)`,
        'preview (parse + validate)': ms(preview),
        runs: timings.length,
        'import p50': ms(percentile(timings, 50)),
        'import p95': ms(p95),
        budget: `< ${BUDGET_MS} ms`,
        verdict: p95 < BUDGET_MS ? 'ok' : 'OVER',
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}
