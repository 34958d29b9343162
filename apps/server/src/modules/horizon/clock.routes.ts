import { clockEndpoints, toIsoDate } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { currentWeekOf, todayOf, type Clock } from '../../lib/clock';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { HorizonRoller } from './horizon.service';

/** GET /api/clock: the web app takes today and the current week from here, as the server does. */
export function registerClockRoutes(app: FastifyInstance, clock: Clock, roller: HorizonRoller): void {
  serveEndpoint(app, clockEndpoints.clock, async () => {
    const status = await roller.status();
    return {
      today: todayOf(clock),
      currentWeek: toIsoDate(currentWeekOf(clock)),
      horizon: {
        weeks: status.horizonWeeks,
        lastRolledWeek: status.lastRolledWeek,
        rolledAt: status.rolledAt,
        recordsAdded: status.recordsAdded,
        rolling: status.rolling,
      },
    };
  });
}
