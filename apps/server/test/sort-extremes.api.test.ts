import type { DemandRecord, GridPage } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { sortCandidates } from '../src/modules/planning-grid/sort-extremes.repository';
import type { Ok } from './support/api-shapes';
import { backends, TEST_POSTGRES_URL } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * demand_product_extremes (migration 0032) stays equal to a rebuild from the records after the
 * seed and every kind of write — batch saves, an edit, a spread, a publish, statements no endpoint
 * makes — and figure-sorted pages that it narrows follow the records' latest values.
 */
/** How many products a big write marked stale and no refresh has recomputed yet. */
async function staleProducts(server: TestServer): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from demand_product_extremes_stale`.execute(server.database.db);
  return rows[0]!.n;
}

describe.each(backends)('product sort extremes on %s', (backend) => {
  let server: TestServer;
  const db = () => server.database.db;

  beforeAll(async () => {
    // The background refresher off: these tests watch the stale set drain page by page.
    server = await startTestServer(
      backend,
      { products: 40, weeks: 20 },
      { env: { SORT_EXTREMES_REFRESH_MS: '0' } },
    );
  });
  afterAll(async () => server?.close());

  /** Rows that differ from a rebuild, compared as values (EXCEPT both ways), on one connection. */
  const differencesFromRebuild = () =>
    db()
      .transaction()
      .execute(async (trx) => {
        await sql`create temp table kept on commit drop as select * from demand_product_extremes`.execute(
          trx,
        );
        await sql`truncate demand_product_extremes`.execute(trx);
        await sql`select refresh_product_extremes(array(select distinct pid from demand_records))`.execute(
          trx,
        );
        const { rows } = await sql<{ differ: number; kept: number }>`
          select
            (select count(*) from ((select * from kept except select * from demand_product_extremes)
              union all (select * from demand_product_extremes except select * from kept)) d)::int as differ,
            (select count(*) from kept)::int as kept`.execute(trx);
        return rows[0]!;
      });

  const drainStale = async () =>
    (await sql<{ n: number }>`select refresh_stale_product_extremes(100000) as n`.execute(db())).rows[0]!.n;
  const records = async () =>
    (await server.request<Ok<{ items: DemandRecord[] }>>('GET', '/api/demand-planning/real-data?limit=5000'))
      .body.data.items;
  const firstRow = async (query: string) =>
    (await server.request<Ok<GridPage>>('GET', `/api/demand-planning/grid?${query}&limit=3`)).body.data
      .rows[0] as DemandRecord;

  it('is exact after the seed: five rows (week, month, quarter, year, whole) per product', async () => {
    expect(await differencesFromRebuild()).toEqual({ differ: 0, kept: 40 * 5 });
  });

  it('stays exact after every kind of write', async () => {
    const all = await records();
    const save = async (updates: object[]) =>
      expect((await server.request('POST', '/api/demand-planning/real-data/batch', { updates })).status).toBe(
        200,
      );
    await save(
      all.slice(0, 41).map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Rev_Pln_Ovrd_Percent: i % 2 === 0 ? 30 : 5,
      })),
    );
    // Comments only change no figure but the latest-update stamp.
    await save(
      all.slice(60, 80).map((r) => ({ PID: r.PID, Time_Series_sk: r.Time_Series_sk, Comments: 'x' })),
    );
    const edited = all[100]!;
    expect(
      (
        await server.request('PUT', `/api/demand-planning/real-data/${edited.PID}/${edited.Time_Series_sk}`, {
          SOP_Pln_Ovrd_Units: 77,
        })
      ).status,
    ).toBe(200);
    // A units override typed into a family × quarter cell, spread over its records.
    const family = (
      await server.request<Ok<GridPage>>(
        'GET',
        '/api/demand-planning/grid?viewLevel=category&drillDown=quarterly&limit=1',
      )
    ).body.data.rows[0] as { PF: string; periodKey: string; recordCount: number };
    const spread = await server.request('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'quarterly',
      group: family.PF,
      periodKey: family.periodKey,
      field: 'SOP_Pln_Ovrd_Units',
      value: family.recordCount * 3,
    });
    expect(spread.status).toBe(200);
    // A publish moves Final → P1 → P2 with the triggers off: P1/P2 are not kept, nothing differs.
    expect((await server.request('POST', '/api/plan-cycles', {})).status).toBeLessThan(300);
    // Statements no endpoint makes: a maximum that drops, a record moved to another week, a new
    // record, a product's records deleted.
    const [a, b, c, d] = [all[150]!, all[200]!, all[250]!, all[300]!];
    await sql`update demand_records set final_pln_units = 0, act_bkg_cost = null where pid = ${a.PID}`.execute(
      db(),
    );
    await sql`update demand_records set week_start = date '2035-01-07'
      where pid = ${b.PID} and week_start = (select min(week_start) from demand_records where pid = ${b.PID})`.execute(
      db(),
    );
    await sql`insert into demand_records (pid, week_start, act_bkg_units, last_updated_at)
      values (${c.PID}, date '2035-01-14', 4, now())`.execute(db());
    await sql`delete from demand_records where pid = ${d.PID}`.execute(db());

    // Stale products (none here: each statement above wrote at most 32) are refreshed first.
    expect(await drainStale()).toBe(0);
    expect(await differencesFromRebuild()).toEqual({ differ: 0, kept: 39 * 5 });
  });

  it('marks the products of a statement that wrote more than 32 stale, sorts them by their records, then refreshes them', async () => {
    const all = await records();
    const lastOfEach = [...new Map(all.map((r) => [r.PID, r])).values()];
    expect(lastOfEach.length).toBeGreaterThan(32);
    // One record per product raised far above every other, in one statement.
    const { status } = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: lastOfEach.map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        SOP_Pln_Ovrd_Units: 5_000_000 + i,
      })),
    });
    expect(status).toBe(200);
    const stale = () => staleProducts(server);
    expect(await stale()).toBe(lastOfEach.length);
    // Right before any refresh: with every product stale the extremes cannot narrow the page, so
    // every record is sorted; the page then refreshes 16 stale products (the first in PID order).
    const top = lastOfEach.at(-1)!;
    const query = 'viewLevel=none&drillDown=none&sortBy=SOP_Pln_Ovrd_Units&sortDir=desc';
    const highest = { PID: top.PID, Time_Series_sk: top.Time_Series_sk };
    expect(await firstRow(query)).toMatchObject(highest);
    expect(await stale()).toBe(lastOfEach.length - 16);
    // Now 16 refreshed products narrow the page, and the still-stale ones (the highest record's
    // among them) are read whatever their kept values say.
    expect(await firstRow(query)).toMatchObject(highest);
    expect(await stale()).toBe(lastOfEach.length - 32);
    expect(await drainStale()).toBe(lastOfEach.length - 32);
    expect(await differencesFromRebuild()).toMatchObject({ differ: 0 });
  });

  it('sorts by the latest values: a record raised to the top, then lowered, moves with them', async () => {
    const [top] = await records();
    const query = 'viewLevel=none&drillDown=none&sortBy=Final_Pln_Units&sortDir=desc';
    const edit = (units: number | null) =>
      server.request('PUT', `/api/demand-planning/real-data/${top!.PID}/${top!.Time_Series_sk}`, {
        SOP_Pln_Ovrd_Units: units,
      });
    expect((await edit(10_000_000)).status).toBe(200);
    expect(await firstRow(query)).toMatchObject({ PID: top!.PID, Time_Series_sk: top!.Time_Series_sk });
    expect(
      await firstRow('viewLevel=sku&drillDown=yearly&sortBy=Final_Pln_Units&sortDir=desc'),
    ).toMatchObject({
      PID: top!.PID,
    });
    expect((await edit(null)).status).toBe(200);
    const after = await firstRow(query);
    expect(after.Final_Pln_Units).toBeLessThan(10_000_000);
  });

  it('narrows a first page to the products that can hold it, and gives up past the products with a value', async () => {
    const filters = { clientIds: ['internal', 'circor'] as never[] };
    const page = { filters, field: 'Final_Pln_Units', dir: 'desc', drillDown: 'monthly', offset: 0 } as const;
    const narrowed = await sortCandidates(db(), { ...page, limit: 3 });
    expect(narrowed?.length).toBeGreaterThanOrEqual(3);
    expect(narrowed!.length).toBeLessThan(29);
    expect(await sortCandidates(db(), { ...page, limit: 500 })).toBeNull();
    // P1/P2 are not kept (a publish shifts them with the triggers off).
    expect(await sortCandidates(db(), { ...page, field: 'P1_Pub_Pln_Units', limit: 3 })).toBeNull();
  });

  it.runIf(backend === 'postgres')(
    'never makes a save wait for a refresh, and keeps marked what a refresh could not see',
    async () => {
      const pids = [...new Set((await records()).map((r) => r.PID))];
      expect(pids.length).toBeGreaterThan(32);
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db());
      const other = openDatabase({
        kind: 'postgres',
        url: TEST_POSTGRES_URL,
        schema: rows[0]!.schema,
        poolSize: 1,
      });
      // One statement raising each product's last week: more than 32 products, so all are marked.
      const raise = (trx: Kysely<Database>) =>
        sql`
        update demand_records r set sop_pln_ovrd_units = coalesce(r.sop_pln_ovrd_units, 0) + 1
        where r.pid = any(${pids}::text[])
          and r.week_start = (select max(x.week_start) from demand_records x where x.pid = r.pid)`.execute(
          trx,
        );
      // On the server's connection, failing instead of waiting for a lock.
      const withoutWaiting = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await sql`set local lock_timeout = '2s'`.execute(trx);
            return work(trx);
          });
      const refresh = (trx: Kysely<Database>) =>
        sql<{ n: number }>`select refresh_stale_product_extremes(1000) as n`
          .execute(trx)
          .then((r) => r.rows[0]!.n);
      try {
        await other.db.transaction().execute(async (refreshing) => {
          // A refresh under way holds its products until it commits (here: the first product).
          await sql`select pg_advisory_xact_lock(7334, hashtext(${pids[0]}))`.execute(refreshing);
          await withoutWaiting(raise);
          expect(await staleProducts(server)).toBe(pids.length);
          // Another refresh leaves the held product to it.
          expect(await withoutWaiting(refresh)).toBe(pids.length - 1);
          expect(await staleProducts(server)).toBe(1);
        });
        await withoutWaiting(raise);
        await other.db.transaction().execute(async (writer) => {
          // A save under way that marks every product again: the refresh reads the records
          // without its change, so it recomputes each product but clears none of its marks.
          await raise(writer);
          expect(await withoutWaiting(refresh)).toBe(pids.length);
          expect(await staleProducts(server)).toBe(pids.length);
        });
        expect(await staleProducts(server)).toBe(pids.length);
        expect(await drainStale()).toBe(pids.length);
        expect(await differencesFromRebuild()).toMatchObject({ differ: 0 });
      } finally {
        await other.close();
      }
    },
  );
});

describe.each(backends)('stale sort extremes refreshed in the background on %s', (backend) => {
  let server: TestServer;
  const db = () => server.database.db;

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: 40, weeks: 20 },
      { env: { SORT_EXTREMES_REFRESH_MS: '100' } },
    );
  });
  afterAll(async () => server?.close());

  it('refreshes the products a big write marked stale without any sorted page asking', async () => {
    const { items } = (
      await server.request<Ok<{ items: DemandRecord[] }>>('GET', '/api/demand-planning/real-data?limit=5000')
    ).body.data;
    const lastOfEach = [...new Map(items.map((r) => [r.PID, r])).values()];
    expect(lastOfEach.length).toBeGreaterThan(32);
    const raised = lastOfEach.at(-1)!;
    // One statement over every product: more than 32, so they are only marked stale.
    const { status } = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: lastOfEach.map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        SOP_Pln_Ovrd_Units: 7_000_000 + i,
      })),
    });
    expect(status).toBe(200);
    const stale = () => staleProducts(server);
    const deadline = Date.now() + 15_000;
    while ((await stale()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await stale()).toBe(0);
    // The kept week maximum of the raised product is the value just written.
    const { rows } = await sql<{ hi: string }>`
      select sop_pln_ovrd_units_hi::text as hi from demand_product_extremes
      where pid = ${raised.PID} and drill = 'w'`.execute(db());
    expect(Number(rows[0]!.hi)).toBe(7_000_000 + lastOfEach.length - 1);
  });
});
