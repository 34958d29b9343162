import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import type { Clock } from './clock';

/** What every module gets from the app when it registers. */
export type ModuleContext = {
  config: AppConfig;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Today and the current week, for every service that means them (lib/clock.ts). */
  clock: Clock;
};

/**
 * One capability of the server (planning grid, forecast runs, …): a folder under `modules/` whose
 * `index.ts` exports one of these. The app registers the list in `app.ts`; a new module is one
 * folder and one line there.
 */
export type ServerModule = {
  name: string;
  register: (app: FastifyInstance, context: ModuleContext) => Promise<void> | void;
};
