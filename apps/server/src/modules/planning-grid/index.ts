import type { ServerModule } from '../../lib/server-module';
import { PlanningGridService } from './planning-grid.service';
import { registerPlanningGridRoutes } from './planning-grid.routes';
import { TimePhasedService } from './time-phased.service';

export { PlanningGridService, type GridSlice } from './planning-grid.service';
export { groupName, periodKey, productFilter, type GridFilters } from './planning-grid.sql';

export const planningGridModule: ServerModule = {
  name: 'planning-grid',
  register: (app, { database }) => {
    const grid = new PlanningGridService(database.db);
    registerPlanningGridRoutes(app, grid, new TimePhasedService(database.db, grid));
  },
};
