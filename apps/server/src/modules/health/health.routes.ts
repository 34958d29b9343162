import { healthEndpoints, type Health } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import { isDatabaseReachable } from '../../db/database';
import { endpointRoute } from '../../lib/endpoint-route';
import { APP_VERSION } from '../../lib/version';

/** GET /health and GET /api/demand-planning/health: 200 when the database answers, else 503. */
export function registerHealthRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  for (const endpoint of [healthEndpoints.health, healthEndpoints.apiHealth]) {
    app.route({
      ...endpointRoute(endpoint),
      handler: async (_request, reply) => {
        const isUp = await isDatabaseReachable(database.db);
        reply.code(isUp ? 200 : 503);
        const data: Health = {
          status: isUp ? 'ok' : 'degraded',
          database: { status: isUp ? 'up' : 'down', kind: database.kind },
          version: APP_VERSION,
          uptimeSeconds: Math.round(process.uptime()),
        };
        return { success: isUp, data, error: isUp ? null : 'Database unreachable' };
      },
    });
  }
}
