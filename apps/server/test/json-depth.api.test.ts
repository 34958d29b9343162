import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/lib/json-body';
import type { Failure } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe.each(backends)('JSON nesting limit on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 4, weeks: 4 });
    token = (await server.tokensFor('admin')).id_token;
  });
  afterAll(async () => server?.close());

  const send = async (method: string, path: string, body: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Failure };
  };

  it('refuses a body nested 5,000 deep on every route that takes a body: 400 naming the limit', async () => {
    const bodyRoutes = server.routes
      .filter((route) => typeof route.url === 'string' && route.url.startsWith('/api/'))
      .flatMap((route) =>
        [route.method]
          .flat()
          .filter((method) => ['POST', 'PUT', 'PATCH'].includes(method))
          .map((method) => ({ method, path: route.url.replace(/:\w+/g, '1') })),
      );
    expect(bodyRoutes.map((r) => r.path)).toContain('/api/demand-planning/real-data');
    for (const { method, path } of bodyRoutes) {
      const answer = await send(method, path, nested(5000));
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 400,
        body: {
          success: false,
          code: 'VALIDATION',
          message: `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`,
        },
      });
    }
  });

  it('still parses a body at the limit, and refuses prototype poisoning as before', async () => {
    const atLimit = await send('POST', '/api/demand-planning/real-data', nested(MAX_JSON_DEPTH));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.message).not.toContain('nests deeper');
    const poisoned = await send('POST', '/api/demand-planning/real-data', '{"__proto__":{"x":1}}');
    expect(poisoned.status).toBe(400);
  });
});
