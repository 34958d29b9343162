import type { ServerModule } from '../../lib/server-module';
import { createNotifier } from '../notifications';
import { openForecastRuns } from './forecast-runs.setup';
import { registerForecastRunRoutes } from './forecast-runs.routes';

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
  },
};

export { openForecastRuns } from './forecast-runs.setup';
export type { ForecastRunService } from './forecast-run.service';
export { ForecastQueue } from './forecast-queue';
export { currentSchema, queueStatementRunner } from './forecast-run.repository';
