import type { EndpointContract, RouteAccess } from '@ps/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessScope } from './access';
import { AppError } from './errors';
import type { Authenticator } from './request-context';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Who may call the route; every route states it (test/route-permissions.api.test.ts). */
    access?: RouteAccess;
    /** The contract the route serves (packages/domain/src/api), for response checks and the docs. */
    endpoint?: EndpointContract;
  }
}

const insufficientPermissions = () => new AppError('FORBIDDEN', 'Insufficient permissions');

/** Whether a verified caller holds the level a route asks for (being signed in is checked before). */
function allows(scope: AccessScope, access: Exclude<RouteAccess, 'public'>): boolean {
  switch (access) {
    case 'account':
      return true;
    case 'signed-in':
      return scope.clientIds.length > 0;
    case 'write':
      return scope.canWrite;
    case 'admin':
      return scope.isAdmin;
  }
}

/**
 * The one place where callers are authenticated and authorized: before any handler, from the
 * route's declared `config.access`. No or a bad token → 401; a token without the level (a user in
 * no group reaches only 'account' routes) → 403. A route that declares nothing is refused (fail closed).
 */
export function registerRouteAccess(app: FastifyInstance, authenticate: Authenticator): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // Unknown paths answer 404 from the not-found handler: there is nothing to protect.
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (access === undefined) throw insufficientPermissions();
    request.access = await authenticate(request);
    if (!allows(request.access, access)) throw insufficientPermissions();
  });
}
