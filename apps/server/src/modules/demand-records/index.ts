import type { ServerModule } from '../../lib/server-module';
import { DemandRecordService } from './demand-record.service';
import { registerDemandRecordRoutes } from './demand-records.routes';

export const demandRecordsModule: ServerModule = {
  name: 'demand-records',
  register: (app, { database }) => registerDemandRecordRoutes(app, new DemandRecordService(database.db)),
};
