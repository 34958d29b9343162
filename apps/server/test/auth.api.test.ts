import { readFileSync, statSync } from 'node:fs';
import type { DemandRecord } from '@ps/domain';
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthSetup } from '../src/modules/auth/auth-setup';
import { loadConfig } from '../src/config';
import type { Failure } from './support/api-shapes';
import { backends } from './support/backends';
import { signInOverHttp } from './support/sign-in';
import { startTestServer, type TestServer } from './support/test-server';

type Page = { success: boolean; data: { items: DemandRecord[]; count: number } };

const BASE = '/api/demand-planning/real-data';
const CLIENT_ID = 'planning-suite';

/** Signs claims with the provider's real private key (from its key file) or with a stranger's key. */
async function mintToken(
  server: TestServer,
  claims: Record<string, unknown>,
  options: { forgedKey?: boolean; expiresIn?: number } = {},
): Promise<string> {
  const [realJwk] = (JSON.parse(readFileSync(server.keysFile, 'utf8')) as { signingKeys: JWK[] }).signingKeys;
  let key;
  if (options.forgedKey) {
    key = (await generateKeyPair('RS256')).privateKey;
  } else {
    key = await importJWK(realJwk!, 'RS256');
  }
  const now = Math.floor(Date.now() / 1000);
  const {
    iss = `${server.baseUrl}/oidc`,
    aud = CLIENT_ID,
    ...rest
  } = claims as { iss?: string; aud?: string };
  return new SignJWT({ sub: 'demo-admin', email: 'admin@demo.local', groups: ['admin'], ...rest })
    .setProtectedHeader({ alg: 'RS256', kid: realJwk!.kid! })
    .setIssuer(iss)
    .setAudience(aud)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (options.expiresIn ?? 600))
    .sign(key);
}

describe.each(backends)('sign-in and access control on %s', (backend) => {
  let server: TestServer;
  let internalRecord: DemandRecord;
  let circorRecord: DemandRecord;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const all = (await server.request<Page>('GET', `${BASE}?limit=5000`)).body.data.items;
    internalRecord = all.find((r) => !r.PID.startsWith('CIR-'))!;
    circorRecord = all.find((r) => r.PID.startsWith('CIR-'))!;
  });
  afterAll(async () => server?.close());

  describe('embedded provider', () => {
    it('tells the browser where to sign in without a token', async () => {
      const { status, body } = await server.request<{ data: Record<string, string> }>(
        'GET',
        '/api/auth/config',
        undefined,
        { as: 'anonymous' },
      );
      expect(status).toBe(200);
      expect(body.data).toEqual({
        issuer: `${server.baseUrl}/oidc`,
        clientId: CLIENT_ID,
        scopes: 'openid email profile',
        groupsClaim: 'groups',
      });
    });

    it('publishes a discovery document for the code flow with PKCE S256', async () => {
      const response = await fetch(`${server.baseUrl}/oidc/.well-known/openid-configuration`);
      const discovery = (await response.json()) as Record<string, unknown>;
      expect(discovery.issuer).toBe(`${server.baseUrl}/oidc`);
      expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
      expect(discovery.response_types_supported).toEqual(['code']);
      expect(discovery.authorization_endpoint).toBe(`${server.baseUrl}/oidc/auth`);
    });

    it('sends /api/auth/login to the app page that starts the authorize redirect', async () => {
      const response = await fetch(`${server.baseUrl}/api/auth/login`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/login');
    });

    it('issues ID tokens with the groups claim for each demo user', async () => {
      const groupsOf = async (caller: 'admin' | 'circor' | 'nogroup') =>
        decodeJwt((await server.tokensFor(caller)).id_token);
      const admin = await groupsOf('admin');
      expect(admin).toMatchObject({ groups: ['admin'], email: 'admin@demo.local', aud: CLIENT_ID });
      expect(admin.iss).toBe(`${server.baseUrl}/oidc`);
      expect((await groupsOf('circor')).groups).toEqual(['circor']);
      expect((await groupsOf('nogroup')).groups).toEqual([]);
      const tokens = await server.tokensFor('admin');
      expect(tokens.refresh_token).toBeTruthy();
      expect(tokens.token_type).toBe('Bearer');
    });

    it('refuses a wrong password on its sign-in page', async () => {
      await expect(
        signInOverHttp(server.baseUrl, { email: 'admin@demo.local', password: 'wrong' }),
      ).rejects.toThrow(/sign-in refused \(HTTP 401\)/);
    });

    it('stops password guessing after 10 failures for one email', async () => {
      const attempt = () => signInOverHttp(server.baseUrl, { email: 'guess@demo.local', password: 'guess' });
      for (let i = 0; i < 10; i += 1) await expect(attempt()).rejects.toThrow(/HTTP 401/);
      // The refusal says when to try again: the five-minute window.
      await expect(attempt()).rejects.toThrow(/HTTP 429, Retry-After 300\)/);
    });

    it('refuses an authorization request without PKCE', async () => {
      const url = new URL('/oidc/auth', server.baseUrl);
      url.search = new URLSearchParams({
        client_id: CLIENT_ID,
        redirect_uri: `${server.baseUrl}/auth/callback`,
        response_type: 'code',
        scope: 'openid',
        state: 'x',
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      const location = new URL(response.headers.get('location')!);
      expect(location.pathname).toBe('/auth/callback');
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    });

    it('refuses a redirect address it does not know', async () => {
      await expect(
        signInOverHttp(
          server.baseUrl,
          { email: 'admin@demo.local', password: 'admin-demo' },
          { redirectUri: 'https://evil.example/auth/callback' },
        ),
      ).rejects.toThrow(/authorize did not ask for sign-in \(HTTP 400\)/);
    });

    it('renews tokens with the refresh token and the new ID token is accepted', async () => {
      const tokens = await signInOverHttp(server.baseUrl, {
        email: 'circor@demo.local',
        password: 'circor-demo',
      });
      const response = await fetch(`${server.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: CLIENT_ID,
          refresh_token: tokens.refresh_token!,
        }).toString(),
      });
      expect(response.status).toBe(200);
      const renewed = (await response.json()) as { id_token: string };
      expect(decodeJwt(renewed.id_token).sub).toBe(decodeJwt(tokens.id_token).sub);
      const list = await server.request<Page>('GET', `${BASE}?limit=5`, undefined, {
        token: renewed.id_token,
      });
      expect(list.status).toBe(200);
    });

    it('keeps its signing keys in a private file that a restarted server reuses', async () => {
      expect(statSync(server.keysFile).mode & 0o777).toBe(0o600);
      const config = loadConfig({ PORT: new URL(server.baseUrl).port, PUBLIC_URL: server.baseUrl });
      const restarted = await createAuthSetup(config, { keysFile: server.keysFile });
      const token = (await server.tokensFor('circor')).id_token;
      const scope = await restarted.authenticate({
        headers: { authorization: `Bearer ${token}` },
        log: { info: () => undefined },
      } as never);
      expect(scope).toMatchObject({ userId: 'demo-circor', clientIds: ['circor'], isAdmin: false });
    });
  });

  describe('token checks on /api', () => {
    const refused = async (token: string | undefined, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.baseUrl}${BASE}?limit=1`, {
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return { status: response.status, body: (await response.json()) as Failure };
    };

    it('answers health without a token', async () => {
      for (const path of ['/health', '/api/demand-planning/health']) {
        expect((await server.request('GET', path, undefined, { as: 'anonymous' })).status).toBe(200);
      }
    });

    it('refuses a missing token with 401 Authentication required', async () => {
      const { status, body } = await refused(undefined);
      expect(status).toBe(401);
      expect(body).toMatchObject({
        success: false,
        data: null,
        error: 'Authentication required',
        code: 'UNAUTHENTICATED',
      });
    });

    it('refuses a header that is not a bearer token', async () => {
      const token = (await server.tokensFor('admin')).id_token;
      expect((await refused(undefined, { authorization: `Basic ${token}` })).status).toBe(401);
      expect((await refused('not-a-jwt')).status).toBe(401);
    });

    it('refuses an expired token signed with the real key', async () => {
      const token = await mintToken(server, {}, { expiresIn: -120 });
      const { status, body } = await refused(token);
      expect(status).toBe(401);
      expect(body.error).toBe('Authentication required');
    });

    it('refuses a forged token signed with another key under the real key id', async () => {
      expect((await refused(await mintToken(server, {}, { forgedKey: true }))).status).toBe(401);
    });

    it('refuses an unsigned (alg none) token', async () => {
      const real = decodeJwt((await server.tokensFor('admin')).id_token);
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(real)}.`;
      expect((await refused(unsigned)).status).toBe(401);
    });

    it('refuses a token signed with HMAC using the public key as the secret', async () => {
      const [realJwk] = (JSON.parse(readFileSync(server.keysFile, 'utf8')) as { signingKeys: JWK[] })
        .signingKeys;
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ sub: 'demo-admin', groups: ['admin'] })
        .setProtectedHeader({ alg: 'HS256', kid: realJwk!.kid! })
        .setIssuer(`${server.baseUrl}/oidc`)
        .setAudience(CLIENT_ID)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(realJwk!.n));
      expect((await refused(token)).status).toBe(401);
    });

    it('refuses a token for another audience or from another issuer', async () => {
      expect((await refused(await mintToken(server, { aud: 'another-app' }))).status).toBe(401);
      expect((await refused(await mintToken(server, { iss: 'https://evil.example/oidc' }))).status).toBe(401);
    });

    it('accepts a token it signed itself with the real key, so the refusals above are about the claims', async () => {
      const token = await mintToken(server, {});
      const response = await fetch(`${server.baseUrl}${BASE}?limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
    });

    it('refuses the opaque access token: data calls send the ID token', async () => {
      expect((await refused((await server.tokensFor('admin')).access_token)).status).toBe(401);
    });

    it('refuses a signed-in user in no group with 403 Insufficient permissions', async () => {
      const { status, body } = await server.request<Failure>('GET', BASE, undefined, { as: 'nogroup' });
      expect(status).toBe(403);
      expect(body).toMatchObject({ success: false, error: 'Insufficient permissions', code: 'FORBIDDEN' });
      const write = await server.request<Failure>(
        'PUT',
        `${BASE}/${circorRecord.PID}/${circorRecord.Time_Series_sk}`,
        { Comments: 'no group' },
        { as: 'nogroup' },
      );
      expect(write.status).toBe(403);
    });
  });

  describe('client scoping', () => {
    const recordPath = (r: DemandRecord) => `${BASE}/${r.PID}/${r.Time_Series_sk}`;

    it('lists only circor records for a circor user, whatever clientContext says', async () => {
      for (const query of ['', '&clientContext=internal', '&clientContext=admin', '&clientContext=circor']) {
        const { status, body } = await server.request<Page>('GET', `${BASE}?limit=5000${query}`, undefined, {
          as: 'circor',
        });
        expect(status).toBe(200);
        expect(body.data.count).toBeGreaterThan(0);
        expect(body.data.items.every((r) => r.PID.startsWith('CIR-'))).toBe(true);
      }
    });

    it('lists every client for an admin, and one client when the admin narrows the context', async () => {
      const all = await server.request<Page>('GET', `${BASE}?limit=5000`);
      expect(all.body.data.items.some((r) => r.PID.startsWith('CIR-'))).toBe(true);
      expect(all.body.data.items.some((r) => !r.PID.startsWith('CIR-'))).toBe(true);
      const narrowed = await server.request<Page>('GET', `${BASE}?limit=5000&clientContext=circor`);
      expect(narrowed.body.data.items.every((r) => r.PID.startsWith('CIR-'))).toBe(true);
    });

    it('hides another client’s record from a circor user on get, update and delete', async () => {
      const get = await server.request<Failure>('GET', recordPath(internalRecord), undefined, {
        as: 'circor',
      });
      expect(get.status).toBe(404);
      const update = await server.request<Failure>(
        'PUT',
        `${recordPath(internalRecord)}?clientContext=internal`,
        { Comments: 'circor was here' },
        { as: 'circor' },
      );
      expect(update.status).toBe(404);
      const remove = await server.request<Failure>('DELETE', recordPath(internalRecord), undefined, {
        as: 'circor',
      });
      expect(remove.status).toBe(404);
      const after = await server.request<{ data: DemandRecord }>('GET', recordPath(internalRecord));
      expect(after.status).toBe(200);
      expect(after.body.data.Comments).toBe(internalRecord.Comments);
      expect(after.body.data.version).toBe(internalRecord.version);
    });

    it('refuses a circor batch that touches another client’s record, changing nothing', async () => {
      const { status } = await server.request<Failure>(
        'POST',
        `${BASE}/batch`,
        {
          updates: [
            { PID: circorRecord.PID, Time_Series_sk: circorRecord.Time_Series_sk, Comments: 'batch mine' },
            {
              PID: internalRecord.PID,
              Time_Series_sk: internalRecord.Time_Series_sk,
              Comments: 'batch theirs',
            },
          ],
        },
        { as: 'circor' },
      );
      expect(status).toBe(404);
      const mine = await server.request<{ data: DemandRecord }>('GET', recordPath(circorRecord));
      expect(mine.body.data.Comments).not.toBe('batch mine');
      const theirs = await server.request<{ data: DemandRecord }>('GET', recordPath(internalRecord));
      expect(theirs.body.data.Comments).not.toBe('batch theirs');
    });

    it('refuses a circor user adding a week to another client’s product as if it did not exist', async () => {
      const { status, body } = await server.request<Failure>(
        'POST',
        BASE,
        { PID: internalRecord.PID, Time_Series_sk: '20300106', Ensemble_Fcst_Units: 5 },
        { as: 'circor' },
      );
      // The same answer as for a PID nobody has: a customer cannot probe which PIDs exist.
      expect(status).toBe(404);
      expect(body.error).toBe(
        `Product ${internalRecord.PID} is not one of your products; new products are created by an admin`,
      );
    });

    it('lets a circor user edit their own client’s record, recorded under their name', async () => {
      const { status, body } = await server.request<{ data: DemandRecord }>(
        'PUT',
        recordPath(circorRecord),
        { Comments: 'Customer view: promo in week 3' },
        { as: 'circor' },
      );
      expect(status).toBe(200);
      expect(body.data.Comments).toBe('Customer view: promo in week 3');
      expect(body.data.last_updated_by).toBe('Circor Planner');
    });
  });
});
