import { loadOrCreateSecret } from '../../db/app-secrets';
import type { ServerModule } from '../../lib/server-module';
import { DemandRecordSpreadService } from './demand-record-spread.service';
import { DemandRecordService } from './demand-record.service';
import { registerDemandRecordRoutes } from './demand-records.routes';
import { PAGE_TOKEN_SECRET, PageTokens } from './page-token';

export const demandRecordsModule: ServerModule = {
  name: 'demand-records',
  register: async (app, { database }) => {
    const pageTokens = new PageTokens(await loadOrCreateSecret(database.db, PAGE_TOKEN_SECRET));
    registerDemandRecordRoutes(
      app,
      new DemandRecordService(database.db, pageTokens),
      new DemandRecordSpreadService(database.db),
    );
  },
};
