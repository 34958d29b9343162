import type { ServerModule } from '../../lib/server-module';
import { registerHealthRoutes } from './health.routes';

export const healthModule: ServerModule = {
  name: 'health',
  register: (app, { database }) => registerHealthRoutes(app, database),
};
