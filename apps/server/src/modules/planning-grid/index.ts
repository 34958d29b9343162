import type { ServerModule } from '../../lib/server-module';
import { PlanningGridService, planClockOf } from './planning-grid.service';
import { registerPlanningGridRoutes } from './planning-grid.routes';
import { SortExtremesRefresher } from './sort-extremes-refresher';
import { TimePhasedService } from './time-phased.service';

export { PlanningGridService, cellRowOf, planClockOf, type GridSlice } from './planning-grid.service';
export { groupName, periodKey, productFilter, weekFilter, type GridFilters } from './planning-grid.sql';

export const planningGridModule: ServerModule = {
  name: 'planning-grid',
  register: (app, { config, database, log, clock }) => {
    const grid = new PlanningGridService(database.db, planClockOf(clock, config.PLAN_HORIZON_WEEKS));
    registerPlanningGridRoutes(app, grid, new TimePhasedService(database.db, grid, () => clock.now()));
    if (config.SORT_EXTREMES_REFRESH_MS > 0) {
      // Embedded, every statement waits its turn on the one connection: small batches, short passes.
      const embedded = database.kind === 'pglite';
      const refresher = new SortExtremesRefresher(database.db, {
        // A small write of a product waits for the refresh that holds it, so batches stay small.
        batch: embedded ? 16 : 50,
        passMs: embedded ? 200 : 2000,
        // A fifth of the time while planners work: their requests come first.
        busyShare: 0.2,
        log,
      });
      app.addHook('onRequest', async () => refresher.noteRequest());
      refresher.start(config.SORT_EXTREMES_REFRESH_MS);
      app.addHook('onClose', () => refresher.stop());
    }
  },
};
