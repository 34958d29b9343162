import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../config';

/**
 * The one <style> element React renders for us (Radix Select's viewport, @radix-ui/react-select
 * 2.x), allowed by hash: its text is fixed, and the browser test fails if an upgrade changes it.
 */
const RADIX_SELECT_VIEWPORT_CSS =
  '[data-radix-select-viewport]{scrollbar-width:none;-ms-overflow-style:none;-webkit-overflow-scrolling:touch;}[data-radix-select-viewport]::-webkit-scrollbar{display:none}';

/** Each answer's style nonce, made when helmet writes the CSP header. */
const styleNonces = new WeakMap<ServerResponse, string>();

function styleNonceOf(response: ServerResponse): string {
  let nonce = styleNonces.get(response);
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    styleNonces.set(response, nonce);
  }
  return nonce;
}

/** The nonce the CSP of this answer allows inline <style> elements with (index.html hands it on). */
export function styleNonceFor(reply: FastifyReply): string {
  return styleNonceOf(reply.raw);
}

/**
 * The app's Content-Security-Policy. Tokens live in localStorage (spec §3), so no script but our
 * own files may run: no inline script, no eval, no other origin. An external OIDC issuer is the one
 * other origin the browser talks to (discovery, token and revocation calls) and may post forms to.
 * Styles: our stylesheet files, Radix Select's fixed <style> by hash, and the <style> elements
 * AG Grid's theme and Radix's scroll lock inject, which carry the answer's nonce. Style attributes
 * set from script (CSSOM) need nothing.
 */
function appContentSecurityPolicy(
  config: Pick<AppConfig, 'OIDC_ISSUER'>,
): Record<string, Array<string | ((request: unknown, response: ServerResponse) => string)>> {
  const issuer = config.OIDC_ISSUER ? [new URL(config.OIDC_ISSUER).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': [
      "'self'",
      `'sha256-${createHash('sha256').update(RADIX_SELECT_VIEWPORT_CSS).digest('base64')}'`,
      (_request, response) => `'nonce-${styleNonceOf(response)}'`,
    ],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...issuer],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'", ...issuer],
  };
}

/** HSTS as helmet sends it by default: a year, subdomains included. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer (helmet, with our CSP; X-Frame-Options DENY, as the CSP's
 * frame-ancestors 'none' says; HSTS only on an answer over https, which behind a proxy is known
 * only when TRUST_PROXY trusts its X-Forwarded-Proto), CORS only for the configured origins
 * (none by default: the app and its API share one origin), and `no-store` on every answer of the
 * API that needs a token, so no browser or proxy keeps planning data.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<AppConfig, 'OIDC_ISSUER' | 'CORS_ORIGINS'>,
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: appContentSecurityPolicy(config) },
    frameguard: { action: 'deny' },
    // Browsers ignore HSTS over plain http; sent there it only misstates how the app is served.
    strictTransportSecurity: false,
  });
  // On the raw answer, as helmet sets its headers: pages that write their own answer get it too.
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https')
      reply.raw.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  });
  if (config.CORS_ORIGINS.length > 0) {
    await app.register(cors, { origin: [...config.CORS_ORIGINS], credentials: false });
  }
  app.addHook('onSend', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Declared access (lib/route-access.ts) tells which answers need a token.
    if (path.startsWith('/api/') && request.routeOptions.config.access !== 'public')
      reply.header('cache-control', 'no-store');
  });
}
