import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';

/** The embedded provider's secrets: token signing keys (private JWKs) and cookie signing keys. */
export type ProviderKeys = { signingKeys: JWK[]; cookieKeys: string[] };

const ZProviderKeysSchema = z.object({
  signingKeys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), d: z.string() })).min(1),
  cookieKeys: z.array(z.string().min(32)).min(1),
});

async function generateKeys(): Promise<ProviderKeys> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    signingKeys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

/**
 * Reads the keys from `file`, creating it (mode 0600) on first start so restarts keep tokens and
 * provider cookies valid. Without a file the keys live only as long as the process (tests).
 */
export async function loadOrCreateProviderKeys(file: string | undefined): Promise<ProviderKeys> {
  if (!file) return generateKeys();
  if (existsSync(file)) {
    const parsed = ZProviderKeysSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      throw new Error(`${file} does not hold valid sign-in keys; delete it to create new ones`);
    return parsed.data;
  }
  const keys = await generateKeys();
  mkdirSync(dirname(file), { recursive: true });
  // Write then rename, so a crash never leaves a half-written key file behind.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(keys), { mode: 0o600 });
  renameSync(temporary, file);
  return keys;
}

/** The public half of signing keys, for verification and the provider's JWKS endpoint. */
export function publicJwks(keys: readonly JWK[]): { keys: JWK[] } {
  return {
    keys: keys.map(({ kty, kid, alg, use, n, e, crv, x, y }) =>
      Object.fromEntries(
        Object.entries({ kty, kid, alg, use, n, e, crv, x, y }).filter(([, v]) => v !== undefined),
      ),
    ),
  };
}
