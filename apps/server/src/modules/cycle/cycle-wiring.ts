import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../lib/server-module';
import { dataLoadService } from '../data-loads';
import { rollHorizon } from '../horizon';
import type { ActualsLoader } from './cycle-feed';
import type { HorizonRoller } from './cycle-steps';

/** Refusals named in a failed feed step's message; the load log holds them all. */
const REFUSALS_SHOWN = 5;

/**
 * The actuals feed loads each file as a sales-history bulk load (modules/data-loads): all or
 * nothing, so a refused file throws having written nothing, and the cycle stops on it.
 */
export function salesHistoryLoader(app: FastifyInstance): ActualsLoader {
  return async ({ path, fileName, scope }) => {
    const loads = dataLoadService(app);
    if (!loads) throw new Error('The cycle module registers after the data-loads module');
    const { done } = await loads.load({
      entity: 'sales-history',
      fileName,
      stream: createReadStream(path),
      dryRun: false,
      user: scope,
    });
    const finished = await done;
    if (finished.status !== 'succeeded') {
      const reasons = finished.refusals
        .slice(0, REFUSALS_SHOWN)
        .map((r) => `row ${r.row} ${r.field}: ${r.reason}`)
        .join('; ');
      throw new Error(`${finished.error ?? reasons} (data load ${finished.id})`);
    }
    return { ...(finished.counts ?? {}) };
  };
}

/** The cycle's horizon step rolls the plan to the clock's week (idempotent, any process). */
export function clockHorizonRoller(context: ModuleContext): HorizonRoller {
  return async ({ reportProgress }) => {
    const outcome = await rollHorizon(context.database.db, context.clock, {
      horizonWeeks: context.config.PLAN_HORIZON_WEEKS,
      log: context.log,
      onProgress: ({ doneProducts, totalProducts }) =>
        reportProgress(totalProducts === 0 ? 100 : Math.floor((100 * doneProducts) / totalProducts)),
    });
    return outcome.rolled
      ? {
          counts: { records: outcome.recordsAdded },
          message: `Weeks ${outcome.firstWeek} to ${outcome.lastWeek}`,
        }
      : { counts: { records: 0 }, message: outcome.reason };
  };
}
