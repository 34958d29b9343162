import type { ServerModule } from '../../lib/server-module';
import { registerClockRoutes } from './clock.routes';
import { HorizonRoller } from './horizon.service';

export {
  horizonWeeksOf,
  rollHorizon,
  type RollOptions,
  type RollOutcome,
  type RollProgress,
} from './horizon.service';

/**
 * The rolling plan horizon and the server's clock as the web app reads it. With
 * HORIZON_ROLL_IN_SERVER this process rolls the plan at start and whenever the week changes.
 */
export const horizonModule: ServerModule = {
  name: 'horizon',
  register: (app, { config, database, log, clock }) => {
    const roller = new HorizonRoller(database.db, clock, { horizonWeeks: config.PLAN_HORIZON_WEEKS, log });
    registerClockRoutes(app, clock, roller);
    if (config.HORIZON_ROLL_IN_SERVER) {
      // In the background once the app is ready: a roll never holds up the start or a request.
      app.addHook('onReady', async () => roller.start(config.HORIZON_CHECK_MS));
      app.addHook('onClose', () => roller.stop());
    }
  },
};
