import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../lib/envelope';
import type { DashboardService } from './dashboard.service';
import { parseInput } from '../../lib/validate';

const ZContextQuery = z.object({ clientContext: z.string().max(50).optional() });

/** Spec §7: GET /api/dashboard-metrics and GET /api/summary-stats, both {success: true, data}. */
export function registerDashboardRoutes(app: FastifyInstance, service: DashboardService): void {
  app.get('/api/dashboard-metrics', async (request) =>
    ok(await service.metrics(request.access, parseInput(ZContextQuery, request.query).clientContext)),
  );
  app.get('/api/summary-stats', async (request) =>
    ok(await service.summary(request.access, parseInput(ZContextQuery, request.query).clientContext)),
  );
}
