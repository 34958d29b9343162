import { readFileSync } from 'node:fs';
import { API_ENDPOINTS, apiDocsEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { endpointRoute } from '../../lib/endpoint-route';
import { renderDocsPage } from './docs-page';
import { openApiDocument } from './openapi-document';

/** GET /api/openapi.json, GET /api/docs and its stylesheet: built once, from the contracts. */
export function registerApiDocsRoutes(app: FastifyInstance): void {
  const document = openApiDocument(API_ENDPOINTS);
  const page = renderDocsPage(document);
  const stylesheet = readFileSync(new URL('./docs.css', import.meta.url), 'utf8');

  app.route({
    ...endpointRoute(endpoints.openApi),
    handler: async (_request, reply) => reply.header('cache-control', 'no-cache').send(document),
  });
  app.route({
    ...endpointRoute(endpoints.page),
    handler: async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page),
  });
  app.route({
    ...endpointRoute(endpoints.stylesheet),
    handler: async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(stylesheet),
  });
}
