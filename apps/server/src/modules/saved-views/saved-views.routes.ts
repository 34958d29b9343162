import { savedViewEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { SavedViewsService } from './saved-views.service';

/** The caller's own saved grid views. */
export function registerSavedViewRoutes(app: FastifyInstance, service: SavedViewsService): void {
  serveEndpoint(app, endpoints.list, (_input, request) => service.list(request.access));
  serveEndpoint(app, endpoints.create, ({ body }, request) => service.create(request.access, body));
  serveEndpoint(app, endpoints.update, ({ params, body }, request) =>
    service.update(request.access, params.id, body),
  );
  serveEndpoint(app, endpoints.remove, ({ params }, request) => service.remove(request.access, params.id));
}
