import multipart from '@fastify/multipart';
import type { ServerModule } from '../../lib/server-module';
import { createNotifier } from '../notifications';
import { ImportService } from './imports.service';
import { registerImportRoutes } from './imports.routes';
import { SpreadsheetParser } from './spreadsheet-parser';

/** An .xlsx may unpack to this many times the upload limit (text XML compresses about 10:1). */
const UNPACKED_RATIO = 10;

export const importsModule: ServerModule = {
  name: 'imports',
  register: async (app, { config, database, log, clock }) => {
    const parser = new SpreadsheetParser({
      maxRows: config.IMPORT_MAX_ROWS,
      maxUnpackedBytes: config.IMPORT_MAX_BYTES * UNPACKED_RATIO,
    });
    // Encapsulated: only the import routes accept multipart bodies.
    await app.register(async (scope) => {
      await scope.register(multipart, {
        limits: { files: 1, fileSize: config.IMPORT_MAX_BYTES, fields: 10, parts: 12, fieldSize: 1024 },
      });
      const service = new ImportService(database.db, parser, {
        databaseKind: database.kind,
        log,
        notifier: createNotifier(database.db, config, log),
        clock,
        sliceRows: config.IMPORT_SLICE_ROWS,
      });
      // An import left running by a stopped server is marked failed before anyone polls it.
      await service.recoverInterruptedImports();
      app.addHook('onClose', () => service.drain());
      registerImportRoutes(scope, service, config.IMPORT_MAX_BYTES);
    });
  },
};

/** The .xlsx readers other modules reuse (the admin's bulk data loads read workbooks with them). */
export { xlsxSheets, type XlsxSheet } from './xlsx-sheets';
export { zipProblem } from './zip-guard';
