import { demandRecordEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { DemandRecordService } from './demand-record.service';

/** The demand record calls of spec §7. Thin: parse by the contract, call the service with the caller's scope. */
export function registerDemandRecordRoutes(app: FastifyInstance, service: DemandRecordService): void {
  serveEndpoint(app, endpoints.list, ({ query }, request) => service.list(request.access, query));

  serveEndpoint(app, endpoints.get, ({ params }, request) => service.get(request.access, params));

  serveEndpoint(app, endpoints.create, ({ body }, request) => service.create(request.access, body));

  serveEndpoint(app, endpoints.update, ({ params, body }, request) =>
    service.update(request.access, params, body),
  );

  serveEndpoint(app, endpoints.remove, async ({ params }, request) => {
    await service.remove(request.access, params);
    return { deleted: true as const, PID: params.pid, Time_Series_sk: params.timeSeriesSk };
  });

  // A 5000-record batch of edits is about 1 MB of JSON; allow some room above Fastify's 1 MB default.
  serveEndpoint(app, endpoints.batch, ({ body }, request) => service.batchUpdate(request.access, body), {
    bodyLimit: 8 * 1024 * 1024,
  });
}
