import type { BatchUpdate } from '@ps/domain';
import type { Kysely } from 'kysely';
import { loadOrCreateSecret } from '../../db/app-secrets';
import type { Database } from '../../db/schema';
import type { AccessScope } from '../../lib/access';
import type { ServerModule } from '../../lib/server-module';
import { createNotifier } from '../notifications';
import { planClockOf } from '../planning-grid';
import { DemandRecordSpreadService } from './demand-record-spread.service';
import { DemandRecordService } from './demand-record.service';
import { registerDemandRecordRoutes } from './demand-records.routes';
import { PAGE_TOKEN_SECRET, PageTokens } from './page-token';

/** The admin's planning policy, which every writer of overrides (imports too) follows. */
export { readPlanningPolicy } from './planning-policy.repository';

export const demandRecordsModule: ServerModule = {
  name: 'demand-records',
  register: async (app, { config, database, log, clock }) => {
    const pageTokens = new PageTokens(await loadOrCreateSecret(database.db, PAGE_TOKEN_SECRET));
    registerDemandRecordRoutes(
      app,
      new DemandRecordService(database.db, pageTokens, createNotifier(database.db, config, log)),
      new DemandRecordSpreadService(database.db, planClockOf(clock, config.PLAN_HORIZON_WEEKS)),
    );
  },
};

/** Save Changes for other modules: the same audited, versioned, all-or-nothing batch save. */
export type DemandRecordBatchSave = (
  scope: AccessScope,
  batch: BatchUpdate,
) => Promise<{ updatedRecords: number; changedFields: number }>;

export async function demandRecordBatchSave(db: Kysely<Database>): Promise<DemandRecordBatchSave> {
  const service = new DemandRecordService(
    db,
    new PageTokens(await loadOrCreateSecret(db, PAGE_TOKEN_SECRET)),
  );
  return async (scope, batch) => {
    const { updatedRecords, changedFields } = await service.batchUpdate(scope, batch);
    return { updatedRecords, changedFields };
  };
}
