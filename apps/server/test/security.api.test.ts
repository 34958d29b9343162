import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database';
import { createAuthSetup } from '../src/modules/auth/auth-setup';
import { databaseAdapterFactory } from '../src/modules/auth/provider-storage';
import { deleteExpiredProviderRecords } from '../src/modules/auth/provider-storage.repository';
import { backends } from './support/backends';
import { freePort } from './support/free-port';
import { signInOverHttp } from './support/sign-in';
import { startTestServer, type TestServer } from './support/test-server';

const RECORDS = '/api/demand-planning/real-data?limit=1';
const ADMIN = { email: 'admin@demo.local', password: 'admin-demo' };

/** A second app process over the same database and keys, reached at its own port (as behind a load balancer). */
async function startSecondInstance(server: TestServer): Promise<{ baseUrl: string; app: FastifyInstance }> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    PORT: new URL(server.baseUrl).port,
    PUBLIC_URL: server.baseUrl,
  });
  const auth = await createAuthSetup(config, { keysFile: server.keysFile });
  const app = await buildApp({ config, database: server.database, auth });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { baseUrl: `http://127.0.0.1:${port}`, app };
}

describe.each(backends)('security headers and shared sign-in state on %s', (backend) => {
  let server: TestServer;
  let second: { baseUrl: string; app: FastifyInstance };

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 4, weeks: 2 });
    second = await startSecondInstance(server);
  });
  afterAll(async () => {
    await second?.app.close();
    await server?.close();
  });

  describe('headers', () => {
    it('sends the strict CSP and helmet headers on API answers', async () => {
      const response = await fetch(`${server.baseUrl}/api/auth/config`);
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toMatch(
        new RegExp(
          "^default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'sha256-441zG27rExd4/il\\+NvIqyL8zFx5XmyNQtE381kSkUJk=' 'nonce-[A-Za-z0-9+/]{22}==';" +
            "img-src 'self' data:;font-src 'self';connect-src 'self';frame-ancestors 'none';object-src 'none';" +
            "base-uri 'self';form-action 'self'$",
        ),
      );
      const again = (await fetch(`${server.baseUrl}/api/auth/config`)).headers.get('content-security-policy');
      expect(again).not.toBe(csp);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      // No framing, said twice the same way (CSP frame-ancestors 'none' and X-Frame-Options).
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // Plain http: no HSTS (see the TRUST_PROXY tests).
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    });

    it('gives the provider sign-in page its own CSP: no script, its one stylesheet by hash', async () => {
      const authorize = new URL('/oidc/auth', server.baseUrl);
      authorize.search = new URLSearchParams({
        client_id: 'planning-suite',
        redirect_uri: `${server.baseUrl}/auth/callback`,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const started = await fetch(authorize, { redirect: 'manual' });
      const cookie = started.headers
        .getSetCookie()
        .map((header) => header.split(';')[0])
        .join('; ');
      const page = await fetch(new URL(started.headers.get('location')!, server.baseUrl), {
        headers: { cookie },
      });
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src 'self' data:;/);
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('cache-control')).toBe('no-store');
    });

    it('sends no-store on every answer of the API that needs a token, refused or not', async () => {
      const signedIn = await fetch(`${server.baseUrl}${RECORDS}`, {
        headers: { authorization: `Bearer ${(await server.tokensFor('circor')).id_token}` },
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('no-store');
      const refused = await fetch(`${server.baseUrl}${RECORDS}`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      const publicConfig = await fetch(`${server.baseUrl}/api/auth/config`);
      expect(publicConfig.headers.get('cache-control')).toBe('no-cache');
    });

    it('answers no CORS headers by default, for another site or the null origin', async () => {
      for (const origin of ['https://evil.example', 'null']) {
        const simple = await fetch(`${server.baseUrl}/api/auth/config`, { headers: { origin } });
        expect(simple.headers.get('access-control-allow-origin')).toBeNull();
        const preflight = await fetch(`${server.baseUrl}${RECORDS}`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('revokes a token with 200 and an empty body (which the web client accepts as text/plain)', async () => {
      const tokens = await signInOverHttp(server.baseUrl, ADMIN);
      const response = await fetch(`${server.baseUrl}/oidc/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh_token!, client_id: 'planning-suite' }).toString(),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const renewal = await fetch(`${server.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token!,
          client_id: 'planning-suite',
        }).toString(),
      });
      expect(renewal.status).toBe(400);
      expect(((await renewal.json()) as { error: string }).error).toBe('invalid_grant');
    });
  });

  describe('several processes sharing one database', () => {
    it('completes a sign-in started on one instance at another, and each accepts the token', async () => {
      const tokens = await signInOverHttp(server.baseUrl, ADMIN, { completeAt: second.baseUrl });
      for (const baseUrl of [server.baseUrl, second.baseUrl]) {
        const response = await fetch(`${baseUrl}${RECORDS}`, {
          headers: { authorization: `Bearer ${tokens.id_token}` },
        });
        expect(response.status).toBe(200);
      }
    });

    it('renews at one instance with a refresh token issued by the other', async () => {
      const tokens = await signInOverHttp(server.baseUrl, ADMIN);
      const renewal = await fetch(`${second.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token!,
          client_id: 'planning-suite',
        }).toString(),
      });
      expect(renewal.status).toBe(200);
      expect(((await renewal.json()) as { id_token?: string }).id_token).toBeTruthy();
    });

    it('stores provider records with expiry, consumption, uid lookup and grant revocation', async () => {
      const adapterFor = databaseAdapterFactory(server.database.db);
      const sessions = adapterFor('Session');
      await sessions.upsert('s1', { uid: 'u1', accountId: 'demo-admin' }, 60);
      expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'demo-admin' });

      const codes = adapterFor('AuthorizationCode');
      await codes.upsert('c1', { grantId: 'g1', kind: 'AuthorizationCode' }, 60);
      await codes.consume('c1');
      const consumed = (await codes.find('c1'))!;
      expect(Math.abs(Number(consumed.consumed) - Date.now() / 1000)).toBeLessThan(5);
      await codes.revokeByGrantId('g1');
      expect(await codes.find('c1')).toBeUndefined();

      await codes.upsert('lapsed', { grantId: 'g2' }, 0);
      expect(await codes.find('lapsed')).toBeUndefined();
      expect(await deleteExpiredProviderRecords(server.database.db)).toBeGreaterThanOrEqual(1);
      await sessions.destroy('s1');
      expect(await sessions.find('s1')).toBeUndefined();
    });

    it('counts failed sign-ins across instances: 5 here and 5 there block the 11th anywhere', async () => {
      const attemptAt = (completeAt: string) =>
        signInOverHttp(
          server.baseUrl,
          { email: 'shared-guess@demo.local', password: 'wrong' },
          { completeAt },
        );
      for (const instance of [server.baseUrl, second.baseUrl]) {
        for (let i = 0; i < 5; i += 1) await expect(attemptAt(instance)).rejects.toThrow(/HTTP 401/);
      }
      await expect(attemptAt(server.baseUrl)).rejects.toThrow(/HTTP 429/);
      await expect(attemptAt(second.baseUrl)).rejects.toThrow(/HTTP 429/);
    });
  });
});

describe('CORS_ORIGINS', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = openDatabase({ kind: 'pglite' });
    await migrateToLatest(database.db);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '/nonexistent',
      CORS_ORIGINS: 'https://portal.example.com, https://other.example.com:8443',
    });
    app = await buildApp({ config, database, auth: await createAuthSetup(config) });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('allows exactly the configured origins', async () => {
    for (const origin of ['https://portal.example.com', 'https://other.example.com:8443']) {
      const response = await app.inject({ method: 'GET', url: '/api/auth/config', headers: { origin } });
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    }
  });

  it('refuses any other origin, a look-alike and null', async () => {
    for (const origin of ['https://evil.example', 'https://portal.example.com.evil.example', 'null']) {
      const response = await app.inject({ method: 'GET', url: '/api/auth/config', headers: { origin } });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a configuration that lists null, a wildcard or a path', () => {
    for (const value of ['null', '*', 'https://portal.example.com/app', 'portal.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/^Invalid configuration: CORS_ORIGINS/);
    }
  });
});

describe('TRUST_PROXY and HSTS', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = openDatabase({ kind: 'pglite' });
    await migrateToLatest(database.db);
  });
  afterAll(async () => database?.close());

  /** HSTS of an answer to a request from 127.0.0.1 that says it came over https through a proxy. */
  const hstsWith = async (trustProxy: string | undefined, forwardedProto = 'https') => {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '/nonexistent',
      ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
    });
    const app = await buildApp({ config, database, auth: await createAuthSetup(config) });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/config',
        headers: { 'x-forwarded-proto': forwardedProto },
      });
      return {
        hsts: response.headers['strict-transport-security'],
        frame: response.headers['x-frame-options'],
      };
    } finally {
      await app.close();
    }
  };

  it('sends HSTS only over https, believing X-Forwarded-Proto only from a configured proxy', async () => {
    const hsts = 'max-age=31536000; includeSubDomains';
    expect(await hstsWith(undefined)).toEqual({ hsts: undefined, frame: 'DENY' });
    expect((await hstsWith('false')).hsts).toBeUndefined();
    expect((await hstsWith('10.0.0.1')).hsts).toBeUndefined();
    expect((await hstsWith('true')).hsts).toBe(hsts);
    expect((await hstsWith('10.0.0.1, 127.0.0.1/32')).hsts).toBe(hsts);
    expect((await hstsWith('true', 'http')).hsts).toBeUndefined();
  });

  it('refuses a TRUST_PROXY that is neither a yes/no nor addresses', () => {
    for (const value of ['yes please', '10.0.0.300', 'proxy.example.com']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^Invalid configuration: TRUST_PROXY/);
    }
  });
});
