import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { forecastSeries, type ForecastOptions, type SeriesForecast } from './forecast-series';
import type { WorkerRequest, WorkerResponse } from './forecast-worker';

export type BatchOptions = ForecastOptions & {
  /** Worker threads; defaults to the number of cores. */
  concurrency?: number;
  /** Series per message: large enough to amortise messaging, small enough to balance the load. */
  chunkSize?: number;
  /** Called after each finished chunk with the number of series done so far. */
  onProgress?: (done: number, total: number) => void;
};

const DEFAULT_CHUNK_SIZE = 32;

/** Forecasts many series in this thread (for small batches and tests). */
export function forecastBatch(
  series: readonly (readonly number[])[],
  options: ForecastOptions,
): SeriesForecast[] {
  return series.map((values) => forecastSeries(values, options));
}

/**
 * Forecasts many series on a pool of worker threads and returns the results in input order.
 * Chunks are handed out as workers become free, so long series do not hold up a whole share.
 */
export async function forecastMany(
  series: readonly (readonly number[])[],
  options: BatchOptions,
): Promise<SeriesForecast[]> {
  const { concurrency, chunkSize = DEFAULT_CHUNK_SIZE, onProgress, ...forecastOptions } = options;
  const total = series.length;
  const chunks: number[][][] = [];
  for (let start = 0; start < total; start += chunkSize) {
    chunks.push(series.slice(start, start + chunkSize).map((values) => [...values]));
  }
  const results: SeriesForecast[][] = new Array<SeriesForecast[]>(chunks.length);
  const workerCount = Math.max(1, Math.min(concurrency ?? availableParallelism(), chunks.length));
  if (chunks.length === 0) return [];

  let nextChunk = 0;
  let done = 0;
  const workers = Array.from({ length: workerCount }, takeWorker);
  let succeeded = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let finishedChunks = 0;
      const dispatch = (worker: Worker): void => {
        if (nextChunk >= chunks.length) return;
        const chunk = nextChunk++;
        worker.postMessage({
          chunk,
          series: chunks[chunk]!,
          options: forecastOptions,
        } satisfies WorkerRequest);
      };
      for (const worker of workers) {
        worker.on('message', (response: WorkerResponse) => {
          if ('error' in response) {
            reject(new Error(`Forecast worker failed on chunk ${response.chunk}: ${response.error}`));
            return;
          }
          results[response.chunk] = response.forecasts;
          done += response.forecasts.length;
          finishedChunks++;
          onProgress?.(done, total);
          if (finishedChunks === chunks.length) resolve();
          else dispatch(worker);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (finishedChunks < chunks.length) reject(new Error(`Forecast worker exited with code ${code}`));
        });
        dispatch(worker);
      }
    });
    succeeded = true;
  } finally {
    // A worker that failed or still holds a chunk is not reused.
    if (succeeded) workers.forEach(keepIdle);
    else await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results.flat();
}

/**
 * Threads left idle by a call, for the next: starting one (tsx loading the engine) costs a few
 * hundred milliseconds, and a forecast run calls once per chunk of a few hundred products.
 * Idle threads do not keep the process alive and end after IDLE_MS without a call.
 */
const idleWorkers: Worker[] = [];
const IDLE_MS = 10_000;
let idleTimer: NodeJS.Timeout | undefined;

function takeWorker(): Worker {
  const worker = idleWorkers.pop();
  if (!worker) return startWorker();
  forgetListeners(worker);
  worker.ref();
  return worker;
}

/**
 * Drops the listeners a call added, by event name: a bare removeAllListeners() would also drop
 * Node's own 'newListener' hook that starts delivering messages, and the thread would never answer.
 */
function forgetListeners(worker: Worker): void {
  for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event);
}

function keepIdle(worker: Worker): void {
  forgetListeners(worker);
  worker.unref();
  // A thread that dies while idle must not be handed out.
  worker.once('exit', () => {
    const index = idleWorkers.indexOf(worker);
    if (index >= 0) idleWorkers.splice(index, 1);
  });
  idleWorkers.push(worker);
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    for (const idle of idleWorkers.splice(0)) void idle.terminate();
  }, IDLE_MS).unref();
}

/**
 * Starts a worker on forecast-worker.ts. On Node 20 a worker does not get the tsx loader from
 * `--import tsx` in execArgv (the ESM hooks registered by the parent do not reach it, checked on
 * 20.20), so a TypeScript entry is loaded through tsx's CommonJS register instead, which does.
 */
function startWorker(): Worker {
  const entry = new URL('./forecast-worker.ts', import.meta.url);
  const require = createRequire(import.meta.url);
  const tsxRegister = require.resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsxRegister)}).register(); require(${JSON.stringify(fileURLToPath(entry))});`;
  return new Worker(bootstrap, { eval: true });
}
