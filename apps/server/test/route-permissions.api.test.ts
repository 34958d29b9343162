import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

/**
 * Every route states who may call it, and the access hook enforces what it states. The routes are
 * those the app really registers (collected with onRoute), so a new route is covered as it lands.
 * Access does not depend on the database engine, so this runs on PGlite only.
 */

/** A value for each path parameter any route uses; a new parameter name fails the walk until added here. */
const SAMPLE_PARAMS: Record<string, string> = {
  pid: 'PRD-00001',
  timeSeriesSk: '20261115',
  id: '1',
  viewLevel: 'sku',
  uid: 'no-such-interaction',
  currency: 'eur',
  validFrom: '2026-01-01',
  site: 'Dallas DC',
  entity: 'products',
  '*': 'x',
};

const urlOf = (path: string) =>
  path.replace(/:(\w+)|\*/g, (match: string, name: string | undefined) => {
    const value = SAMPLE_PARAMS[name ?? match];
    if (value === undefined) throw new Error(`no sample value for path parameter ${match} in ${path}`);
    return value;
  });

/** fetch cannot send these; the provider's catch-all routes, which list them, answer the other methods. */
const UNSENDABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const methodsOf = (route: RouteOptions): string[] =>
  [route.method].flat().filter((method) => !UNSENDABLE_METHODS.has(method));

describe('route permissions', () => {
  let server: TestServer;
  let webDist: string;

  const statusFor = async (method: string, path: string, caller: Caller): Promise<number> => {
    const token = caller === 'anonymous' ? undefined : (await server.tokensFor(caller)).id_token;
    const response = await fetch(`${server.baseUrl}${urlOf(path)}`, {
      method,
      redirect: 'manual',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    await response.body?.cancel();
    return response.status;
  };

  beforeAll(async () => {
    // A built web app of two files, so the static routes are walked as well.
    webDist = mkdtempSync(join(tmpdir(), 'ps-web-dist-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Planning Suite</title>');
    writeFileSync(join(webDist, 'assets', 'app.js'), 'export {};');
    server = await startTestServer('pglite', { products: 4, weeks: 4 }, { webDistDir: webDist });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('finds that every registered route declares who may call it', () => {
    const undeclared = server.routes
      .filter((route) => route.config?.access === undefined)
      .map((route) => `${methodsOf(route).join(',')} ${route.url}`);
    expect(undeclared).toEqual([]);
    // The walk saw the app's kinds of routes: API, health, provider, docs and static files.
    const urls = server.routes.map((route) => route.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/demand-planning/real-data',
        '/health',
        '/oidc/*',
        '/api/docs',
        '/index.html',
        '/assets/app.js',
      ]),
    );
  });

  it('answers 401 to anonymous callers and 403 to users without a group on every group route', async () => {
    const guarded = server.routes.filter((route) => route.config?.access !== 'public');
    expect(guarded.length).toBeGreaterThan(10);
    for (const route of guarded) {
      for (const method of methodsOf(route)) {
        const where = `${method} ${route.url}`;
        expect({ where, status: await statusFor(method, route.url, 'anonymous') }).toEqual({
          where,
          status: 401,
        });
        const status = await statusFor(method, route.url, 'nogroup');
        // A user in no group still has an account: their own settings load and save.
        if (route.config?.access === 'account')
          expect({ where, status: [401, 403].includes(status) }).toEqual({ where, status: false });
        else expect({ where, status }).toEqual({ where, status: 403 });
      }
    }
    expect(server.routes.filter((route) => route.config?.access === 'account').length).toBeGreaterThan(0);
  });

  it('refuses circor users on admin routes and lets them through on signed-in and write routes', async () => {
    for (const route of server.routes.filter((r) => r.config?.access !== 'public')) {
      for (const method of methodsOf(route)) {
        const where = `${method} ${route.url}`;
        const status = await statusFor(method, route.url, 'circor');
        if (route.config?.access === 'admin') expect({ where, status }).toEqual({ where, status: 403 });
        else expect({ where, status: [401, 403].includes(status) }).toEqual({ where, status: false });
      }
    }
  });

  it('lets admins through on every route and anyone through on public ones', async () => {
    for (const route of server.routes) {
      for (const method of methodsOf(route)) {
        const where = `${method} ${route.url}`;
        const caller = route.config?.access === 'public' ? 'anonymous' : 'admin';
        const status = await statusFor(method, route.url, caller);
        expect({ where, status: [401, 403].includes(status) }).toEqual({ where, status: false });
      }
    }
    // The walk started a forecast run as admin; let it finish before the database closes.
    await expect
      .poll(
        async () =>
          (await server.request<{ data: { status: string }[] }>('GET', '/api/forecast/runs')).body.data[0]
            ?.status,
        {
          timeout: 30_000,
        },
      )
      .not.toBe('running');
  });

  it('refuses a token without the level with the envelope, before any handler runs', async () => {
    const response = await server.request('POST', '/api/forecast/runs', undefined, { as: 'circor' });
    expect(response).toEqual({
      status: 403,
      body: {
        success: false,
        data: null,
        error: 'Insufficient permissions',
        message: 'Insufficient permissions',
        code: 'FORBIDDEN',
      },
    });
    const runs = await server.request<{ data: { requestedBy: string }[] }>('GET', '/api/forecast/runs');
    expect(runs.body.data.map((run) => run.requestedBy)).not.toContain('Circor Planner');
  });
});
