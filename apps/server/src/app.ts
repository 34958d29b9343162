import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type RouteOptions,
} from 'fastify';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/database';
import { clockFromConfig, type Clock } from './lib/clock';
import { failure } from './lib/envelope';
import {
  AppError,
  DEFAULT_RETRY_AFTER_SECONDS,
  frameworkErrorAnswer,
  httpStatusOf,
  timeoutErrorFrom,
  type ErrorAnswer,
} from './lib/errors';
import { registerJsonBodyParser } from './lib/json-body';
import { checkResponsesAgainstContracts } from './lib/response-contract';
import { registerRouteAccess } from './lib/route-access';
import { registerSecurityHeaders, styleNonceFor } from './lib/security-headers';
import type { ServerModule } from './lib/server-module';
import { aiAssistantModule } from './modules/ai-assistant';
import { apiDocsModule } from './modules/api-docs';
import type { AuthSetup } from './modules/auth';
import { dashboardModule } from './modules/dashboard';
import { demandRecordsModule } from './modules/demand-records';
import { exportsModule } from './modules/exports';
import { forecastRunsModule } from './modules/forecast-runs';
import { planCyclesModule } from './modules/plan-cycles';
import { controlTowerModule } from './modules/control-tower';
import { healthModule } from './modules/health';
import { horizonModule } from './modules/horizon';
import { inventoryModule } from './modules/inventory';
import { importsModule } from './modules/imports';
import { planningGridModule } from './modules/planning-grid';
import { exchangeRatesModule } from './modules/exchange-rates';
import { notificationsModule } from './modules/notifications';
import { userSettingsModule } from './modules/user-settings';
import { savedViewsModule } from './modules/saved-views';
import { optimisationModule } from './modules/optimisation';
import { liveUpdatesModule } from './modules/live-updates';
import { dataLoadsModule } from './modules/data-loads';
import { cycleModule } from './modules/cycle';

/** The server's capabilities, each a folder under modules/ (docs/architecture.md). */
const MODULES: readonly ServerModule[] = [
  healthModule,
  demandRecordsModule,
  planningGridModule,
  exportsModule,
  importsModule,
  dashboardModule,
  forecastRunsModule,
  planCyclesModule,
  userSettingsModule,
  savedViewsModule,
  exchangeRatesModule,
  notificationsModule,
  optimisationModule,
  inventoryModule,
  aiAssistantModule,
  controlTowerModule,
  liveUpdatesModule,
  horizonModule,
  dataLoadsModule,
  cycleModule,
  apiDocsModule,
];

export type AppOptions = {
  config: AppConfig;
  database: DatabaseHandle;
  /** Sign-in: token verification, /api/auth/* and the embedded provider (createAuthSetup). */
  auth: AuthSetup;
  /** Where today comes from; default CLOCK_TODAY or real time. Tests pass a clock they move. */
  clock?: Clock;
  /** Tests: check every JSON response against its route's contract (lib/response-contract.ts). */
  checkResponses?: boolean;
  /** Tests: sees every route as it is registered (the route permissions test walks them). */
  onRoute?: (route: RouteOptions) => void;
};

/** Anything a client sends that Fastify or Node refuse still answers in the envelope. */
const MALFORMED_REQUEST: ErrorAnswer = {
  status: 400,
  code: 'VALIDATION',
  message: 'The request is malformed',
};

/**
 * Node's HTTP parser refuses some requests (a URL or headers over 16 KB, broken syntax) before
 * Fastify sees them; answer those in the envelope on the raw socket too.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = frameworkErrorAnswer(error) ?? MALFORMED_REQUEST;
  const body = JSON.stringify(failure(answer.code, answer.message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export async function buildApp({
  config,
  database,
  auth,
  clock = clockFromConfig(config),
  checkResponses = false,
  onRoute,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    // Keys and filter values can be long; Fastify's default 100 characters cuts some search URLs.
    routerOptions: { maxParamLength: 500 },
    // The router's own refusals (bad percent-encoding, a path segment over maxParamLength: 414).
    frameworkErrors: (error, _request, reply) => {
      const answer = frameworkErrorAnswer(error) ?? MALFORMED_REQUEST;
      void (reply as FastifyReply).code(answer.status).send(failure(answer.code, answer.message));
    },
    clientErrorHandler: answerClientError,
    // Behind a configured proxy only: X-Forwarded-Proto then says whether the answer may send HSTS.
    trustProxy: config.TRUST_PROXY,
  });

  registerJsonBodyParser(app);
  await registerSecurityHeaders(app, config);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : timeoutErrorFrom(error);
    if (known) {
      // Every 429 says when to try again.
      if (known.code === 'RATE_LIMITED')
        void reply.header('retry-after', String(known.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return reply.code(httpStatusOf(known.code)).send(failure(known.code, known.message, known.details));
    }
    // Errors Fastify raises for malformed requests (bad JSON, wrong content type, body too large).
    const answer = frameworkErrorAnswer(error);
    if (answer) return reply.code(answer.status).send(failure(answer.code, answer.message));
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send(failure('INTERNAL', 'An unexpected error occurred. Our team has been notified.'));
  });

  if (onRoute) app.addHook('onRoute', onRoute);
  // The one place where the verified user is attached to a request, from the route's declared access.
  registerRouteAccess(app, auth.authenticate);
  if (checkResponses) checkResponsesAgainstContracts(app);

  await auth.register(app, database);
  for (const module of MODULES) await module.register(app, { config, database, log: app.log, clock });

  const webRoot = resolve(config.WEB_DIST_DIR);
  const indexFile = resolve(webRoot, 'index.html');
  const hasWebApp = existsSync(indexFile);
  // index.html is answered below with this answer's CSP nonce in it, never as a static file.
  const indexHtml = hasWebApp ? readFileSync(indexFile, 'utf8') : '';
  if (hasWebApp) {
    // @fastify/static marks its routes with config.rootPath: the built web app's files are public.
    app.addHook('onRoute', (route) => {
      if (route.config && 'rootPath' in route.config) route.config = { ...route.config, access: 'public' };
    });
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
    // The path is not repeated back: an answer never echoes what the client sent.
    return reply.code(404).send(failure('NOT_FOUND', 'No such route'));
  });

  return app;
}
