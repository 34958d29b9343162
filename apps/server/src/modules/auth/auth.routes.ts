import { authEndpoints as endpoints } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { endpointRoute, serveEndpoint } from '../../lib/endpoint-route';
import type { AuthClientConfig } from './auth-setup';

/**
 * GET /api/auth/config: the provider the browser signs in with.
 * GET /api/auth/login: the spec's fallback login address. PKCE keeps its verifier in the browser,
 * so the server hands over to the app's /auth/login page, which starts the authorize redirect.
 */
export async function registerAuthRoutes(
  app: FastifyInstance,
  clientConfig: AuthClientConfig,
): Promise<void> {
  serveEndpoint(app, endpoints.config, async (_input, _request, reply) => {
    reply.header('cache-control', 'no-cache');
    return clientConfig;
  });
  app.route({
    ...endpointRoute(endpoints.login),
    handler: async (_request, reply) => reply.redirect('/auth/login', endpoints.login.status),
  });
}
