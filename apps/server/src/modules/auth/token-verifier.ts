import { createHash } from 'node:crypto';
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

/** Verified tokens remembered at once; a planner holds one token, so this covers thousands of users. */
const VERIFIED_TOKENS_KEPT = 5_000;

type VerifierOptions = {
  issuer: string;
  /** Accepted `aud` values: the client id (ID tokens) and, optionally, an API audience. */
  audiences: readonly string[];
  keys: JWTVerifyGetKey;
  /** Clock in milliseconds, for tests of expiry. */
  now?: () => number;
  /** How many verified tokens are kept, least recently used dropped first. */
  keep?: number;
};

/**
 * Verifies signature, issuer, audience and expiry (exp required), as the server's only way in.
 * Checking an RSA signature costs a few percent of a busy process, and a planner sends the same
 * token with every call, so a verified token's claims are kept by the token's hash until its
 * exp (never longer: an expired token is refused as before). Only accepted tokens are kept.
 */
export function createTokenVerifier({
  now = Date.now,
  keep = VERIFIED_TOKENS_KEPT,
  ...options
}: VerifierOptions): TokenVerifier {
  const verify = signatureVerifier({ ...options, now });
  const verified = new Map<string, { claims: Record<string, unknown>; expiresAt: number }>();
  return async (token) => {
    const hash = createHash('sha256').update(token).digest('base64url');
    const hit = verified.get(hash);
    if (hit && now() < hit.expiresAt) {
      // Map order is insertion order: re-inserting marks the entry as the most recently used.
      verified.delete(hash);
      verified.set(hash, hit);
      return hit.claims;
    }
    verified.delete(hash);
    const claims = await verify(token);
    const expiresAt = (claims.exp as number) * 1000;
    if (now() < expiresAt) {
      verified.set(hash, { claims, expiresAt });
      if (verified.size > keep) verified.delete(verified.keys().next().value!);
    }
    return claims;
  };
}

function signatureVerifier({
  issuer,
  audiences,
  keys,
  now,
}: Omit<Required<VerifierOptions>, 'keep'>): TokenVerifier {
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: [...audiences],
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(now()),
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
