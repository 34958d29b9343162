import type { ServerModule } from '../../lib/server-module';
import { PlanningGridService } from '../planning-grid';
import { ExportService } from './export.service';
import { registerExportRoutes } from './export.routes';

export const exportsModule: ServerModule = {
  name: 'exports',
  register: (app, { database, clock }) =>
    registerExportRoutes(app, new ExportService(database.db, new PlanningGridService(database.db)), clock),
};
