import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, TokenRejectedError } from './token-verifier';

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'planning-suite';
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let signer: KeyPair;
let forger: KeyPair;
let keys: JWTVerifyGetKey;

beforeAll(async () => {
  signer = await generateKeyPair('RS256', { extractable: true });
  forger = await generateKeyPair('RS256', { extractable: true });
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(signer.publicKey)), alg: 'RS256' }] });
});

const mint = (sub: string, expiresAt: number, key = signer.privateKey) =>
  new SignJWT({ groups: ['admin'] })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(sub)
    .setIssuedAt(START / 1000)
    .setExpirationTime(expiresAt / 1000)
    .sign(key);

/** A verifier over the real key set that counts how often a signature is checked. */
function verifierAt(clock: { now: number }, keep?: number) {
  const checks = { count: 0 };
  const verify = createTokenVerifier({
    issuer: ISSUER,
    audiences: [AUDIENCE],
    keys: (header, token) => {
      checks.count += 1;
      return keys(header, token);
    },
    now: () => clock.now,
    ...(keep === undefined ? {} : { keep }),
  });
  return { verify, checks };
}

describe('createTokenVerifier', () => {
  it('checks a token signature once and answers its repeats from the cache', async () => {
    const clock = { now: START };
    const { verify, checks } = verifierAt(clock);
    const token = await mint('planner-1', START + 3_600_000);
    const first = await verify(token);
    clock.now += 60_000;
    const second = await verify(token);
    expect(first).toMatchObject({ sub: 'planner-1', groups: ['admin'] });
    expect(second).toEqual(first);
    expect(checks.count).toBe(1);
  });

  it('refuses a cached token once it has expired', async () => {
    const clock = { now: START };
    const { verify } = verifierAt(clock);
    const token = await mint('planner-1', START + 60_000);
    await verify(token);
    // exp plus the 30 s clock tolerance has passed.
    clock.now = START + 91_000;
    await expect(verify(token)).rejects.toThrow(new TokenRejectedError('ERR_JWT_EXPIRED'));
  });

  it('keeps refusing a forged token and never caches it', async () => {
    const clock = { now: START };
    const { verify, checks } = verifierAt(clock);
    const forged = await mint('intruder', START + 3_600_000, forger.privateKey);
    await expect(verify(forged)).rejects.toBeInstanceOf(TokenRejectedError);
    await expect(verify(forged)).rejects.toBeInstanceOf(TokenRejectedError);
    expect(checks.count).toBe(2);
  });

  it('drops the least recently used token when full', async () => {
    const clock = { now: START };
    const { verify, checks } = verifierAt(clock, 2);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sub) => mint(sub, START + 3_600_000)));
    await verify(a!);
    await verify(b!);
    await verify(a!); // a is now the most recently used, b the least
    await verify(c!); // evicts b
    expect(checks.count).toBe(3);
    await verify(a!);
    await verify(c!);
    expect(checks.count).toBe(3);
    await verify(b!);
    expect(checks.count).toBe(4);
  });
});
