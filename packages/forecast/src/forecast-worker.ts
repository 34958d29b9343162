import { parentPort } from 'node:worker_threads';
import { forecastSeries, type ForecastOptions, type SeriesForecast } from './forecast-series';

/** Messages between the pool and a worker: a chunk of series in, their forecasts out. */
export type WorkerRequest = { chunk: number; series: number[][]; options: ForecastOptions };
export type WorkerResponse =
  { chunk: number; forecasts: SeriesForecast[] } | { chunk: number; error: string };

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    const forecasts = request.series.map((values) => forecastSeries(values, request.options));
    parentPort?.postMessage({ chunk: request.chunk, forecasts } satisfies WorkerResponse);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    parentPort?.postMessage({ chunk: request.chunk, error: message } satisfies WorkerResponse);
  }
});
