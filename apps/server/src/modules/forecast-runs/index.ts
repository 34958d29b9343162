import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../lib/server-module';
import type { ForecastRunService } from './forecast-run.service';
import { createNotifier } from '../notifications';
import { openForecastRuns } from './forecast-runs.setup';
import { registerForecastRunRoutes } from './forecast-runs.routes';

/**
 * Each app's forecast-run service, for modules registered after this one (the planning cycle). One
 * service per process matters on the embedded database: a service takes any run it did not start
 * itself for one a stopped server left behind.
 */
const services = new WeakMap<FastifyInstance, ForecastRunService>();

export function forecastRunService(app: FastifyInstance): ForecastRunService | undefined {
  return services.get(app);
}

export const forecastRunsModule: ServerModule = {
  name: 'forecast-runs',
  register: async (app, { config, database, log, clock }) => {
    const notifier = createNotifier(database.db, config, log);
    const { service, queue } = await openForecastRuns(database, config, log, notifier, clock);
    // A run left 'running' by a stopped server is marked failed before anyone can start a new one.
    await service.recoverInterruptedRuns();
    if (queue && config.FORECAST_WORK_IN_SERVER) await service.work();
    if (queue) app.addHook('onClose', () => queue.stop());
    registerForecastRunRoutes(app, service);
    services.set(app, service);
  },
};

export type { ForecastRunService } from './forecast-run.service';
export { ForecastQueue } from './forecast-queue';
export { currentSchema, queueStatementRunner } from './forecast-run.repository';
