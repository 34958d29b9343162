import type { ServerModule } from '../../lib/server-module';
import { createNotifier } from '../notifications';
import { ForecastRunService } from './forecast-run.service';
import { registerForecastRunRoutes } from './forecast-runs.routes';

export const forecastRunsModule: ServerModule = {
  name: 'forecast-runs',
  register: async (app, { config, database, log }) => {
    const notifier = createNotifier(database.db, config, log);
    const service = new ForecastRunService(database.db, log, database.kind, notifier);
    // A run left 'running' by a stopped server is marked failed before anyone can start a new one.
    await service.recoverInterruptedRuns();
    registerForecastRunRoutes(app, service);
  },
};
