import { planCycleEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { PlanCycleService } from './plan-cycle.service';

/** Plan cycles: preview and publish (admins), list the published versions (any signed-in user, own clients). */
export function registerPlanCycleRoutes(app: FastifyInstance, service: PlanCycleService): void {
  serveEndpoint(app, endpoints.preview, ({ query }, request) =>
    service.preview(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.publish, ({ body }, request) => service.publish(request.access, body));
  serveEndpoint(app, endpoints.list, ({ query }, request) =>
    service.list(request.access, query.clientContext),
  );
}
