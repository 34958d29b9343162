import { dashboardEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { DashboardService } from './dashboard.service';

/** Spec §7: GET /api/dashboard-metrics and GET /api/summary-stats, both {success: true, data}. */
export function registerDashboardRoutes(app: FastifyInstance, service: DashboardService): void {
  serveEndpoint(app, endpoints.metrics, ({ query }, request) =>
    service.metrics(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.summary, ({ query }, request) =>
    service.summary(request.access, query.clientContext),
  );
}
