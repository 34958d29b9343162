import type { DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Page = { success: boolean; data: { items: DemandRecord[]; count: number; nextToken: string | null } };
type One = {
  success: boolean;
  data: DemandRecord;
  error: string | null;
  code?: string;
  details?: { current?: DemandRecord };
};

const BASE = '/api/demand-planning/real-data';
const keyOf = (r: DemandRecord) => `${r.PID}|${r.Time_Series_sk}`;

describe.each(backends)('demand record API on %s', (backend) => {
  let server: TestServer;
  let all: DemandRecord[];

  beforeAll(async () => {
    server = await startTestServer(backend);
    const page = await server.request<Page>('GET', `${BASE}?limit=5000`);
    all = page.body.data.items;
  });
  afterAll(async () => server?.close());

  const future = () =>
    all.find(
      (r) =>
        r.Act_Bkg_Units === null &&
        r.Rev_Pln_Ovrd_Percent === null &&
        r.Rev_Pln_Ovrd_Units === null &&
        r.SOP_Pln_Ovrd_Units === null &&
        r.SOP_Pln_Ovrd_Percent === null &&
        (r.Ensemble_Fcst_Units ?? 0) > 20,
    )!;
  const auditRows = (pid: string, weekStart: string) =>
    server.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('pid', '=', pid)
      .where('week_start', '=', weekStart)
      .orderBy('id')
      .execute();

  it('reports health with the database up', async () => {
    for (const path of ['/health', '/api/demand-planning/health']) {
      const { status, body } = await server.request<{
        data: { status: string; database: { status: string; kind: string }; version: string };
      }>('GET', path);
      expect(status).toBe(200);
      expect(body.data.status).toBe('ok');
      expect(body.data.database).toEqual({ status: 'up', kind: backend });
      expect(body.data.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('lists every record in key order with the default limit', async () => {
    const { status, body } = await server.request<Page>('GET', BASE);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.count).toBe(40 * 12);
    expect(body.data.nextToken).toBeNull();
    const keys = body.data.items.map((r) => [r.PID, r.Time_Series_sk] as const);
    const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
    expect(keys).toEqual(sorted);
    const record = body.data.items[0]!;
    expect(record.Time_Series_sk).toMatch(/^\d{8}$/);
    expect(new Date(record.Time_Series).getUTCDay()).toBe(0);
  });

  it('pages with an opaque token that stays stable when records are inserted meanwhile', async () => {
    const first = await server.request<Page>('GET', `${BASE}?limit=100`);
    expect(first.body.data.count).toBe(100);
    const token = first.body.data.nextToken!;
    expect(token).toBeTruthy();
    const lastSeen = first.body.data.items.at(-1)!;
    // One record before the cursor (must not appear later) and one after it (must appear once).
    await server.request('POST', BASE, {
      PID: 'AAA-BEFORE',
      Time_Series_sk: '20261220',
      BU: 'Test BU',
      PF: 'Test PF',
      Class: 'C',
      Region: 'EMEA',
      Site: 'Milan DC',
      Cost: 2,
      Unit_Price: 3,
      Ensemble_Fcst_Units: 10,
    });
    await server.request('POST', BASE, {
      PID: 'ZZZ-AFTER',
      Time_Series_sk: '20261220',
      BU: 'Test BU',
      PF: 'Test PF',
      Class: 'C',
      Region: 'EMEA',
      Site: 'Milan DC',
      Cost: 2,
      Unit_Price: 3,
      Ensemble_Fcst_Units: 10,
    });
    const rest: DemandRecord[] = [];
    let next: string | null = token;
    while (next) {
      const page: { body: Page } = await server.request<Page>(
        'GET',
        `${BASE}?limit=100&nextToken=${encodeURIComponent(next)}`,
      );
      rest.push(...page.body.data.items);
      next = page.body.data.nextToken;
    }
    const seen = [...first.body.data.items, ...rest].map(keyOf);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain('AAA-BEFORE|20261220');
    expect(seen).toContain('ZZZ-AFTER|20261220');
    expect(rest.every((r) => keyOf(r) > keyOf(lastSeen))).toBe(true);
    expect(seen.length).toBe(all.length + 1);
    await server.request('DELETE', `${BASE}/AAA-BEFORE/20261220`);
    await server.request('DELETE', `${BASE}/ZZZ-AFTER/20261220`);
  });

  it('filters by business unit, region, date range and text', async () => {
    const bu = all[0]!.BU;
    const byBu = await server.request<Page>('GET', `${BASE}?bu=${encodeURIComponent(bu)}`);
    expect(byBu.body.data.count).toBe(all.filter((r) => r.BU === bu).length);
    expect(byBu.body.data.items.every((r) => r.BU === bu)).toBe(true);

    const regions = [...new Set(all.map((r) => r.Region))].slice(0, 2);
    const byRegion = await server.request<Page>(
      'GET',
      `${BASE}?region=${regions.map(encodeURIComponent).join(',')}`,
    );
    expect(byRegion.body.data.count).toBe(all.filter((r) => regions.includes(r.Region)).length);

    const byDate = await server.request<Page>('GET', `${BASE}?from=2026-11-01&to=20261115`);
    expect(new Set(byDate.body.data.items.map((r) => r.Time_Series_sk))).toEqual(
      new Set(['20261101', '20261108', '20261115']),
    );

    const pid = all[17]!.PID;
    const bySearch = await server.request<Page>('GET', `${BASE}?search=${pid.toLowerCase()}`);
    expect(bySearch.body.data.items.every((r) => r.PID === pid)).toBe(true);
    expect(bySearch.body.data.count).toBe(12);
  });

  it('lists each record exactly as reading it alone answers it', async () => {
    // A saved record carries a change time and fractional money, which the list writes as text itself.
    const record = all.filter((r) => r.Act_Bkg_Units !== null)[7]!;
    const path = `${BASE}/${record.PID}/${record.Time_Series_sk}`;
    const saved = await server.request<One>('PUT', path, {
      Rev_Pln_Ovrd_Percent: 12.5,
      Comments: 'é "quoted"',
    });
    expect(saved.status).toBe(200);
    const page = await server.request<Page>('GET', `${BASE}?pid=${record.PID}&limit=1000`);
    expect(page.body.data.items.length).toBeGreaterThan(1);
    for (const item of page.body.data.items) {
      const read = await server.request<One>('GET', `${BASE}/${item.PID}/${item.Time_Series_sk}`);
      expect(item).toEqual(read.body.data);
    }
    const listed = page.body.data.items.find((item) => keyOf(item) === keyOf(record))!;
    expect(listed).toEqual(saved.body.data);
    expect(listed.Comments).toBe('é "quoted"');
    expect(listed.last_updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('gets one record and answers 404 for an unknown key', async () => {
    const record = all[3]!;
    const found = await server.request<One>('GET', `${BASE}/${record.PID}/${record.Time_Series_sk}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual(record);
    const missing = await server.request<Failure>('GET', `${BASE}/NOPE-1/${record.Time_Series_sk}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      success: false,
      code: 'NOT_FOUND',
      error: `Demand record NOPE-1 / ${record.Time_Series_sk} was not found`,
    });
  });

  it('saves an override, recomputes the plan chain and writes audit rows', async () => {
    const record = future();
    const ensemble = record.Ensemble_Fcst_Units!;
    const { status, body } = await server.request<One>(
      'PUT',
      `${BASE}/${record.PID}/${record.Time_Series_sk}`,
      {
        Rev_Pln_Ovrd_Percent: 10,
        SOP_Pln_Ovrd_Percent: 5,
        Reason_Code: 'Market Trend',
        version: record.version,
      },
    );
    expect(status).toBe(200);
    const prelim = Math.round(ensemble * 1.1);
    const final = Math.round(prelim * 1.05);
    expect(body.data.Prelim_Pln_Units).toBe(prelim);
    expect(body.data.Final_Pln_Units).toBe(final);
    expect(body.data.Delta_Prelim_to_Final_Pln_Units).toBe(final - prelim);
    expect(body.data.Final_Bk_Pln_Cost).toBeCloseTo(final * record.Cost, 2);
    expect(body.data.version).toBe(record.version + 1);
    expect(body.data.last_updated_by).toBe('Demo Admin');
    // The answer is the record as written, the same as reading it again.
    const read = await server.request<One>('GET', `${BASE}/${record.PID}/${record.Time_Series_sk}`);
    expect(body.data).toEqual(read.body.data);
    const weekStart = `${record.Time_Series_sk.slice(0, 4)}-${record.Time_Series_sk.slice(4, 6)}-${record.Time_Series_sk.slice(6)}`;
    const audit = await auditRows(record.PID, weekStart);
    expect(audit.map((a) => [a.field, a.old_value, a.new_value])).toEqual([
      ['Rev_Pln_Ovrd_Percent', null, '10'],
      ['SOP_Pln_Ovrd_Percent', null, '5'],
      ['Reason_Code', null, 'Market Trend'],
    ]);

    // The same values again change nothing: no new version, no audit row.
    const again = await server.request<One>('PUT', `${BASE}/${record.PID}/${record.Time_Series_sk}`, {
      Rev_Pln_Ovrd_Percent: 10,
    });
    expect(again.body.data.version).toBe(record.version + 1);
    expect(await auditRows(record.PID, weekStart)).toHaveLength(3);

    // A units override wins over the percent.
    const units = await server.request<One>('PUT', `${BASE}/${record.PID}/${record.Time_Series_sk}`, {
      Rev_Pln_Ovrd_Units: 7,
    });
    expect(units.body.data.Prelim_Pln_Units).toBe(7);
    expect(units.body.data.Final_Pln_Units).toBe(Math.round(7 * 1.05));
  });

  it.runIf(backend === 'postgres')(
    'saves a record while a save in progress holds another record of its slice and week',
    async () => {
      const { rows } = await sql<{ held: string; saved: string; week: string }>`
        select a.pid as held, b.pid as saved, to_char(ra.week_start, 'YYYYMMDD') as week
        from products a
        join products b on b.client_id = a.client_id and b.bu = a.bu and b.pf = a.pf
          and b.region = a.region and b.pid > a.pid
        join demand_records ra on ra.pid = a.pid
        join demand_records rb on rb.pid = b.pid and rb.week_start = ra.week_start
        order by a.pid, b.pid, ra.week_start limit 1`.execute(server.database.db);
      const { held, saved, week } = rows[0]!;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another planner's save, between locking its record and writing it.
      const holder = server.database.db.transaction().execute(async (trx) => {
        await sql`select 1 from demand_records
          where pid = ${held} and week_start = to_date(${week}, 'YYYYMMDD') for update`.execute(trx);
        locked();
        await released;
      });
      await isLocked;
      try {
        // Waiting for the held record would end in the 10 s lock timeout's 503.
        const answer = await server.request<One>('PUT', `${BASE}/${saved}/${week}`, {
          Rev_Pln_Ovrd_Percent: 3,
        });
        expect(answer.status).toBe(200);
        expect(answer.body.data.Rev_Pln_Ovrd_Percent).toBe(3);
      } finally {
        release();
        await holder;
      }
    },
  );

  it('refuses a stale update with 409 and the current record', async () => {
    const record = all.filter((r) => r.Act_Bkg_Units === null)[5]!;
    const path = `${BASE}/${record.PID}/${record.Time_Series_sk}`;
    await server.request('PUT', path, { Comments: 'first writer', version: record.version });
    const stale = await server.request<One>('PUT', path, {
      Comments: 'second writer',
      version: record.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE');
    expect(stale.body.details?.current?.Comments).toBe('first writer');
    const now = await server.request<One>('GET', path);
    expect(now.body.data.Comments).toBe('first writer');
  });

  it.each([
    [{ Rev_Pln_Ovrd_Percent: 150 }, 'Rev_Pln_Ovrd_Percent must be at most 100'],
    [{ SOP_Pln_Ovrd_Units: -1 }, 'SOP_Pln_Ovrd_Units must be 0 or more'],
    [{ Rev_Pln_Ovrd_Units: 2.5 }, 'Rev_Pln_Ovrd_Units must be a whole number'],
    [{ Comments: 'x'.repeat(501) }, 'Comments must be at most 500 characters'],
    [{ Reason_Code: 'Hunch' }, 'Reason_Code must be one of'],
    [{ Final_Pln_Units: 3 }, 'Final_Pln_Units is not an editable field'],
    ['{not json', 'The request body is not valid JSON'],
    ['[1,2]', 'expected object'],
  ])('refuses a bad update %j with 400 naming the problem', async (body, message) => {
    const record = all[0]!;
    const { status, body: response } = await server.request<Failure>(
      'PUT',
      `${BASE}/${record.PID}/${record.Time_Series_sk}`,
      body,
    );
    expect(status).toBe(400);
    expect(response.success).toBe(false);
    expect(response.error).toContain(message);
  });

  it.each([
    [`${BASE}?limit=0`, 'limit must be at least 1'],
    [`${BASE}?limit=5001`, 'limit must be at most 5000'],
    [`${BASE}?nextToken=garbage`, 'nextToken is not a valid page token'],
    [`${BASE}?from=2026-02-30`, 'from must be a date'],
    [`${BASE}/PRD-00001/20261116`, 'timeSeriesSk must be a Sunday'],
    [`${BASE}/PRD-00001/2026111`, 'timeSeriesSk must be a date as yyyymmdd'],
  ])('refuses bad query %s with 400', async (path, message) => {
    const { status, body } = await server.request<Failure>('GET', path);
    expect(status).toBe(400);
    expect(body.error).toContain(message);
  });

  it('applies a batch in one transaction, all or nothing', async () => {
    const [a, b] = all.filter((r) => r.Act_Bkg_Units === null).slice(10, 12) as [DemandRecord, DemandRecord];
    const refused = await server.request<Failure>('POST', `${BASE}/batch`, {
      updates: [
        { PID: a.PID, Time_Series_sk: a.Time_Series_sk, Comments: 'batch A' },
        { PID: 'NOPE-9', Time_Series_sk: a.Time_Series_sk, Comments: 'batch X' },
      ],
    });
    expect(refused.status).toBe(404);
    expect(
      (await server.request<One>('GET', `${BASE}/${a.PID}/${a.Time_Series_sk}`)).body.data.Comments,
    ).toBe(a.Comments);

    const applied = await server.request<{
      data: { updatedRecords: number; changedFields: number; items: DemandRecord[] };
    }>('POST', `${BASE}/batch`, {
      updates: [
        { PID: a.PID, Time_Series_sk: a.Time_Series_sk, Comments: 'batch A', version: a.version },
        { PID: b.PID, Time_Series_sk: b.Time_Series_sk, SOP_Pln_Ovrd_Units: 42, Reason_Code: 'Other' },
      ],
    });
    expect(applied.status).toBe(200);
    expect(applied.body.data).toMatchObject({ updatedRecords: 2, changedFields: 3 });
    const bAfter = applied.body.data.items.find((r) => keyOf(r) === keyOf(b))!;
    expect(bAfter.Final_Pln_Units).toBe(42);
    expect(bAfter.Delta_Prelim_to_Final_Pln_Units).toBe(42 - bAfter.Prelim_Pln_Units!);

    const stale = await server.request<Failure>('POST', `${BASE}/batch`, {
      updates: [{ PID: a.PID, Time_Series_sk: a.Time_Series_sk, Comments: 'late', version: a.version }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE');

    const empty = await server.request<Failure>('POST', `${BASE}/batch`, { updates: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('updates must hold at least one update');
  });

  it('creates and deletes a record', async () => {
    const product = all[5]!;
    const created = await server.request<One>('POST', BASE, {
      PID: product.PID,
      Time_Series_sk: '20261227',
      Ensemble_Fcst_Units: 50,
      Rev_Pln_Ovrd_Percent: 20,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      PID: product.PID,
      BU: product.BU,
      Prelim_Pln_Units: 60,
      Final_Pln_Units: 60,
      version: 1,
    });
    const duplicate = await server.request<Failure>('POST', BASE, {
      PID: product.PID,
      Time_Series_sk: '20261227',
    });
    expect(duplicate.status).toBe(409);
    const newProduct = await server.request<Failure>('POST', BASE, {
      PID: 'NEW-1',
      Time_Series_sk: '20261227',
    });
    expect(newProduct.status).toBe(404);
    expect(newProduct.body.error).toBe(
      'Product NEW-1 was not found; a new product needs BU, PF, Class, Region, Site, Cost, Unit_Price',
    );
    const deleted = await server.request('DELETE', `${BASE}/${product.PID}/20261227`);
    expect(deleted.status).toBe(200);
    expect((await server.request('GET', `${BASE}/${product.PID}/20261227`)).status).toBe(404);
    expect((await server.request('DELETE', `${BASE}/${product.PID}/20261227`)).status).toBe(404);
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const { status, body } = await server.request<Failure>('GET', '/api/nothing-here');
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });
});
