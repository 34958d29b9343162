import type { ServerModule } from '../../lib/server-module';
import { NetworkService } from './network.service';
import { OptimisationRunService } from './optimisation-run.service';
import { registerOptimisationRoutes } from './optimisation.routes';
import { solveOnWorker } from './solver-thread';

export const optimisationModule: ServerModule = {
  name: 'optimisation',
  register: async (app, { database, log, clock }) => {
    const runs = new OptimisationRunService(database.db, solveOnWorker, log, database.kind, clock);
    // A run left 'running' by a stopped server would show progress forever: mark it failed.
    await runs.recoverAbandonedRuns();
    registerOptimisationRoutes(app, new NetworkService(database.db), runs);
  },
};
