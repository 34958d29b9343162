import { readFileSync } from 'node:fs';
import { importJWK, SignJWT, type JWK } from 'jose';
import type { TestServer } from './test-server';

/**
 * An admin ID token signed with the embedded provider's real key (from its key file), expiring in
 * `expiresInSeconds`: for behaviour at expiry without waiting out the provider's lifetime.
 */
export async function mintShortLivedToken(server: TestServer, expiresInSeconds: number): Promise<string> {
  const [jwk] = (JSON.parse(readFileSync(server.keysFile, 'utf8')) as { signingKeys: JWK[] }).signingKeys;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'demo-admin', email: 'admin@demo.local', groups: ['admin'] })
    .setProtectedHeader({ alg: 'RS256', kid: jwk!.kid! })
    .setIssuer(`${server.baseUrl}/oidc`)
    .setAudience('planning-suite')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + expiresInSeconds)
    .sign(await importJWK(jwk!, 'RS256'));
}
