import type { ServerModule } from '../../lib/server-module';
import { PlanningGridService, planClockOf } from '../planning-grid';
import { ExportService } from './export.service';
import { registerExportRoutes } from './export.routes';

export const exportsModule: ServerModule = {
  name: 'exports',
  register: (app, { config, database, clock }) => {
    const grid = new PlanningGridService(database.db, planClockOf(clock, config.PLAN_HORIZON_WEEKS));
    registerExportRoutes(app, new ExportService(database.db, grid), clock);
  },
};

// The pieces another module's downloads are written with.
export { sendStreamed } from './export.routes';
export { csvCell, csvLine } from './export-csv';
export { TEXT_FORMAT, HEADER_ARGB } from './export-xlsx';
export { XlsxStreamWriter, type XlsxValue } from './xlsx-writer';
