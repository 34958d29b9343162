import { parentPort } from 'node:worker_threads';
import { forecastSeries, type ForecastOptions, type SeriesForecast } from './forecast-series';
import type { GbmModel } from './global/gbm';
import { trainGlobalStep, type ExternalMember, type GlobalMemberTuning } from './global/global-member';

/**
 * Work a thread does: forecast a chunk of series (with the global member's paths, when there are
 * any), or train some horizon steps of the global member on every series of a run.
 */
export type WorkerTask =
  | {
      kind: 'forecast';
      series: number[][];
      options: ForecastOptions;
      external: (ExternalMember | null)[] | null;
    }
  | {
      kind: 'train-global';
      series: number[][];
      steps: number[];
      horizon: number;
      tuning: GlobalMemberTuning;
    };

export type WorkerResult = SeriesForecast[] | { step: number; model: GbmModel }[];

/** Messages between the pool and a worker: a task in, its result out. */
export type WorkerRequest = { chunk: number; task: WorkerTask };
export type WorkerResponse = { chunk: number; result: WorkerResult } | { chunk: number; error: string };

export function runTask(task: WorkerTask): WorkerResult {
  switch (task.kind) {
    case 'forecast':
      return task.series.map((values, i) => forecastSeries(values, task.options, task.external?.[i] ?? null));
    case 'train-global':
      return task.steps.map((step) => ({
        step,
        model: trainGlobalStep(task.series, step, task.horizon, task.tuning),
      }));
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    parentPort?.postMessage({ chunk: request.chunk, result: runTask(request.task) } satisfies WorkerResponse);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ chunk: request.chunk, error: message } satisfies WorkerResponse);
  }
});
