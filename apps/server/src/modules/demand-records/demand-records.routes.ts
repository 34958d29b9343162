import { demandRecordEndpoints as endpoints, planningPolicyEndpoints, spreadingEndpoints } from '@ps/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import type { DemandRecordSpreadService } from './demand-record-spread.service';
import type { DemandRecordService } from './demand-record.service';

/** Aborts when the connection closes before the answer was sent: the client gave up waiting. */
function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded)
      controller.abort(
        new AppError('CONFLICT', 'The client went away before the save finished; nothing was saved'),
      );
  });
  return controller.signal;
}

/** The demand record calls of spec §7. Thin: parse by the contract, call the service with the caller's scope. */
export function registerDemandRecordRoutes(
  app: FastifyInstance,
  service: DemandRecordService,
  spreading: DemandRecordSpreadService,
): void {
  serveEndpoint(app, endpoints.list, ({ query }, request) => service.list(request.access, query));

  serveEndpoint(app, planningPolicyEndpoints.read, () => service.readPolicy());
  serveEndpoint(app, planningPolicyEndpoints.save, ({ body }, request) =>
    service.savePolicy(request.access, body),
  );

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
  serveEndpoint(
    app,
    endpoints.batch,
    ({ body }, request, reply) => service.batchUpdate(request.access, body, clientGoneSignal(reply)),
    { bodyLimit: 8 * 1024 * 1024 },
  );

  // Aggregate edits, locks and a cell's history.
  serveEndpoint(app, spreadingEndpoints.spread, ({ body }, request) =>
    spreading.spread(request.access, body),
  );
  serveEndpoint(app, spreadingEndpoints.spreadBatch, ({ body }, request) =>
    spreading.spreadBatch(request.access, body),
  );
  serveEndpoint(app, spreadingEndpoints.locks, ({ body }, request) =>
    spreading.setLocks(request.access, body),
  );
  serveEndpoint(app, spreadingEndpoints.lastSave, (_input, request) =>
    spreading.lastSaveSize(request.access),
  );
  serveEndpoint(app, spreadingEndpoints.undo, (_input, request) => spreading.undoLastSave(request.access));
  serveEndpoint(app, spreadingEndpoints.history, ({ params }, request) =>
    spreading.history(request.access, params),
  );
}
