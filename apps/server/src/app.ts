import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/database';
import { failure } from './lib/envelope';
import { AppError, httpStatusOf } from './lib/errors';
import { registerSecurityHeaders, styleNonceFor } from './lib/security-headers';
import type { ServerModule } from './lib/server-module';
import { PUBLIC_AUTH_PATHS, type AuthSetup } from './modules/auth';
import { dashboardModule } from './modules/dashboard';
import { demandRecordsModule } from './modules/demand-records';
import { exportsModule } from './modules/exports';
import { forecastRunsModule } from './modules/forecast-runs';
import { healthModule } from './modules/health';
import { planningGridModule } from './modules/planning-grid';

/** The server's capabilities, each a folder under modules/ (docs/architecture.md). */
const MODULES: readonly ServerModule[] = [
  healthModule,
  demandRecordsModule,
  planningGridModule,
  exportsModule,
  dashboardModule,
  forecastRunsModule,
];

export type AppOptions = {
  config: AppConfig;
  database: DatabaseHandle;
  /** Sign-in: token verification, /api/auth/* and the embedded provider (createAuthSetup). */
  auth: AuthSetup;
};

/** Paths under /api that answer without a token. */
const PUBLIC_API_PATHS = new Set(['/api/demand-planning/health', ...PUBLIC_AUTH_PATHS]);

export async function buildApp({ config, database, auth }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    // Keys and filter values can be long; Fastify's default 100 characters cuts some search URLs.
    routerOptions: { maxParamLength: 500 },
  });

  await registerSecurityHeaders(app, config, (path) => PUBLIC_API_PATHS.has(path));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(httpStatusOf(error.code)).send(failure(error.code, error.message, error.details));
    }
    // Errors Fastify raises for malformed requests (bad JSON, wrong content type, body too large).
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(failure('VALIDATION', `Invalid request: ${error.message}`));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send(failure('INTERNAL', 'An unexpected error occurred. Our team has been notified.'));
  });

  // The one place where the verified user is attached to a request.
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || PUBLIC_API_PATHS.has(path)) return;
    request.access = await auth.authenticate(request);
  });

  await auth.register(app, database);
  for (const module of MODULES) await module.register(app, { config, database, log: app.log });

  const webRoot = resolve(config.WEB_DIST_DIR);
  const indexFile = resolve(webRoot, 'index.html');
  const hasWebApp = existsSync(indexFile);
  // index.html is answered below with this answer's CSP nonce in it, never as a static file.
  const indexHtml = hasWebApp ? readFileSync(indexFile, 'utf8') : '';
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      allowedPath: (path) => path !== '/index.html',
      setHeaders: (reply, path) => {
        // Vite fingerprints asset names, so they can be cached for good; other files are revalidated.
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPageRequest =
      request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/assets/');
    if (isPageRequest && hasWebApp) {
      // History fallback: the single-page app owns every other path (its router shows the 404 page).
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(indexHtml.replace('__CSP_NONCE__', styleNonceFor(reply)));
    }
    return reply.code(404).send(failure('NOT_FOUND', `No route for ${request.method} ${path}`));
  });

  return app;
}
