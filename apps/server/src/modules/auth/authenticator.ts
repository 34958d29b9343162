import { AppError } from '../../lib/errors';
import type { Authenticator } from '../../lib/request-context';
import { accessScopeFromClaims } from './access-from-claims';
import { TokenRejectedError, type TokenVerifier } from './token-verifier';

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i;

/**
 * The verifying authenticator: no or bad bearer token → 401 'Authentication required'; a valid
 * token without a group the product knows → 403 'Insufficient permissions'.
 */
export function createAuthenticator({
  verify,
  groupsClaim,
}: {
  verify: TokenVerifier;
  groupsClaim: string;
}): Authenticator {
  return async (request) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw new AppError('UNAUTHENTICATED', 'Authentication required');
    let claims: Record<string, unknown>;
    try {
      claims = await verify(token);
    } catch (error) {
      if (!(error instanceof TokenRejectedError)) throw error;
      request.log.info({ reason: error.message }, 'bearer token refused');
      throw new AppError('UNAUTHENTICATED', 'Authentication required');
    }
    return accessScopeFromClaims(claims, groupsClaim);
  };
}
