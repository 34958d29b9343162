import { connect } from 'node:net';
import type { DemandRecord } from '@ps/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from '../src/db/app-secrets';
import { PAGE_TOKEN_SECRET, PageTokens } from '../src/modules/demand-records/page-token';
import type { Failure } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Page = { data: { items: DemandRecord[]; nextToken: string | null } };

const BASE = '/api/demand-planning/real-data';
const NEW_PRODUCT = { BU: 'Valves', PF: 'Ball Valves', Class: 'A', Region: 'EMEA', Site: 'Leeds' };

describe.each(backends)('malformed input on %s', (backend) => {
  let server: TestServer;
  let internalPid: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    const product = await server.database.db
      .selectFrom('products')
      .select('pid')
      .where('client_id', '=', 'internal')
      .orderBy('pid')
      .executeTakeFirstOrThrow();
    internalPid = product.pid;
  });
  afterAll(async () => server?.close());

  const productExists = async (pid: string) =>
    (await server.database.db.selectFrom('products').select('pid').where('pid', '=', pid).execute()).length >
    0;

  /** Raw HTTP, for requests fetch refuses to send (over-long URLs, broken bodies). */
  const rawRequest = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      socket.write(text);
    });

  it.each([
    [{ Cost: 1e300 }, 'Cost', 'Cost must be at most 9999999999.9999'],
    [{ Unit_Price: 1e12 }, 'Unit_Price', 'Unit_Price must be at most 9999999999.9999'],
    [{ Cost: 1.23456 }, 'Cost', 'Cost must have at most 4 decimals'],
    [{ Ensemble_Fcst_Units: 1e300 }, 'Ensemble_Fcst_Units', 'Ensemble_Fcst_Units must be at most 1000000000'],
    // Each value fits, their product does not: 1e9 units × 1e9 cost is 1e18 dollars.
    [{ Cost: 1e9, Act_Bkg_Units: 1e9 }, 'Act_Bkg_Cost', 'Act_Bkg_Cost would be 100000000000000 or more'],
    // 1e9 forecast +100% is 2e9 (fits int4), +100% again is 4e9 (does not).
    [
      { Cost: 0.01, Ensemble_Fcst_Units: 1e9, Rev_Pln_Ovrd_Percent: 100, SOP_Pln_Ovrd_Percent: 100 },
      'Final_Pln_Units',
      'Final_Pln_Units would be more than a record holds (2147483647)',
    ],
  ])('refuses a create with %j: 400 naming %s, nothing stored', async (values, field, message) => {
    const pid = `OVF-${field}`;
    const { status, body } = await server.request<Failure>('POST', BASE, {
      PID: pid,
      Time_Series_sk: '20261227',
      ...NEW_PRODUCT,
      Cost: 2,
      Unit_Price: 3,
      ...values,
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, data: null, code: 'VALIDATION', details: { field } });
    expect(body.error).toContain(message);
    expect(await productExists(pid)).toBe(false);
  });

  it('refuses an update whose plan would overflow, leaving the record as it was', async () => {
    const created = await server.request<{ data: DemandRecord }>('POST', BASE, {
      PID: 'OVF-UPDATE',
      Time_Series_sk: '20261227',
      ...NEW_PRODUCT,
      Cost: 500_000,
      Unit_Price: 600_000,
      Ensemble_Fcst_Units: 10,
    });
    expect(created.status).toBe(201);
    // 1e9 units × 500000 cost is 5e14, above numeric(16,2).
    const path = `${BASE}/OVF-UPDATE/20261227`;
    const { status, body } = await server.request<Failure>('PUT', path, { Rev_Pln_Ovrd_Units: 1e9 });
    expect(status).toBe(400);
    expect(body.details?.field).toBe('Prelim_Pln_Cost');
    const after = await server.request<{ data: DemandRecord }>('GET', path);
    expect(after.body.data).toMatchObject({ Rev_Pln_Ovrd_Units: null, Prelim_Pln_Units: 10, version: 1 });
  });

  it('accepts only page tokens this server signed, from any process sharing the database', async () => {
    const first = await server.request<Page>('GET', `${BASE}?limit=2`);
    const token = first.body.data.nextToken!;
    const [payload] = token.split('.');
    const forgedDate = Buffer.from(JSON.stringify(['PRD-00001', '2026-02-30'])).toString('base64url');
    for (const bad of [
      forgedDate,
      `${forgedDate}.${token.split('.')[1]}`,
      `${payload}.AAAAAAAAAAAAAAAAAAAAAA`,
      `${payload}`,
    ]) {
      const { status, body } = await server.request<Failure>('GET', `${BASE}?nextToken=${bad}`);
      expect(status).toBe(400);
      expect(body.details?.field).toBe('nextToken');
    }
    // A second process reads the same key from app_secrets and mints a token this one accepts.
    const key = await loadOrCreateSecret(server.database.db, PAGE_TOKEN_SECRET);
    const last = first.body.data.items[1]!;
    const sk = last.Time_Series_sk;
    const weekStart = `${sk.slice(0, 4)}-${sk.slice(4, 6)}-${sk.slice(6)}`;
    expect(new PageTokens(key).encode({ pid: last.PID, weekStart })).toBe(token);
    const next = await server.request<Page>('GET', `${BASE}?limit=2&nextToken=${token}`);
    expect(next.status).toBe(200);
  });

  it.each([
    ['GET', `${BASE}?search=a%00b`, undefined, 'search'],
    ['GET', '/api/demand-planning/export.csv?search=%00', undefined, 'search'],
    ['GET', '/api/demand-planning/grid?bu=A%00', undefined, 'bu'],
    ['GET', `${BASE}/PRD%00/20261115`, undefined, 'pid'],
    ['PUT', `${BASE}/PRD-00001/20261115`, { Comments: 'a\u0000b' }, 'Comments'],
    ['PUT', `${BASE}/PRD-00001/20261115`, '{"Comments":"\\ud800"}', 'Comments'],
    ['GET', `${BASE}?limit=1&limit=2`, undefined, 'limit'],
    ['GET', '/api/demand-planning/grid?viewLevel=sku&viewLevel=none', undefined, 'viewLevel'],
    ['GET', `${BASE}?from=20260230`, undefined, 'from'],
    ['GET', '/api/forecast/runs/2147483648', undefined, 'id'],
    ['GET', '/api/forecast/runs/99999999999999999999', undefined, 'id'],
    ['GET', '/api/demand-planning/grid?offset=1e300', undefined, 'offset'],
  ])('%s %s answers 400 naming the field', async (method, path, body, field) => {
    const response = await server.request<Failure>(method, path, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, data: null, code: 'VALIDATION' });
    expect(response.body.details?.field).toBe(field);
  });

  it('answers framework errors in the envelope without echoing the request', async () => {
    const secret = 'zz-echo-me-zz';
    const cases: Array<[string, RequestInit, number, string]> = [
      [`/api/${secret}`, {}, 404, 'NOT_FOUND'],
      [`${BASE}/${secret.repeat(40)}/20261115`, {}, 414, 'URI_TOO_LONG'],
      [
        BASE,
        { method: 'POST', body: `{"${secret}`, headers: { 'content-type': 'application/json' } },
        400,
        'VALIDATION',
      ],
      [
        BASE,
        { method: 'POST', body: secret, headers: { 'content-type': `text/${secret}` } },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        BASE,
        { method: 'POST', body: '', headers: { 'content-type': 'application/json' } },
        400,
        'VALIDATION',
      ],
      [
        BASE,
        {
          method: 'POST',
          body: `"${'x'.repeat(2 * 1024 * 1024)}"`,
          headers: { 'content-type': 'application/json' },
        },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    const token = (await server.tokensFor('admin')).id_token;
    for (const [path, init, status, code] of cases) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      });
      const text = await response.text();
      expect(response.status, path.slice(0, 60)).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ success: false, data: null, code });
      expect(text).not.toContain(secret);
    }
    const overlong = await rawRequest(`GET /api/${secret}${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(overlong).toMatch(/^HTTP\/1.1 431 /);
    expect(overlong).not.toContain(secret);
    expect(JSON.parse(overlong.slice(overlong.indexOf('\r\n\r\n') + 4))).toMatchObject({
      success: false,
      code: 'HEADERS_TOO_LARGE',
    });
  });

  it('answers 404 alike for an unknown PID and another client’s, and refuses differing attributes', async () => {
    const asCircor = { as: 'circor' as const };
    const another = await server.request<Failure>(
      'POST',
      BASE,
      { PID: internalPid, Time_Series_sk: '20271226' },
      asCircor,
    );
    const unknown = await server.request<Failure>(
      'POST',
      BASE,
      { PID: 'NEVER-SEEN', Time_Series_sk: '20271226' },
      asCircor,
    );
    expect([another.status, unknown.status]).toEqual([404, 404]);
    expect(another.body.error.replace(internalPid, 'X')).toBe(unknown.body.error.replace('NEVER-SEEN', 'X'));
    // With every attribute of a new product as well: a customer creates no product, so an unknown
    // PID still answers as another client's does, and nothing is created.
    const withAttributes = (pid: string) =>
      server.request<Failure>(
        'POST',
        BASE,
        { PID: pid, Time_Series_sk: '20271226', ...NEW_PRODUCT, Cost: 1, Unit_Price: 2 },
        asCircor,
      );
    const anotherWith = await withAttributes(internalPid);
    const unknownWith = await withAttributes('NEVER-SEEN');
    expect([anotherWith.status, unknownWith.status]).toEqual([404, 404]);
    expect(anotherWith.body.error.replace(internalPid, 'X')).toBe(
      unknownWith.body.error.replace('NEVER-SEEN', 'X'),
    );
    expect(await productExists('NEVER-SEEN')).toBe(false);

    const product = await server.database.db
      .selectFrom('products')
      .selectAll()
      .where('pid', '=', internalPid)
      .executeTakeFirstOrThrow();
    for (const [field, value] of [
      ['BU', `${product.bu} Other`],
      ['Cost', product.unit_cost + 1],
      ['Site', `${product.site}x`],
    ] as const) {
      const { status, body } = await server.request<Failure>('POST', BASE, {
        PID: internalPid,
        Time_Series_sk: '20271226',
        [field]: value,
      });
      expect(status).toBe(400);
      expect(body.details?.field).toBe(field);
    }
    const same = await server.request('POST', BASE, {
      PID: internalPid,
      Time_Series_sk: '20271226',
      BU: product.bu,
      Cost: product.unit_cost,
    });
    expect(same.status).toBe(201);
  });
});
