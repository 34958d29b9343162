import { toIsoDate, weekStartSunday, type ClientId } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
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
