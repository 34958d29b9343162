import type { ServerModule } from '../../lib/server-module';
import { createNotifier } from '../notifications';
import { ConsensusPlanService } from './consensus-plan.service';
import { PlanCycleService } from './plan-cycle.service';
import { registerPlanCycleRoutes } from './plan-cycles.routes';

export { keepLatestFiguresFromP1 } from './published-plan.repository';

export const planCyclesModule: ServerModule = {
  name: 'plan-cycles',
  register: (app, { config, database, log, clock }) =>
    registerPlanCycleRoutes(
      app,
      new PlanCycleService(database.db, () => clock.now(), createNotifier(database.db, config, log)),
      new ConsensusPlanService(database.db, () => clock.now()),
      clock,
    ),
};
