import { forecastRunEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { ForecastRunService } from './forecast-run.service';

/** Forecast runs (admins): start, follow, list; a product's accuracy and members (signed-in, own clients). */
export function registerForecastRunRoutes(app: FastifyInstance, service: ForecastRunService): void {
  serveEndpoint(app, endpoints.start, async (_input, request, reply) => {
    const run = await service.start(request.access);
    reply.header('location', `/api/forecast/runs/${run.id}`);
    return run;
  });
  serveEndpoint(app, endpoints.preview, (_input, request) => service.preview(request.access));
  serveEndpoint(app, endpoints.listRecent, ({ query }) => service.listRecent(query.limit));
  serveEndpoint(app, endpoints.get, ({ params }) => service.get(params.id));
  serveEndpoint(app, endpoints.accuracy, ({ params }, request) =>
    service.accuracy(request.access, params.pid),
  );
}
