import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import { isDatabaseReachable } from '../../db/database';
import { APP_VERSION } from '../../lib/version';

/** GET /health and GET /api/demand-planning/health: 200 when the database answers, else 503. */
export function registerHealthRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  const handler = async (_request: unknown, reply: { code: (status: number) => unknown }) => {
    const isUp = await isDatabaseReachable(database.db);
    reply.code(isUp ? 200 : 503);
    return {
      success: isUp,
      data: {
        status: isUp ? 'ok' : 'degraded',
        database: { status: isUp ? 'up' : 'down', kind: database.kind },
        version: APP_VERSION,
        uptimeSeconds: Math.round(process.uptime()),
      },
      error: isUp ? null : 'Database unreachable',
    };
  };
  app.get('/health', handler);
  app.get('/api/demand-planning/health', handler);
}
