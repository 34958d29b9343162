import { toIsoDate, weekStartSunday, type AccuracyReport, type ClientId } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import type { ServerModule } from '../../lib/server-module';
import { carryMarketingPlans, writeSnapshots } from './control-tower.repository';
import { registerControlTowerRoutes } from './control-tower.routes';
import { ControlTowerService } from './control-tower.service';

export const controlTowerModule: ServerModule = {
  name: 'control-tower',
  register: (app, { database }) => registerControlTowerRoutes(app, new ControlTowerService(database.db)),
};

/**
 * Keeps what the plan says about the coming weeks for the clients' products (issue 11 Must 2):
 * forecast runs call it when they finish, a publish inside its transaction. The snapshot is
 * of the current week (or `week`, its Sunday as yyyy-mm-dd); a second snapshot in the same week
 * replaces the first.
 */
export function snapshotForecasts(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
  source: 'forecast' | 'publish',
  week: string = toIsoDate(weekStartSunday(new Date())),
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
  now: Date = new Date(),
): Promise<AccuracyReport> {
  return new ControlTowerService(db, () => now).accuracy(scope, undefined, lag);
}
