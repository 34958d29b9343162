import type { ServerModule } from '../../lib/server-module';
import { PlanningGridService } from './planning-grid.service';
import { registerPlanningGridRoutes } from './planning-grid.routes';

export { PlanningGridService, type GridSlice } from './planning-grid.service';
export { groupName, periodKey, productFilter, type GridFilters } from './planning-grid.sql';

export const planningGridModule: ServerModule = {
  name: 'planning-grid',
  register: (app, { database }) => registerPlanningGridRoutes(app, new PlanningGridService(database.db)),
};
