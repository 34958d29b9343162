import type { FastifyInstance } from 'fastify';
import { ok } from '../../lib/envelope';
import type { AuthClientConfig } from './auth-setup';

/** Paths under /api/auth that answer without a token. */
export const PUBLIC_AUTH_PATHS = ['/api/auth/config', '/api/auth/login'];

/**
 * GET /api/auth/config: the provider the browser signs in with.
 * GET /api/auth/login: the spec's fallback login address. PKCE keeps its verifier in the browser,
 * so the server hands over to the app's /auth/login page, which starts the authorize redirect.
 */
export async function registerAuthRoutes(
  app: FastifyInstance,
  clientConfig: AuthClientConfig,
): Promise<void> {
  app.get('/api/auth/config', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return ok(clientConfig);
  });
  app.get('/api/auth/login', async (_request, reply) => reply.redirect('/auth/login', 302));
}
