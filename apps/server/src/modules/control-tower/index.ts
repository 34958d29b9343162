import type { AccuracyReport, ClientId, ExceptionRow } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import type { ServerModule } from '../../lib/server-module';
import type { Notifier } from '../notifications';
import { carryMarketingPlans, writeSnapshots } from './control-tower.repository';
import { registerControlTowerRoutes } from './control-tower.routes';
import { ControlTowerService } from './control-tower.service';

export const controlTowerModule: ServerModule = {
  name: 'control-tower',
  register: (app, { database, clock }) =>
    registerControlTowerRoutes(app, new ControlTowerService(database.db, () => clock.now())),
};

/**
 * Keeps what the plan says about the coming weeks for the clients' products:
 * forecast runs call it when they finish, a publish inside its transaction. The snapshot is
 * of `week` (the clock's current week, its Sunday as yyyy-mm-dd); a second snapshot in the same week
 * replaces the first.
 */
export function snapshotForecasts(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  source: 'forecast' | 'publish',
  week: string,
): Promise<number> {
  return writeSnapshots(db, clientIds, week, source);
}

/** A new cycle starts from the latest marketing plan until marketing sends another. */
export function startMarketingCycle(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  cycle: string,
): Promise<void> {
  return carryMarketingPlans(db, clientIds, cycle);
}

/**
 * The Forecast Accuracy screen's report at one lag for the caller's clients: the same figures and
 * formulas (docs/metrics.md "Forecast accuracy"), for other modules that answer with them (the AI
 * assistant). `now` decides the current week, as the screen's clock does.
 */
export function forecastAccuracyReport(
  db: Kysely<Database>,
  scope: AccessScope,
  lag: number,
  now: Date,
): Promise<AccuracyReport> {
  return new ControlTowerService(db, () => now).accuracy(scope, undefined, lag);
}

/** The exception queue at one lag for the caller's clients, ranked (the Alerts screen's list). */
export function exceptionQueue(
  db: Kysely<Database>,
  scope: AccessScope,
  lag: number,
  now: Date,
): Promise<ExceptionRow[]> {
  return new ControlTowerService(db, () => now).exceptions(scope, undefined, lag);
}

/**
 * After a forecast run or a publish: tells each client's users how many items entered its
 * exception queue since the previous check (docs/metrics.md "New exceptions"). Never fails the
 * work that called it: a failed check is logged.
 */
export async function notifyNewExceptions(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  notifier: Notifier,
): Promise<void> {
  let fresh: Map<ClientId, number>;
  try {
    fresh = await new ControlTowerService(db).newExceptions(clientIds);
  } catch (error) {
    notifier.log.error({ err: error }, 'New exceptions not checked');
    return;
  }
  for (const [clientId, count] of fresh) {
    if (count > 0)
      await notifier.notify({
        recipients: { clientIds: [clientId] },
        kind: 'exceptions-found',
        content: { count },
      });
  }
}

/**
 * The planning cycle's exception-queue step: each client's queue is checked again, its new items
 * told to the client's users, and the totals answered. Unlike `notifyNewExceptions` a failed
 * check fails the caller, so the cycle stops on it.
 */
export async function refreshExceptionQueues(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  notifier: Notifier,
): Promise<{ items: number; fresh: number }> {
  const queues = await new ControlTowerService(db).refreshQueues(clientIds);
  let items = 0;
  let fresh = 0;
  for (const [clientId, queue] of queues) {
    items += queue.items;
    fresh += queue.fresh;
    if (queue.fresh > 0)
      await notifier.notify({
        recipients: { clientIds: [clientId] },
        kind: 'exceptions-found',
        content: { count: queue.fresh },
      });
  }
  return { items, fresh };
}

/** Takes each client's exception queue as seen, so only later items count as new (the demo seed). */
export async function markExceptionsSeen(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<void> {
  await new ControlTowerService(db).newExceptions(clientIds);
}
