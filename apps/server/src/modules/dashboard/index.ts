import type { ServerModule } from '../../lib/server-module';
import { DashboardService } from './dashboard.service';
import { registerDashboardRoutes } from './dashboard.routes';

export const dashboardModule: ServerModule = {
  name: 'dashboard',
  register: (app, { database, clock }) =>
    registerDashboardRoutes(app, new DashboardService(database.db, () => clock.now())),
};
