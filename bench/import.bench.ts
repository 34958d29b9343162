import type { ImportJob } from '@ps/domain';
import ExcelJS from 'exceljs';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { ms, percentile, type BenchRow } from './stats';

/** Rows per file (IMPORT_BENCH_ROWS shortens a run); the budget is for 100,000. */
const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);
/** Imports per format, each of a file with fresh new SKUs (IMPORT_BENCH_RUNS). */
const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 3);
/** One new SKU in this many launches with a quarter's forecast; the others are catalogue rows. */
const LAUNCH_EVERY = 10;
const BUDGET_MS = 10_000;

/**
 * A planner's file of ROWS rows (docs/spreadsheet-import.md "Measured"): every product of the
 * default data set with new Q1 and Q2 overrides (updates spread over 26 weeks each), the rest new
 * SKUs with their catalogue attributes, one in LAUNCH_EVERY with a Q1 forecast (13 weekly
 * records); the others get no records (no quarter has a value).
 */
export function rowsOf(pids: string[], round: number): string[][] {
  const header = [
    'SKU',
    'Category',
    'Business Unit',
    'Region',
    'Site',
    'Planner Name',
    'Forecast Q1',
    'Override Q1',
    'Override Q2',
  ];
  const rows = [header];
  for (let i = 0; i < ROWS; i++) {
    const existing = pids[i];
    rows.push(
      existing
        ? [
            existing,
            'Ball Valves',
            'Industrial Valves',
            '',
            '',
            '',
            '',
            String(1000 + round * 7 + i),
            '2,600',
          ]
        : [
            `BENCH-${round}-${String(i).padStart(6, '0')}`,
            'Ball Valves',
            'Industrial Valves',
            'EMEA',
            'Houston',
            'Ana Ruiz',
            i % LAUNCH_EVERY === 0 ? '$1,300' : '',
            '',
            '',
          ],
    );
  }
  return rows;
}

export const csvOf = (rows: string[][]): Buffer =>
  Buffer.from(
    rows.map((r) => r.map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\n'),
  );

async function xlsxOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  for (const row of rows) sheet.addRow(row.map((v, i) => (i >= 6 && /^\d+$/.test(v) ? Number(v) : v)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function post<T>(
  server: Pick<BenchServer, 'baseUrl' | 'headers'>,
  path: string,
  name: string,
  file: Buffer,
): Promise<T> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: server.headers,
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { data: T }).data;
}

type Run = { ms: number; answeredMs: number; job: ImportJob; progressSeen: number };

/** One import as the dialog does it: upload (answered with the running job), then polls to the end. */
export async function importOnce(
  server: Pick<BenchServer, 'baseUrl' | 'headers'>,
  name: string,
  file: Buffer,
): Promise<Run> {
  const started = performance.now();
  let job = await post<ImportJob>(server, '/api/demand-planning-items/import', name, file);
  const answeredMs = performance.now() - started;
  const progress = new Set<number>();
  while (job.status === 'running') {
    progress.add(job.progressPercent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`${server.baseUrl}/api/demand-planning-items/import/${job.id}`, {
      headers: server.headers,
    });
    job = ((await response.json()) as { data: ImportJob }).data;
  }
  if (job.status !== 'succeeded') throw new Error(`import ${name} failed: ${job.error}`);
  return { ms: performance.now() - started, answeredMs, job, progressSeen: progress.size };
}

/** The steps of the slowest run, in seconds: where an import's time goes. */
function stepsOf(job: ImportJob): string {
  const {
    readMs = 0,
    validateMs = 0,
    planMs = 0,
    findProductsMs = 0,
    lockRecordsMs = 0,
    ...writes
  } = job.steps;
  const write = Object.values(writes).reduce((sum, value) => sum + value, 0);
  const s = (value: number) => (value / 1000).toFixed(1);
  const detail = Object.entries(writes)
    .map(([name, value]) => `${name.replace(/^write|Ms$/g, '')} ${s(value)}`)
    .join(', ');
  return `read ${s(readMs)}, validate ${s(validateMs)}, plan ${s(planMs + findProductsMs + lockRecordsMs)}, write ${s(write)} (${detail})`;
}

/**
 * Preview (parse + validate) and import (upload, parse + validate, then the background job to its
 * end, polled) of a 100,000-row CSV and .xlsx on PostgreSQL: RUNS imports per format, each a file
 * with new SKUs of its own (an import of the same file again would change nothing), p50/p95
 * against the budget, with the steps of the slowest run.
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
      const previewStarted = performance.now();
      await post(server, '/api/demand-planning-items/import/preview', name, first);
      const preview = performance.now() - previewStarted;
      const runs = [await importOnce(server, name, first)];
      while (runs.length < RUNS) runs.push(await importOnce(server, name, await fileOf()));
      const timings = runs.map((r) => r.ms);
      const p95 = percentile(timings, 95);
      const slowest = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
      const { created, updated } = slowest.job.outcome!;
      rows.push({
        file: `${ROWS.toLocaleString('en-US')} rows .${format} (${(first.length / 1024 / 1024).toFixed(1)} MB): ${created} created, ${updated} updated`,
        'preview (parse + validate)': ms(preview),
        runs: timings.length,
        'upload answered p95': ms(
          percentile(
            runs.map((r) => r.answeredMs),
            95,
          ),
        ),
        'progress values seen': Math.min(...runs.map((r) => r.progressSeen)),
        'import p50': ms(percentile(timings, 50)),
        'import p95': ms(p95),
        'slowest run, seconds': stepsOf(slowest.job),
        budget: `< ${BUDGET_MS} ms`,
        verdict: p95 < BUDGET_MS ? 'ok' : 'OVER',
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}
