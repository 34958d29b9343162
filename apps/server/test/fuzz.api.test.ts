import {
  ZCreateDemandRecordSchema,
  ZGridQuerySchema,
  ZImportedItemSchema,
  ZListDemandRecordsQuerySchema,
} from '@ps/domain';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * Property-based fuzzing of every API route: malformed path parameters, query strings and bodies,
 * sent as an admin and as a customer (circor). Whatever is sent, the answer is never a 5xx, every
 * error is in the envelope, and a refused request changes no row. Seeded and bounded, so a run is
 * repeatable and takes about a minute on PGlite.
 */
const SEED = 20_261_122;
const RUNS_PER_ROUTE = 45;

type Route = { method: string; path: string };

/** Routes from Fastify's route tree (`printRoutes`): one line per node, four columns per level. */
function routesOf(tree: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${match[2]}`;
    stack.push(path);
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, path });
  }
  return routes;
}

const NUMBERS = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(
    1e300,
    -1e300,
    1e12,
    1e9,
    2_147_483_648,
    -1,
    -0,
    0.001,
    100.005,
    5e-324,
    Number.MAX_SAFE_INTEGER + 2,
  ),
);

/** Text that breaks things: NUL, lone surrogates, impossible dates, huge numbers, overlong strings, forged tokens. */
const NASTY_TEXT = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.constantFrom(
    '',
    '\u0000',
    '\ud800',
    '20260230',
    '2026-02-30',
    '99999999',
    '00010101',
    '1e300',
    '-1',
    '0.5',
    'NaN',
    'Infinity',
    '2147483648',
    '99999999999999999999',
    '__proto__',
    'constructor',
    'PRD-00001',
    '20261115',
    'sku',
    'none',
    "' or 1=1 --",
    '%',
    '\\',
    Buffer.from(JSON.stringify(['PRD-00001', '2026-02-30'])).toString('base64url'),
    `${Buffer.from(JSON.stringify(['PRD-00001', '2026-11-15'])).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
  ),
  fc.integer({ min: 101, max: 5000 }).map((n) => 'x'.repeat(n)),
  NUMBERS.map(String),
);

const NASTY_VALUE: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    NASTY_TEXT,
    NUMBERS,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(NASTY_TEXT, tie('value'), { maxKeys: 3 }),
  ),
})).value;

const QUERY_NAMES = [
  ...new Set([
    ...Object.keys(ZListDemandRecordsQuerySchema.shape),
    ...Object.keys(ZGridQuerySchema.shape),
    'viewLevel',
  ]),
];
const FIELD_NAMES = Object.keys(ZCreateDemandRecordSchema.shape);
const ITEM_FIELD_NAMES = Object.keys(ZImportedItemSchema.shape);

/** A query string: known and random names, each once or repeated. */
const QUERY = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), NASTY_TEXT), NASTY_TEXT), { maxLength: 5 })
  .map((pairs) => {
    const params = new URLSearchParams();
    for (const [name, value] of pairs) params.append(name, value);
    return params.toString();
  });

const VALID_CREATE = {
  PID: 'FUZZ-1',
  Time_Series_sk: '20261227',
  BU: 'Valves',
  PF: 'Ball Valves',
  Class: 'A',
  Region: 'EMEA',
  Site: 'Leeds',
  Cost: 2,
  Unit_Price: 3,
  Ensemble_Fcst_Units: 10,
};

type Item = { sku: string; category: string; businessUnit: string };

/**
 * Imported items: the seeded products as they are (so nothing to change), an unknown SKU, a nasty
 * one, each as is or with a few fields spoiled.
 */
const itemsOf = (products: readonly Item[]) =>
  fc
    .oneof(
      fc.constantFrom(...products),
      fc.record({
        sku: fc.oneof(fc.constant('FUZZ-ITEM'), NASTY_TEXT),
        category: fc.constant('Valves'),
        businessUnit: fc.constant('Flow'),
      }),
    )
    .chain((item) =>
      fc.oneof(
        fc.constant(item),
        fc
          .dictionary(fc.constantFrom(...ITEM_FIELD_NAMES), NASTY_VALUE, { minKeys: 1, maxKeys: 3 })
          .map((spoiled) => ({ ...item, ...spoiled })),
      ),
    );

/** JSON nested far deeper than any route takes, as arrays or objects. */
const DEEP_JSON = fc
  .tuple(fc.integer({ min: 65, max: 6000 }), fc.boolean())
  .map(([depth, asArrays]) =>
    asArrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/**
 * Bodies: a valid record or imported item with a few fields spoiled (to get past the first check),
 * any JSON, JSON nested too deep, or broken text.
 */
const bodiesWith = (products: readonly Item[]): fc.Arbitrary<{ text: string; type: string | undefined }> =>
  fc.oneof(
    fc
      .dictionary(fc.constantFrom(...FIELD_NAMES, 'version', 'updates'), NASTY_VALUE, {
        minKeys: 1,
        maxKeys: 3,
      })
      .chain((spoiled) =>
        fc.constantFrom({ ...VALID_CREATE, ...spoiled }, spoiled, {
          updates: [{ ...VALID_CREATE, ...spoiled }],
        }),
      )
      .map((body) => ({ text: JSON.stringify(body), type: 'application/json' })),
    itemsOf(products).map((body) => ({ text: JSON.stringify(body), type: 'application/json' })),
    NASTY_VALUE.map((body) => ({ text: JSON.stringify(body) ?? 'null', type: 'application/json' })),
    DEEP_JSON.map((text) => ({ text, type: 'application/json' })),
    fc.record({
      text: fc.oneof(NASTY_TEXT, fc.constantFrom('{', '{"a":}', '[1,', '{"__proto__":{"x":1}}')),
      type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
    }),
  );

/** A checksum of every table a request could change. */
async function dataChecksum(server: TestServer): Promise<string> {
  const tables = ['products', 'demand_records', 'audit_log', 'forecast_runs', 'app_secrets'];
  const parts = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<{ sum: string | null }>`
        select md5(string_agg(t::text, '|' order by t::text)) as sum from ${sql.table(table)} t`.execute(
        server.database.db,
      );
      return `${table}:${rows[0]?.sum ?? 'empty'}`;
    }),
  );
  return parts.join(',');
}

/** Routes whose success starts work that writes after the answer. */
const STARTS_BACKGROUND_WRITES = new Set(['/api/forecast/runs', '/api/cycle/runs']);

describe('fuzzing every route on pglite', () => {
  let server: TestServer;
  let routes: Route[];
  let bodies: ReturnType<typeof bodiesWith>;
  const tokens: Record<'admin' | 'circor', string> = { admin: '', circor: '' };

  beforeAll(async () => {
    server = await startTestServer('pglite', { products: 10, weeks: 4 });
    routes = routesOf(server.app.printRoutes({ commonPrefix: false })).filter(
      // The embedded OIDC provider (a library with its own error pages) is tested in auth tests;
      // HEAD and OPTIONS answer as GET and CORS do.
      (route) => route.path.startsWith('/api/') && !['HEAD', 'OPTIONS'].includes(route.method),
    );
    const products = await server.database.db
      .selectFrom('products')
      .select(['pid as sku', 'pf as category', 'bu as businessUnit'])
      .orderBy('pid')
      .execute();
    bodies = bodiesWith(products);
    tokens.admin = (await server.tokensFor('admin')).id_token;
    tokens.circor = (await server.tokensFor('circor')).id_token;
  });
  afterAll(async () => server?.close());

  it('finds the API routes', () => {
    expect(routes).toContainEqual({
      method: 'PUT',
      path: '/api/demand-planning/real-data/:pid/:timeSeriesSk',
    });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/forecast/runs/:id' });
    expect(routes).toContainEqual({ method: 'POST', path: '/api/demand-planning-items' });
    expect(routes.length).toBeGreaterThanOrEqual(16);
  });

  it('never answers 5xx, answers errors in the envelope, and changes nothing when refusing', async () => {
    let checksum = await dataChecksum(server);
    const counts = { requests: 0, refused: 0 };
    for (const route of routes) {
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      // A forecast run or a planning cycle started by an admin writes in the background while
      // later requests run: only the customer, who is refused, fuzzes those.
      const callers =
        route.method === 'POST' && STARTS_BACKGROUND_WRITES.has(route.path)
          ? fc.constant('circor' as const)
          : fc.constantFrom('admin' as const, 'circor' as const);
      const params = fc.array(NASTY_TEXT, { minLength: 2, maxLength: 2 });
      await fc.assert(
        fc.asyncProperty(
          callers,
          params,
          QUERY,
          hasBody ? bodies : fc.constant(undefined),
          async (caller, values, query, body) => {
            let index = 0;
            const path = route.path.replace(/:\w+/g, () => encodeURIComponent(values[index++] ?? ''));
            const response = await fetch(`${server.baseUrl}${path}${query ? `?${query}` : ''}`, {
              method: route.method,
              headers: {
                authorization: `Bearer ${tokens[caller]}`,
                ...(body?.type ? { 'content-type': body.type } : {}),
              },
              body: body?.text,
            });
            // The live-updates stream never ends by itself: its answer is whole once the headers are in.
            const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
            if (isStream) await response.body?.cancel();
            const text = isStream ? '' : await response.text();
            counts.requests += 1;
            const where = `${route.method} ${path.slice(0, 80)}?${query.slice(0, 80)} as ${caller} → ${response.status}`;
            expect(response.status, where).toBeLessThan(500);
            const now = await dataChecksum(server);
            if (response.status >= 400) {
              counts.refused += 1;
              const envelope = JSON.parse(text) as Record<string, unknown>;
              expect(envelope, where).toMatchObject({ success: false, data: null });
              expect(
                [envelope.error, envelope.message, envelope.code].map((v) => typeof v),
                where,
              ).toEqual(['string', 'string', 'string']);
              expect(now, `${where} changed data`).toBe(checksum);
            }
            checksum = now;
          },
        ),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    // Most generated requests are malformed; the few valid ones show the test reaches the service.
    expect(counts.requests).toBe(routes.length * RUNS_PER_ROUTE);
    expect(counts.refused).toBeGreaterThan(counts.requests / 2);
    // About a minute alone; the 2-core CI machine runs other test files beside it.
  }, 300_000);
});
