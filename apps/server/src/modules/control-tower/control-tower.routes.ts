import { controlTowerEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { ControlTowerService } from './control-tower.service';

/** Control tower reads: every signed-in user, limited to their own clients. */
export function registerControlTowerRoutes(app: FastifyInstance, service: ControlTowerService): void {
  serveEndpoint(app, endpoints.filters, ({ query }, request) =>
    service.filters(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.worksheet, ({ query }, request) => service.worksheet(request.access, query));
  serveEndpoint(app, endpoints.products, ({ query }, request) => service.products(request.access, query));
  serveEndpoint(app, endpoints.accuracy, ({ query }, request) =>
    service.accuracy(request.access, query.clientContext, query.lag),
  );
  serveEndpoint(app, endpoints.exceptions, ({ query }, request) =>
    service.exceptions(request.access, query.clientContext, query.lag),
  );
  serveEndpoint(app, endpoints.home, ({ query }, request) =>
    service.home(request.access, query.clientContext),
  );
}
