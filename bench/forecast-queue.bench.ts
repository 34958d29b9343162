import { spawn, type ChildProcess } from 'node:child_process';
import type { ForecastRun } from '@ps/domain';
import { sql } from 'kysely';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { BENCH_POSTGRES_URL, getJson, startBenchServer, type BenchServer } from './bench-server';
import { ms, percentile, type BenchRow } from './stats';

/** A 20,000-product run through the job queue with one and with two workers. */
const PRODUCTS = Number(process.env.BENCH_QUEUE_PRODUCTS ?? 20_000);
const WEEKS = 52;
const WORKER_COUNTS = [1, 2];
const RUNS = Number(process.env.BENCH_QUEUE_RUNS ?? 1);

type Worker = { child: ChildProcess; output: () => string };

/** `npm run worker` on the bench's schema; resolves once it takes chunks. */
async function startWorker(schema: string): Promise<Worker> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/worker.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: `${BENCH_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Forecast worker started')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)));
  });
  await ready;
  return { child, output: () => output };
}

async function stopWorker(worker: Worker): Promise<void> {
  if (worker.child.exitCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGTERM');
  await exited;
}

/** From POST /api/forecast/runs to 'succeeded', polled as the page does. */
async function timeRun(server: BenchServer): Promise<{ seconds: number; run: ForecastRun }> {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/forecast/runs`, {
    method: 'POST',
    headers: server.headers,
  });
  let run = ((await response.json()) as { data: ForecastRun }).data;
  while (run.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    run = await getJson<ForecastRun>(server, `/api/forecast/runs/${run.id}`);
  }
  if (run.status !== 'succeeded') throw new Error(`Run ${run.id} ${run.status}: ${run.error}`);
  return { seconds: (performance.now() - started) / 1000, run };
}

/**
 * The server process only enqueues (FORECAST_WORK_IN_SERVER=false); one, then two `npm run worker`
 * processes take the chunks. On one 2-core machine the workers share the cores with each other
 * and with PostgreSQL, so the speed-up shows what the queue costs and overlaps (one worker's
 * database writes with the other's fitting); on separate machines each worker brings its cores.
 */
export async function runForecastQueueBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable(BENCH_POSTGRES_URL))) return [];
  const server = await startBenchServer('postgres', { products: PRODUCTS, weeks: WEEKS }, undefined, {
    env: { FORECAST_WORK_IN_SERVER: 'false' },
  });
  const rows: BenchRow[] = [];
  try {
    const { rows: found } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      server.database.db,
    );
    const schema = found[0]!.schema;
    let oneWorker = Number.NaN;
    for (const count of WORKER_COUNTS) {
      const workers = await Promise.all(Array.from({ length: count }, () => startWorker(schema)));
      try {
        const timings: number[] = [];
        let last: ForecastRun | undefined;
        for (let i = 0; i < RUNS; i++) {
          const { seconds, run } = await timeRun(server);
          timings.push(seconds * 1000);
          last = run;
        }
        const p50 = percentile(timings, 50);
        if (count === 1) oneWorker = p50;
        rows.push({
          workers: count,
          products: last!.totalProducts,
          'records written': last!.updatedRecords,
          runs: RUNS,
          p50: ms(p50),
          p95: ms(percentile(timings, 95)),
          'speed-up vs one worker': (oneWorker / p50).toFixed(2),
        });
      } finally {
        await Promise.all(workers.map(stopWorker));
      }
    }
  } finally {
    await server.close();
  }
  return rows;
}
