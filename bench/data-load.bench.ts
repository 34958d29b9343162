import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addWeeks, toIsoDate, weekStartSunday, type DataLoadJob } from '@ps/domain';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startExportServer, type ExportServer } from './export.bench';
import { percentile, type BenchRow } from './stats';

/** Products of the company (DATA_LOAD_BENCH_PRODUCTS shortens a run); the budgets are for 20,000. */
const PRODUCTS = Number(process.env.DATA_LOAD_BENCH_PRODUCTS ?? 20_000);
const HISTORY_WEEKS = 156;
/** Loads of one week's actuals, each with new figures (so each updates every key). */
const WEEK_RUNS = Number(process.env.DATA_LOAD_BENCH_RUNS ?? 5);
const HISTORY_BUDGET_MS = 60_000;
const WEEK_BUDGET_MS = 5_000;
const RSS_BUDGET_MB = 500;

const pidOf = (i: number) => `BENCH-${String(i).padStart(6, '0')}`;

/** Writes a CSV line by line to disk, so the bench never holds the file either. */
async function writeCsv(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines)
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/**
 * One load as the Data page does it: upload streamed from disk (answered with the running load),
 * polled to its end. The server's RSS (its own process, with the reader's worker thread) is
 * sampled throughout.
 */
async function loadOnce(
  server: ExportServer,
  entity: string,
  path: string,
): Promise<{ ms: number; peakRssMb: number; job: DataLoadJob }> {
  let peak = server.memoryMb().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, server.memoryMb().rss)), 100);
  const started = performance.now();
  try {
    const form = new FormData();
    form.append('file', await openAsBlob(path), `${entity}.csv`);
    const response = await fetch(`${server.baseUrl}/api/data-loads/${entity}`, {
      method: 'POST',
      headers: server.headers,
      body: form,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`load ${entity}: HTTP ${response.status} ${text.slice(0, 200)}`);
    let job = (JSON.parse(text) as { data: DataLoadJob }).data;
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const polled = await fetch(`${server.baseUrl}/api/data-loads/jobs/${job.id}`, {
        headers: server.headers,
      });
      job = ((await polled.json()) as { data: DataLoadJob }).data;
    }
    if (job.status !== 'succeeded') throw new Error(`load ${entity} ${job.status}: ${job.error ?? ''}`);
    return { ms: performance.now() - started, peakRssMb: Math.max(peak, server.memoryMb().rss), job };
  } finally {
    clearInterval(sampler);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const stepsOf = (job: DataLoadJob) =>
  Object.entries(job.steps)
    .map(([name, value]) => `${name.replace(/Ms$/, '')} ${seconds(value)}`)
    .join(', ');

/**
 * A company's first load on PostgreSQL: PRODUCTS products, then HISTORY_WEEKS weeks of weekly
 * history for each (3.12 M rows at 20,000), then WEEK_RUNS loads of one week's actuals for every
 * product, each with new figures (the weekly feed, every key a correction). Against the budgets.
 */
export async function runDataLoadBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [];
  const folder = await mkdtemp(join(tmpdir(), 'ps-data-load-bench-'));
  // The server in a process of its own: its RSS is then the server's alone, not the bench's too.
  const server = await startExportServer({ products: 1, weeks: 1 });
  const rows: BenchRow[] = [];
  try {
    const currentWeek = weekStartSunday(new Date());
    const weeks = Array.from({ length: HISTORY_WEEKS }, (_, w) =>
      toIsoDate(addWeeks(currentWeek, w - HISTORY_WEEKS)),
    );
    const products = join(folder, 'products.csv');
    await writeCsv(products, [
      'PID,Client,Business Unit,Family,Region,Site,Unit Cost,Unit Price',
      ...Array.from(
        { length: PRODUCTS },
        (_, i) =>
          `${pidOf(i)},internal,Pumps,Family ${i % 40},EMEA,Rotterdam,${10 + (i % 90)},${20 + (i % 150)}`,
      ),
    ]);
    const productRun = await loadOnce(server, 'products', products);
    rows.push({
      load: `products (${PRODUCTS.toLocaleString('en-US')} rows)`,
      time: seconds(productRun.ms),
      budget: '',
      'peak RSS': `${productRun.peakRssMb.toFixed(0)} MB`,
      steps: stepsOf(productRun.job),
    });

    const history = join(folder, 'history.csv');
    await writeCsv(
      history,
      (function* () {
        yield 'PID,Week,Units';
        for (let i = 0; i < PRODUCTS; i++)
          for (let w = 0; w < HISTORY_WEEKS; w++) yield `${pidOf(i)},${weeks[w]},${(i * 7 + w * 13) % 97}`;
      })(),
    );
    const historyRun = await loadOnce(server, 'sales-history', history);
    rows.push({
      load: `history (${(PRODUCTS * HISTORY_WEEKS).toLocaleString('en-US')} rows)`,
      time: seconds(historyRun.ms),
      budget: `< ${seconds(HISTORY_BUDGET_MS)}`,
      'peak RSS': `${historyRun.peakRssMb.toFixed(0)} MB (< ${RSS_BUDGET_MB} MB)`,
      steps: stepsOf(historyRun.job),
    });

    const weekTimes: number[] = [];
    let slowest: DataLoadJob | null = null;
    let peak = 0;
    for (let run = 1; run <= WEEK_RUNS; run++) {
      const week = join(folder, `week-${run}.csv`);
      await writeCsv(week, [
        'PID,Week,Units',
        ...Array.from(
          { length: PRODUCTS },
          (_, i) => `${pidOf(i)},${weeks[HISTORY_WEEKS - 1]},${100 + run + (i % 50)}`,
        ),
      ]);
      const weekRun = await loadOnce(server, 'sales-history', week);
      weekTimes.push(weekRun.ms);
      peak = Math.max(peak, weekRun.peakRssMb);
      if (weekRun.ms >= Math.max(...weekTimes)) slowest = weekRun.job;
    }
    rows.push({
      load: `one week of actuals (${PRODUCTS.toLocaleString('en-US')} rows) × ${WEEK_RUNS}`,
      time: `p50 ${seconds(percentile(weekTimes, 50))}, p95 ${seconds(percentile(weekTimes, 95))}`,
      budget: `< ${seconds(WEEK_BUDGET_MS)}`,
      'peak RSS': `${peak.toFixed(0)} MB`,
      steps: slowest ? stepsOf(slowest) : '',
    });
  } finally {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
  return rows;
}
