import type { AppConfig } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import { clockFromConfig, type Clock } from '../../lib/clock';
import type { Notifier } from '../notifications';
import { ForecastQueue } from './forecast-queue';
import { ForecastRunService } from './forecast-run.service';

/**
 * The forecast-run service as a server process or a worker process opens it: on PostgreSQL with
 * the job queue (started, not yet worked), on the embedded database without one.
 */
export async function openForecastRuns(
  database: DatabaseHandle,
  config: AppConfig,
  log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void },
  notifier?: Notifier,
  clock: Clock = clockFromConfig(config),
): Promise<{ service: ForecastRunService; queue: ForecastQueue | undefined }> {
  const queue =
    database.kind === 'postgres'
      ? await ForecastQueue.open(
          database.db,
          { chunkTimeoutSeconds: config.FORECAST_CHUNK_TIMEOUT_SECONDS },
          log,
        )
      : undefined;
  const service = new ForecastRunService(database.db, log, database.kind, notifier, {
    queue,
    chunkProducts: config.FORECAST_CHUNK_PRODUCTS,
    sliceProducts: config.FORECAST_SLICE_PRODUCTS,
    clock,
  });
  return { service, queue };
}
