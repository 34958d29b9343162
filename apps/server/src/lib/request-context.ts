import type { FastifyRequest } from 'fastify';
import type { AccessScope } from './access';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** The verified caller; set by the authentication hook before any /api handler runs. */
    access: AccessScope;
  }
}

/** Decides who is calling from the request (the bearer token); throws AppError UNAUTHENTICATED when nobody is. */
export type Authenticator = (request: FastifyRequest) => Promise<AccessScope>;
