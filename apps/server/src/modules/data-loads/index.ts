import multipart from '@fastify/multipart';
import type { ServerModule } from '../../lib/server-module';
import { DataLoadService } from './data-loads.service';
import { registerDataLoadRoutes } from './data-loads.routes';

export { DataLoadService, type DataLoadRequest } from './data-loads.service';

/**
 * Admin bulk data loads. Other modules (the scheduled cycle's actuals feed) load a file through
 * `dataLoadService(app)` → DataLoadService.load({ entity, fileName, bytes | stream, dryRun, user }).
 */
const services = new WeakMap<object, DataLoadService>();
export const dataLoadService = (app: object): DataLoadService | undefined => services.get(app);

export const dataLoadsModule: ServerModule = {
  name: 'data-loads',
  register: async (app, { config, database, log, clock }) => {
    const service = new DataLoadService(database.db, {
      databaseKind: database.kind,
      maxBytes: config.DATA_LOAD_MAX_BYTES,
      log,
      today: () => clock.now(),
    });
    services.set(app, service);
    await service.recoverInterruptedLoads();
    app.addHook('onClose', () => service.drain());
    await app.register(async (scope) => {
      await scope.register(multipart, {
        limits: { files: 1, fileSize: config.DATA_LOAD_MAX_BYTES, fields: 10, parts: 12, fieldSize: 1024 },
      });
      registerDataLoadRoutes(scope, service, config.DATA_LOAD_MAX_BYTES);
    });
  },
};
