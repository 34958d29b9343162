import { healthEndpoints } from '@ps/domain';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointRoute } from '../src/lib/endpoint-route';
import { checkResponsesAgainstContracts } from '../src/lib/response-contract';
import { startTestServer, type TestServer } from './support/test-server';

type OpenApi = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { 'x-access': string; responses: Record<string, unknown>; security: unknown[] }>
  >;
};

/** The API published from the contracts: an OpenAPI document and a page (PGlite only: no data involved). */
describe('API documentation', () => {
  let server: TestServer;
  let document: OpenApi;

  beforeAll(async () => {
    server = await startTestServer('pglite', { products: 2, weeks: 2 });
    document = (await server.request<OpenApi>('GET', '/api/openapi.json', undefined, { as: 'anonymous' }))
      .body;
  });
  afterAll(() => server?.close());

  it('describes every API route with its access and responses, in OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
    const apiRoutes = server.routes.filter(
      (route) => (route.url.startsWith('/api/') || route.url === '/health') && route.method !== 'HEAD',
    );
    expect(apiRoutes.length).toBeGreaterThan(15);
    for (const route of apiRoutes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[String(route.method).toLowerCase()];
      expect(operation, `${String(route.method)} ${route.url}`).toBeDefined();
      expect(operation!['x-access']).toBe(route.config?.access);
      expect(Object.keys(operation!.responses).length).toBeGreaterThan(0);
    }
  });

  it('states the parameters, body and refusals of an endpoint', () => {
    const update = document.paths['/api/demand-planning/real-data/{pid}/{timeSeriesSk}']!.put as unknown as {
      parameters: { name: string; in: string; required: boolean }[];
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
      responses: Record<string, unknown>;
      security: unknown[];
    };
    expect(update.parameters.map(({ name, in: where, required }) => ({ name, where, required }))).toEqual([
      { name: 'pid', where: 'path', required: true },
      { name: 'timeSeriesSk', where: 'path', required: true },
    ]);
    expect(Object.keys(update.requestBody.content['application/json'].schema.properties)).toContain(
      'Rev_Pln_Ovrd_Percent',
    );
    expect(Object.keys(update.responses).sort()).toEqual(['200', '400', '401', '403']);
    expect(update.security).toEqual([{ bearer: [] }]);
    // Query parameters with a default may be left out.
    const list = document.paths['/api/forecast/runs']!.get as unknown as {
      parameters: { name: string; required: boolean }[];
    };
    expect(list.parameters).toEqual([expect.objectContaining({ name: 'limit', required: false })]);
    expect(document.paths['/health']!.get!.security).toEqual([]);
  });

  it('serves a page listing every operation, with no inline script or style', async () => {
    const response = await fetch(`${server.baseUrl}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const path of Object.keys(document.paths)) expect(html).toContain(`<code>${path}</code>`);
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son\w+=/i);
    expect(html).toContain('<link rel="stylesheet" href="/api/docs/docs.css">');
    const css = await fetch(`${server.baseUrl}/api/docs/docs.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('.operation');
  });
});

/** The test-time response check (on in every API test server) really refuses what breaks a contract. */
describe('response contract check', () => {
  const appServing = async (payload: unknown, status = 200) => {
    const app = Fastify();
    checkResponsesAgainstContracts(app);
    app.route({
      ...endpointRoute(healthEndpoints.health),
      handler: async (_request, reply) => reply.code(status).send(payload),
    });
    app.get('/uncharted', { config: { access: 'public' } }, async () => ({ anything: 1 }));
    return app;
  };
  const health = {
    status: 'ok',
    database: { status: 'up', kind: 'pglite' },
    version: '1.0.0',
    uptimeSeconds: 3,
  };

  it('lets a response that matches its contract through unchanged', async () => {
    const app = await appServing({ success: true, data: health, error: null });
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: health, error: null });
  });

  it('turns a response with a wrong field into a 500 naming the route and the field', async () => {
    const app = await appServing({ success: true, data: { ...health, uptimeSeconds: -1 }, error: null });
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'RESPONSE_CONTRACT' });
    expect(response.json<{ message: string }>().message).toMatch(
      /^GET \/health \(200\) breaks its contract: .*uptimeSeconds/,
    );
  });

  it('checks refusals against the failure envelope, and flags JSON no contract describes', async () => {
    const app = await appServing({ success: false, error: 'Nope' }, 400);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(500);
    const uncharted = await app.inject({ method: 'GET', url: '/uncharted' });
    expect(uncharted.statusCode).toBe(500);
    expect(uncharted.json<{ message: string }>().message).toContain('sends JSON that no contract describes');
  });
});
