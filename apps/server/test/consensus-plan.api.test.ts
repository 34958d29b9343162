import { CONSENSUS_PLAN_COLUMNS, type ClientId, type PlanCycle } from '@ps/domain';
import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import * as publishedPlanRows from '../src/db/migrations/0067-published-plan-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsensusPlanService } from '../src/modules/plan-cycles/consensus-plan.service';
import type { Failure, Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { TEST_ANCHOR, startTestServer, type Caller, type TestServer } from './support/test-server';

/** The first day of the anchor's quarter (2026-11-15 → 2026-10-01): the plan sent out starts there. */
const FROM_WEEK = '2026-10-01';

type Figures = { units: number; revenue: number; cost: number };
/** A plan as the test computes it: client → "pid|week" → figures. */
type PlanMap = Map<string, Figures>;

const keyOf = (pid: string, week: string) => `${pid}|${week}`;
const money = (value: number) => value.toFixed(2);

/** One CSV line split into its cells (the test data holds no quoted cells). */
const cellsOf = (line: string) => line.split(',');
/** By client, product and week (the server's order; compared here without the database's collation). */
const sorted = (lines: string[][]) =>
  [...lines].sort((a, b) => {
    for (const i of [0, 1, 2]) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  });

describe.each(backends)('the plan sent out on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 26 });
    // The seeded data sits around the anchor: the plan is sent from its quarter on.
    server.clock.setToday(TEST_ANCHOR);
  });
  afterAll(async () => server?.close());

  const download = async (format: 'csv' | 'xlsx', query = '', as: Caller = 'admin') => {
    const headers: Record<string, string> = {};
    if (as !== 'anonymous') headers.authorization = `Bearer ${(await server.tokensFor(as)).id_token}`;
    const response = await fetch(`${server.baseUrl}/api/plan-cycles/consensus-plan.${format}${query}`, {
      headers,
    });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const csv = async (query = '', as: Caller = 'admin') => {
    const { response, bytes } = await download('csv', query, as);
    expect(response.status).toBe(200);
    const lines = bytes.toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(CONSENSUS_PLAN_COLUMNS.join(','));
    return { response, rows: sorted(lines.slice(1).map(cellsOf)) };
  };
  const versions = async (as: Caller = 'admin') =>
    (await server.request<Ok<PlanCycle[]>>('GET', '/api/plan-cycles', undefined, { as })).body.data;
  /** Each client's latest version, as the list of versions says. */
  const latestOf = async () => {
    const latest = new Map<string, PlanCycle>();
    for (const version of await versions())
      if (!latest.has(version.clientId)) latest.set(version.clientId, version);
    return latest;
  };

  /** Per client, the records' P1 (what the seeded latest cycle published) from the quarter on. */
  const p1Plan = async (): Promise<Map<string, PlanMap>> =>
    planFrom(
      await sql<{
        client_id: string;
        pid: string;
        week: string;
        units: number;
        revenue: number;
        cost: number;
      }>`
        select p.client_id, r.pid, r.week_start::text as week, r.p1_pub_pln_units as units,
          coalesce(r.p1_pub_pln_rev_dlrs, 0)::float8 as revenue, coalesce(r.p1_pub_pln_cost, 0)::float8 as cost
        from demand_records r join products p on p.pid = r.pid
        where r.week_start >= ${FROM_WEEK}::date and r.p1_pub_pln_units is not null`.execute(
        server.database.db,
      ),
    );
  /** Per client, the records' Final from the quarter on (what a publish now sends). */
  const finalPlan = async (): Promise<Map<string, PlanMap>> =>
    planFrom(
      await sql<{
        client_id: string;
        pid: string;
        week: string;
        units: number;
        revenue: number;
        cost: number;
      }>`
        select p.client_id, r.pid, r.week_start::text as week, coalesce(r.final_pln_units, 0) as units,
          coalesce(r.final_pln_rev_dlrs, 0)::float8 as revenue, coalesce(r.final_bk_pln_cost, 0)::float8 as cost
        from demand_records r join products p on p.pid = r.pid
        where r.week_start >= ${FROM_WEEK}::date`.execute(server.database.db),
    );
  const planFrom = (result: {
    rows: Array<{ client_id: string; pid: string; week: string } & Figures>;
  }): Map<string, PlanMap> => {
    const plans = new Map<string, PlanMap>();
    for (const row of result.rows) {
      const plan = plans.get(row.client_id) ?? new Map<string, Figures>();
      plan.set(keyOf(row.pid, row.week), { units: row.units, revenue: row.revenue, cost: row.cost });
      plans.set(row.client_id, plan);
    }
    return plans;
  };

  /** The CSV lines a plan should be, sorted as the server sorts (client, product, week). */
  const expectedLines = (
    plans: Map<string, PlanMap>,
    latest: Map<string, PlanCycle>,
    change: (client: string, key: string) => 'upsert' | 'delete' | null,
    figuresOf: (client: string, key: string) => Figures,
  ): string[][] => {
    const lines: string[][] = [];
    const clients = [...latest.keys()].sort();
    for (const client of clients) {
      const keys = [...(plans.get(client)?.keys() ?? [])].sort();
      const version = latest.get(client)!;
      for (const key of keys) {
        const what = change(client, key);
        if (!what) continue;
        const [pid, week] = key.split('|') as [string, string];
        const figures = figuresOf(client, key);
        lines.push([
          client,
          pid,
          week,
          String(figures.units),
          money(figures.revenue),
          money(figures.cost),
          String(version.id),
          version.label,
          new Date(version.publishedAt).toISOString(),
          what,
        ]);
      }
    }
    return sorted(lines);
  };
  /** The lines of the whole plan. */
  const wholePlanLines = (plans: Map<string, PlanMap>, latest: Map<string, PlanCycle>) =>
    expectedLines(
      plans,
      latest,
      () => 'upsert',
      (client, key) => plans.get(client)!.get(key)!,
    );
  /** The lines of the changes from plan `before` to plan `after`. */
  const changeLines = (
    before: Map<string, PlanMap>,
    after: Map<string, PlanMap>,
    latest: Map<string, PlanCycle>,
  ) => {
    const union = new Map<string, PlanMap>();
    for (const plans of [before, after]) {
      for (const [client, plan] of plans) {
        const keys = union.get(client) ?? new Map<string, Figures>();
        for (const [key, figures] of plan) keys.set(key, figures);
        union.set(client, keys);
      }
    }
    return expectedLines(
      union,
      latest,
      (client, key) => {
        const old = before.get(client)?.get(key);
        const now = after.get(client)?.get(key);
        if (!now) return old ? 'delete' : null;
        const same =
          old &&
          old.units === now.units &&
          money(old.revenue) === money(now.revenue) &&
          money(old.cost) === money(now.cost);
        return same ? null : 'upsert';
      },
      (client, key) => after.get(client)?.get(key) ?? { units: 0, revenue: 0, cost: 0 },
    );
  };

  let seededPlan: Map<string, PlanMap>;
  let seededLatest: Map<string, PlanCycle>;
  /** The version the whole plan named in X-Plan-Version before any publish. */
  let firstWatermark: number;

  it("gives an existing database's latest versions their figures from P1 on migration, as the seed does", async () => {
    const db = server.database.db;
    const kept = async () => ({
      rows: (
        await sql<{ row: string }>`select t::text as row from published_plan_rows t order by 1`.execute(db)
      ).rows.map((r) => r.row),
      versions: (
        await sql<{ id: number }>`select id from plan_versions where figures_kept order by id`.execute(db)
      ).rows.map((r) => r.id),
    });
    const seeded = await kept();
    expect(seeded.versions).toHaveLength(2);
    expect(seeded.rows.length).toBeGreaterThan(100);
    await publishedPlanRows.down(db as unknown as Kysely<unknown>);
    await publishedPlanRows.up(db as unknown as Kysely<unknown>);
    expect(await kept()).toEqual(seeded);
  });

  it("sends the whole plan: each client's latest published version per product and week, from the quarter on", async () => {
    seededPlan = await p1Plan();
    seededLatest = await latestOf();
    const { response, rows } = await csv();
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="consensus-plan-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const expected = wholePlanLines(seededPlan, seededLatest);
    expect(expected.length).toBeGreaterThan(100);
    expect(new Set(expected.map((line) => line[0]))).toEqual(new Set(['circor', 'internal']));
    expect(rows).toEqual(expected);
    // The version to ask changes since next time: the latest of the clients' versions.
    const newest = [...seededLatest.values()].sort(
      (a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || b.id - a.id,
    )[0]!;
    expect(response.headers.get('x-plan-version')).toBe(String(newest.id));
    expect(response.headers.get('x-plan-published-at')).toBe(new Date(newest.publishedAt).toISOString());
    firstWatermark = newest.id;
  });

  it('reads the plan a page at a time: a small page gives the same rows', async () => {
    const service = new ConsensusPlanService(server.database.db, () => TEST_ANCHOR, 7);
    const admin = {
      userId: 'admin',
      userName: 'Admin',
      groups: ['admin'],
      clientIds: ['internal', 'circor'] as ClientId[],
      canWrite: true,
      isAdmin: true,
    };
    const plan = await service.resolve(admin, {});
    const paged: string[][] = [];
    for await (const page of service.rows(plan)) {
      expect(page.length).toBeLessThanOrEqual(7);
      for (const row of page) paged.push([row[0], row[1], row[2]]);
    }
    const { rows } = await csv();
    expect(sorted(paged)).toEqual(rows.map((row) => row.slice(0, 3)));
  });

  it('sends the same rows as an Excel workbook, numbers and dates as such, with a sheet saying what it holds', async () => {
    const { response, bytes } = await download('xlsx');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('x-plan-version')).toBe(String(firstWatermark));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Consensus Plan', 'About']);
    const sheet = book.getWorksheet('Consensus Plan')!;
    const values = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);
    expect(values(sheet.getRow(1))).toEqual([...CONSENSUS_PLAN_COLUMNS]);
    const expected = wholePlanLines(seededPlan, seededLatest);
    expect(sheet.rowCount).toBe(expected.length + 1);
    const lines: string[][] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const cells = values(row);
      expect(cells[2]).toBeInstanceOf(Date);
      expect(typeof cells[3]).toBe('number');
      expect(typeof cells[4]).toBe('number');
      const publishedAt = cells[8] as Date;
      const version = [...seededLatest.values()].find((v) => v.id === cells[6])!;
      // A date serial keeps the time to the millisecond at best.
      expect(Math.abs(publishedAt.getTime() - Date.parse(version.publishedAt))).toBeLessThan(1000);
      lines.push([
        cells[0] as string,
        cells[1] as string,
        (cells[2] as Date).toISOString().slice(0, 10),
        String(cells[3]),
        money(cells[4] as number),
        money(cells[5] as number),
        String(cells[6]),
        cells[7] as string,
        new Date(version.publishedAt).toISOString(),
        cells[9] as string,
      ]);
    });
    expect(sorted(lines)).toEqual(expected);
    const about = book.getWorksheet('About')!;
    const aboutText: string[] = [];
    about.eachRow((row) => aboutText.push(`${row.getCell(1).text}: ${row.getCell(2).text}`));
    expect(aboutText).toContain('Changes since: Nothing: the whole plan');
    expect(aboutText).toContain(`Weeks from: ${FROM_WEEK}`);
  });

  it("gives a circor user only circor's products, whatever it asks for", async () => {
    const { rows } = await csv('', 'circor');
    expect(rows).toEqual(wholePlanLines(seededPlan, seededLatest).filter((line) => line[0] === 'circor'));
    const widened = await csv('?clientContext=internal', 'circor');
    expect(widened.rows).toEqual(rows);
    const internalVersion = seededLatest.get('internal')!.id;
    const refused = await download('csv', `?sinceVersion=${internalVersion}`, 'circor');
    expect(refused.response.status).toBe(404);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const workbook = await download('xlsx', '', 'circor');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(workbook.bytes as unknown as ExcelJS.Buffer);
    const clients = new Set<unknown>();
    book.getWorksheet('Consensus Plan')!.eachRow((row, n) => n > 1 && clients.add(row.getCell(1).value));
    expect(clients).toEqual(new Set(['circor']));
    // An admin may narrow to one client.
    const narrowed = await csv('?clientContext=circor');
    expect(narrowed.rows).toEqual(rows);
  });

  it.each([
    ['?sinceVersion=abc', 'sinceVersion'],
    ['?sinceVersion=0', 'sinceVersion'],
    ['?sinceVersion=1.5', 'sinceVersion'],
    ['?since=yesterday', 'since'],
    ['?since=2026-02-30', 'since'],
    ['?since=2026-11-15T06:00', 'since'],
    ['?since=2026-11-15T25:00:00Z', 'since'],
    ['?sinceVersion=1&since=2026-11-01', 'since'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    for (const format of ['csv', 'xlsx'] as const) {
      const { response, bytes } = await download(format, query);
      expect(response.status).toBe(400);
      const body = JSON.parse(bytes.toString('utf8')) as Failure;
      expect(body).toMatchObject({ success: false, data: null, code: 'VALIDATION' });
      expect(body.error).toContain(field);
    }
  });

  it('answers 404 for an unknown version, 409 for one published before plans were kept, 401 and 403 for callers who may not', async () => {
    const unknown = await download('csv', '?sinceVersion=999999');
    expect(unknown.response.status).toBe(404);
    expect((JSON.parse(unknown.bytes.toString('utf8')) as Failure).message).toContain('Plan version 999999');
    const older = (await versions()).find(
      (v) => v.clientId === 'internal' && v.id !== seededLatest.get('internal')!.id,
    )!;
    const notKept = await download('csv', `?sinceVersion=${older.id}`);
    expect(notKept.response.status).toBe(409);
    expect((JSON.parse(notKept.bytes.toString('utf8')) as Failure).message).toContain('take the whole plan');
    // A time when an older version (without kept figures) was the latest.
    const olderTime = new Date(Date.parse(older.publishedAt) + 60_000).toISOString();
    expect((await download('csv', `?since=${olderTime}`)).response.status).toBe(409);
    expect((await download('csv', '', 'anonymous')).response.status).toBe(401);
    expect((await download('xlsx', '', 'nogroup')).response.status).toBe(403);
  });

  it('sends, after a publish, the changes since a version or a time: changed, zeroed and removed product-weeks', async () => {
    const db = server.database.db;
    // A planner's edit, a week zeroed, and a product gone from the plan.
    const { rows: weeks } = await sql<{ pid: string; week: string; client_id: string }>`
      select r.pid, r.week_start::text as week, p.client_id from demand_records r join products p on p.pid = r.pid
      where r.week_start >= ${FROM_WEEK}::date and p.client_id = 'internal' order by r.pid, r.week_start`.execute(
      db,
    );
    const [edited, zeroed] = [weeks[3]!, weeks[5]!];
    const removedPid = weeks.at(-1)!.pid;
    await sql`update demand_records set final_pln_units = 4321, final_pln_rev_dlrs = 98765.43, final_bk_pln_cost = 5432.1
      where pid = ${edited.pid} and week_start = ${edited.week}::date`.execute(db);
    await sql`update demand_records set final_pln_units = 0, final_pln_rev_dlrs = 0, final_bk_pln_cost = 0
      where pid = ${zeroed.pid} and week_start = ${zeroed.week}::date`.execute(db);
    await sql`delete from demand_records where pid = ${removedPid} and week_start >= ${FROM_WEEK}::date`.execute(
      db,
    );

    const before = seededPlan;
    const published = await server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', {
      label: 'December S&OP',
    });
    expect(published.status).toBe(201);
    const after = await finalPlan();
    const latest = await latestOf();
    expect(latest.get('internal')!.label).toBe('December S&OP');

    const changes = changeLines(before, after, latest);
    const byKey = new Map(changes.map((line) => [keyOf(line[1]!, line[2]!), line]));
    expect(byKey.get(keyOf(edited.pid, edited.week))?.slice(3, 6)).toEqual(['4321', '98765.43', '5432.10']);
    expect(byKey.get(keyOf(zeroed.pid, zeroed.week))?.slice(3, 6)).toEqual(['0', '0.00', '0.00']);
    const removed = changes.filter((line) => line[1] === removedPid);
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((line) => line[9] === 'delete' && line[3] === '0')).toBe(true);

    const sinceVersion = await csv(`?sinceVersion=${firstWatermark}`);
    expect(sinceVersion.rows).toEqual(changes);
    expect(sinceVersion.response.headers.get('content-disposition')).toContain(
      `changes-since-v${firstWatermark}`,
    );
    const newest = Math.max(...published.body.data.map((v) => v.id));
    expect(sinceVersion.response.headers.get('x-plan-version')).toBe(String(newest));
    // A time after the seeded cycles and before the publish asks the same.
    const between = new Date(Date.parse(seededLatest.get('internal')!.publishedAt) + 3_600_000).toISOString();
    expect((await csv(`?since=${encodeURIComponent(between)}`)).rows).toEqual(changes);
    // A time before any version: everything is new.
    expect((await csv('?since=2020-01-01')).rows).toEqual(wholePlanLines(after, latest));
    // The whole plan is now the publish's, without the removed product.
    const whole = await csv();
    expect(whole.rows).toEqual(wholePlanLines(after, latest));
    expect(whole.rows.some((line) => line[1] === removedPid)).toBe(false);
    // Nothing changed since the latest version, or since now.
    expect((await csv(`?sinceVersion=${newest}`)).rows).toEqual([]);
    expect(
      (await csv(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).rows,
    ).toEqual([]);

    // One more edit and publish: since the previous publish, only that week; since the seeded
    // version, the two publishes together.
    await sql`update demand_records set final_pln_units = 777, final_pln_rev_dlrs = 7770, final_bk_pln_cost = 3885
      where pid = ${edited.pid} and week_start = ${edited.week}::date`.execute(db);
    const again = await server.request<Ok<PlanCycle[]>>('POST', '/api/plan-cycles', {
      clientContext: 'internal',
    });
    expect(again.status).toBe(201);
    const third = await latestOf();
    const onlyEdit = await csv(`?sinceVersion=${newest}`);
    const version = third.get('internal')!;
    expect(onlyEdit.rows).toEqual([
      [
        'internal',
        edited.pid,
        edited.week,
        '777',
        '7770.00',
        '3885.00',
        String(version.id),
        version.label,
        new Date(version.publishedAt).toISOString(),
        'upsert',
      ],
    ]);
    expect((await csv(`?sinceVersion=${firstWatermark}`)).rows).toEqual(
      changeLines(before, await finalPlan(), third),
    );
    // A circor user asking since the internal publish is told it is not one of its versions.
    expect((await download('csv', `?sinceVersion=${version.id}`, 'circor')).response.status).toBe(404);
    const circorVersion = published.body.data.find((v) => v.clientId === 'circor')!.id;
    expect((await csv(`?sinceVersion=${circorVersion}`, 'circor')).rows).toEqual([]);
  });

  it('lists both downloads in the OpenAPI document', async () => {
    const { body } = await server.request<{
      paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>>;
    }>('GET', '/api/openapi.json');
    for (const path of ['/api/plan-cycles/consensus-plan.csv', '/api/plan-cycles/consensus-plan.xlsx']) {
      expect(body.paths[path]?.get?.parameters.map((p) => p.name).sort()).toEqual([
        'clientContext',
        'since',
        'sinceVersion',
      ]);
    }
  });
});
