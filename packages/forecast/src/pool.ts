import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEFAULT_TUNING, forecastSeries, type ForecastOptions, type SeriesForecast } from './forecast-series';
import type { WorkerRequest, WorkerResponse, WorkerResult, WorkerTask } from './forecast-worker';
import type { GbmModel } from './global/gbm';
import {
  canTrainGlobal,
  globalInputs,
  globalMemberPaths,
  trainGlobal,
  type ExternalMember,
  type GlobalMemberTuning,
  type GlobalModels,
} from './global/global-member';

export type BatchOptions = ForecastOptions & {
  /** Worker threads; defaults to the number of cores. */
  concurrency?: number;
  /** Series per message: large enough to amortise messaging, small enough to balance the load. */
  chunkSize?: number;
  /** Called after each finished chunk with the number of series done so far. */
  onProgress?: (done: number, total: number) => void;
  /**
   * The global member trained beforehand on a larger set these series belong to (a forecast
   * run's products, `trainGlobalMember`), with one model per step of `horizon`: it is used
   * instead of training one on these series alone.
   */
  globalModels?: GlobalModels;
};

const DEFAULT_CHUNK_SIZE = 32;

/**
 * Forecasts many series in this thread (for small batches and tests). With `globalMember` set,
 * the global member is trained here on all of them first.
 */
export function forecastBatch(
  series: readonly (readonly number[])[],
  options: ForecastOptions,
): SeriesForecast[] {
  const tuning = globalTuning(series, options);
  const models = tuning
    ? trainGlobal(globalInputs(series, options.horizon, tuning), options.horizon, tuning)
    : null;
  return series.map((values) =>
    forecastSeries(values, options, models ? globalMemberPaths(values, models) : null),
  );
}

/** The global member's tuning when it is on and the batch has enough series to train it. */
function globalTuning(
  series: readonly (readonly number[])[],
  options: ForecastOptions,
): GlobalMemberTuning | null {
  // Spread like forecastSeries does: an explicit null turns the member off.
  const tuning = { ...DEFAULT_TUNING, ...options.tuning }.globalMember;
  return tuning && canTrainGlobal(series, options.horizon, tuning) ? tuning : null;
}

/**
 * Forecasts many series on a pool of worker threads and returns the results in input order.
 * With the global member on, its step models are first trained on the threads (the steps dealt
 * out round-robin, each with its own seed, so the result does not depend on the thread count),
 * then each chunk gets its series' member paths. Chunks are handed out as workers become free,
 * so long series do not hold up a whole share.
 */
export async function forecastMany(
  series: readonly (readonly number[])[],
  options: BatchOptions,
): Promise<SeriesForecast[]> {
  const {
    concurrency,
    chunkSize = DEFAULT_CHUNK_SIZE,
    onProgress,
    globalModels,
    ...forecastOptions
  } = options;
  const total = series.length;
  if (total === 0) return [];
  const threads = Math.max(1, concurrency ?? availableParallelism());
  if (globalModels && globalModels.length !== forecastOptions.horizon)
    throw new Error(
      `The global member has ${globalModels.length} step models for a horizon of ${forecastOptions.horizon}`,
    );

  let external: (ExternalMember | null)[] | null = null;
  const tuning = globalModels ? null : globalTuning(series, forecastOptions);
  const models =
    globalModels ?? (tuning && (await trainGlobalMany(series, forecastOptions.horizon, tuning, { threads })));
  if (models) external = series.map((values) => globalMemberPaths(values, models));

  const tasks: WorkerTask[] = [];
  for (let start = 0; start < total; start += chunkSize) {
    tasks.push({
      kind: 'forecast',
      series: series.slice(start, start + chunkSize).map((values) => [...values]),
      options: forecastOptions,
      external: external ? external.slice(start, start + chunkSize) : null,
    });
  }
  let done = 0;
  const results = (await runOnWorkers(tasks, threads, (result) => {
    done += result.length;
    onProgress?.(done, total);
  })) as SeriesForecast[][];
  return results.flat();
}

/**
 * Trains the global member's step models on worker threads, one step per task handed to the next
 * free thread; each step has its own seed, so the models do not depend on the thread count.
 * `onProgress` hears the number of steps trained so far.
 */
export async function trainGlobalMany(
  series: readonly (readonly number[])[],
  horizon: number,
  tuning: GlobalMemberTuning,
  options: { threads?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<GlobalModels> {
  const inputs = globalInputs(series, horizon, tuning);
  const threads = Math.max(1, options.threads ?? availableParallelism());
  let done = 0;
  const trained = (await runOnWorkers(
    Array.from({ length: horizon }, (_, j): WorkerTask => ({
      kind: 'train-global',
      series: inputs,
      steps: [j + 1],
      horizon,
      tuning,
    })),
    threads,
    () => options.onProgress?.(++done, horizon),
  )) as { step: number; model: GbmModel }[][];
  return trained.flat().map((t) => t.model);
}

/**
 * Trains the global member once for a set of series that is then forecast in several calls (a
 * forecast run's products, chunk by chunk): pass the result to each call as `globalModels`.
 * Null when the member is off or too few series have the history to train it.
 */
export async function trainGlobalMember(
  series: readonly (readonly number[])[],
  options: Pick<BatchOptions, 'horizon' | 'seasonLength' | 'tuning' | 'concurrency' | 'onProgress'>,
): Promise<GlobalModels | null> {
  const tuning = globalTuning(series, options);
  if (!tuning) return null;
  return trainGlobalMany(series, options.horizon, tuning, {
    threads: options.concurrency,
    onProgress: options.onProgress,
  });
}

/**
 * Runs tasks on up to `threads` worker threads, handing the next task to the first free thread;
 * results come back in task order.
 */
async function runOnWorkers(
  tasks: readonly WorkerTask[],
  threads: number,
  onResult?: (result: WorkerResult) => void,
): Promise<WorkerResult[]> {
  const results: WorkerResult[] = new Array<WorkerResult>(tasks.length);
  const workerCount = Math.max(1, Math.min(threads, tasks.length));
  if (tasks.length === 0) return [];

  let nextTask = 0;
  const workers = Array.from({ length: workerCount }, takeWorker);
  let succeeded = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let finished = 0;
      const dispatch = (worker: Worker): void => {
        if (nextTask >= tasks.length) return;
        const chunk = nextTask++;
        worker.postMessage({ chunk, task: tasks[chunk]! } satisfies WorkerRequest);
      };
      for (const worker of workers) {
        worker.on('message', (response: WorkerResponse) => {
          if ('error' in response) {
            reject(new Error(`Forecast worker failed on chunk ${response.chunk}: ${response.error}`));
            return;
          }
          results[response.chunk] = response.result;
          finished++;
          onResult?.(response.result);
          if (finished === tasks.length) resolve();
          else dispatch(worker);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (finished < tasks.length) reject(new Error(`Forecast worker exited with code ${code}`));
        });
        dispatch(worker);
      }
    });
    succeeded = true;
  } finally {
    // A worker that failed or still holds a task is not reused.
    if (succeeded) workers.forEach(keepIdle);
    else await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
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
