import { exchangeRateEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { serveEndpoint } from '../../lib/endpoint-route';
import type { ExchangeRateService } from './exchange-rates.service';

export function registerExchangeRateRoutes(app: FastifyInstance, service: ExchangeRateService): void {
  serveEndpoint(app, endpoints.list, () => service.list());
  serveEndpoint(app, endpoints.save, ({ params, body }, request) =>
    service.save(request.access, params, body.rate),
  );
  serveEndpoint(app, endpoints.remove, ({ params }, request) => service.remove(request.access, params));
}
