import type { ServerModule } from '../../lib/server-module';
import { registerLiveUpdateRoutes } from './live-updates.routes';
import { RecordChangeHub } from './record-change-hub';

/** Live updates of the grid: record writes as server-sent events. */
export const liveUpdatesModule: ServerModule = {
  name: 'live-updates',
  register: async (app, { database, log }) => {
    const hub = new RecordChangeHub(database, log);
    await hub.start();
    registerLiveUpdateRoutes(app, hub);
  },
};
