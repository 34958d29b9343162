import type { ServerModule } from '../../lib/server-module';
import { PlanCycleService } from './plan-cycle.service';
import { registerPlanCycleRoutes } from './plan-cycles.routes';

export const planCyclesModule: ServerModule = {
  name: 'plan-cycles',
  register: (app, { database }) => registerPlanCycleRoutes(app, new PlanCycleService(database.db)),
};
