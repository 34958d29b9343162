import { inventoryEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { InventoryService } from './inventory.service';

/** Inventory planning: the override page and its saves, and the two control tower screens. */
export function registerInventoryRoutes(app: FastifyInstance, service: InventoryService): void {
  serveEndpoint(app, endpoints.page, ({ query }, request) => service.page(request.access, query));
  serveEndpoint(app, endpoints.filterOptions, ({ query }, request) =>
    service.filterOptions(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.update, ({ params, body }, request) =>
    service.update(request.access, { sku: params.pid, site: params.site }, body),
  );
  serveEndpoint(app, endpoints.batch, ({ body }, request) => service.save(request.access, body.changes));
  serveEndpoint(app, endpoints.audit, ({ params }, request) =>
    service.audit(request.access, { sku: params.pid, site: params.site }),
  );
  serveEndpoint(app, endpoints.metrics, ({ query }, request) =>
    service.metrics(request.access, query.clientContext),
  );
  serveEndpoint(app, endpoints.sdMatch, ({ query }, request) =>
    service.sdMatch(request.access, query.clientContext),
  );
}
