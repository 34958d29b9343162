import { forecastRunEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { ForecastRunService } from './forecast-run.service';

/** Forecast runs: start one (202, runs in the background), follow its progress, list recent ones. Admins only. */
export function registerForecastRunRoutes(app: FastifyInstance, service: ForecastRunService): void {
  serveEndpoint(app, endpoints.start, async (_input, request, reply) => {
    const run = await service.start(request.access);
    reply.header('location', `/api/forecast/runs/${run.id}`);
    return run;
  });
  serveEndpoint(app, endpoints.listRecent, ({ query }) => service.listRecent(query.limit));
  serveEndpoint(app, endpoints.get, ({ params }) => service.get(params.id));
}
