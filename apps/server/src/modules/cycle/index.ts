import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ModuleContext, ServerModule } from '../../lib/server-module';
import { forecastRunService } from '../forecast-runs';
import { createNotifier } from '../notifications';
import type { ActualsLoader } from './cycle-feed';
import { openQueueScheduler, timerScheduler } from './cycle-scheduler';
import { cycleSteps, type HorizonRoller } from './cycle-steps';
import { registerCycleRoutes } from './cycle.routes';
import { clockHorizonRoller, salesHistoryLoader } from './cycle-wiring';
import { CycleService } from './cycle.service';

export type { ActualsLoader, LoadCounts } from './cycle-feed';
export type { HorizonRoller } from './cycle-steps';

/**
 * What the cycle's first two steps call, built when the module registers (so a module registered
 * before this one, the bulk loads, can be reached through `app`). The actuals feed loads each file
 * with `actualsLoader` (default: a sales-history bulk load); the horizon step calls
 * `horizonRoller` (default: the rolling horizon on the server's clock). Tests replace them.
 */
export type CycleWiring = {
  actualsLoader?: (app: FastifyInstance, context: ModuleContext) => ActualsLoader;
  horizonRoller?: (app: FastifyInstance, context: ModuleContext) => HorizonRoller;
};

export function createCycleModule(wiring: CycleWiring = {}): ServerModule {
  return {
    name: 'cycle',
    register: async (app, context) => {
      const { config, database, log } = context;
      const notifier = createNotifier(database.db, config, log);
      // Today for the schedule's next run, the PGlite timer and the snapshot's week.
      const now = () => context.clock.now();
      const forecastRuns = forecastRunService(app);
      if (!forecastRuns) throw new Error('The cycle module registers after the forecast-runs module');
      const steps = cycleSteps({
        db: database.db,
        log,
        notifier,
        forecastRuns,
        feed: {
          dir: config.CYCLE_FEED_DIR,
          load: wiring.actualsLoader?.(app, context) ?? salesHistoryLoader(app),
        },
        rollHorizon: wiring.horizonRoller?.(app, context) ?? clockHorizonRoller(context),
        now,
        mail: config.SMTP_URL ? { smtpUrl: config.SMTP_URL, from: config.SMTP_FROM } : undefined,
      });
      const service = new CycleService(database.db, {
        databaseKind: database.kind,
        log,
        notifier,
        steps,
        feedDir: config.CYCLE_FEED_DIR,
        now,
      });
      // A run left 'running' by a stopped server is marked failed before anyone can start a new one.
      await service.recoverInterruptedRuns();
      const fire = async () => {
        await service.runScheduled();
      };
      service.useScheduler(
        database.kind === 'postgres'
          ? await openQueueScheduler(database.db, log, fire)
          : timerScheduler(fire, log, now),
      );
      // The saved schedule is (re)applied at start: the timer lives in this process only.
      if (database.kind === 'pglite') await service.applySchedule();
      app.addHook('onClose', () => service.stop());
      // Encapsulated: only the feed's push accepts multipart bodies.
      await app.register(async (scope) => {
        await scope.register(multipart, {
          limits: { files: 1, fileSize: config.IMPORT_MAX_BYTES, fields: 4, parts: 5, fieldSize: 1024 },
        });
        registerCycleRoutes(scope, service, config.IMPORT_MAX_BYTES);
      });
    },
  };
}

export const cycleModule = createCycleModule();
