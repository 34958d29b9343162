import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';

/** Checks a bearer token and returns its claims; rejects with TokenRejectedError when it is not acceptable. */
export type TokenVerifier = (token: string) => Promise<Record<string, unknown>>;

export class TokenRejectedError extends Error {}

/** Clock skew tolerated between this server and the provider. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** Asymmetric algorithms only: an HMAC or `none` token would let a client forge its own. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

type VerifierOptions = {
  issuer: string;
  /** Accepted `aud` values: the client id (ID tokens) and, optionally, an API audience. */
  audiences: readonly string[];
  keys: JWTVerifyGetKey;
};

/** Verifies signature, issuer, audience and expiry (exp required), as the server's only way in. */
export function createTokenVerifier({ issuer, audiences, keys }: VerifierOptions): TokenVerifier {
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: [...audiences],
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) {
        throw new TokenRejectedError(error instanceof errors.JOSEError ? error.code : 'ERR_MALFORMED_TOKEN');
      }
      throw error;
    }
  };
}

/** Keys of the embedded provider, straight from memory. */
export function localKeys(publicKeys: { keys: JWK[] }): JWTVerifyGetKey {
  return createLocalJWKSet(publicKeys);
}

/**
 * Keys of an external provider: its discovery document names the key set, which jose fetches,
 * caches and refreshes when a token names an unknown key (provider key rotation).
 */
export function remoteKeys(issuer: string): JWTVerifyGetKey {
  let keySet: Promise<JWTVerifyGetKey> | null = null;
  const load = async (): Promise<JWTVerifyGetKey> => {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`Discovery document ${url} answered HTTP ${response.status}`);
    const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: string };
    if (!jwksUri) throw new Error(`Discovery document ${url} names no jwks_uri`);
    return createRemoteJWKSet(new URL(jwksUri));
  };
  return async (header, token) => {
    keySet ??= load().catch((error: unknown) => {
      keySet = null;
      throw error;
    });
    return (await keySet)(header, token);
  };
}
