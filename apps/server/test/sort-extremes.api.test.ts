import {
  PERCENT_FIELDS,
  SUMMED_FIELDS,
  fieldSpecOf,
  type ClientId,
  type DemandRecord,
  type GridPage,
} from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import type { Database } from '../src/db/schema';
import type { GridFilters } from '../src/modules/planning-grid/planning-grid.sql';
import {
  pageGroupsFromRecords,
  pageSortedRecords,
} from '../src/modules/planning-grid/planning-grid.repository';
import {
  candidateQueries,
  narrowCandidates,
  sortCandidates,
  type CandidateQuery,
} from '../src/modules/planning-grid/sort-extremes.repository';
import type { Ok } from './support/api-shapes';
import { SortExtremesRefresher } from '../src/modules/planning-grid/sort-extremes-refresher';
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

  it('has the background refresher wait between batches while requests arrive, and drain at full speed when none do', async () => {
    const all = await records();
    const lastOfEach = [...new Map(all.map((r) => [r.PID, r])).values()];
    const markAll = async (base: number) => {
      const { status } = await server.request('POST', '/api/demand-planning/real-data/batch', {
        updates: lastOfEach.map((r, i) => ({
          PID: r.PID,
          Time_Series_sk: r.Time_Series_sk,
          SOP_Pln_Ovrd_Units: base + i,
        })),
      });
      expect(status).toBe(200);
      expect(await staleProducts(server)).toBe(lastOfEach.length);
    };
    const refresherWith = (waits: number[]) =>
      new SortExtremesRefresher(db(), {
        batch: 8,
        passMs: 60_000,
        busyShare: 0.25,
        // Requests arrived within the last minute: busy however slowly the machine runs the batches.
        busyMs: 60_000,
        log: { warn: () => undefined } as never,
        wait: async (ms) => void waits.push(ms),
      });
    // Busy: a wait after every full batch, three times as long as the batch took.
    await markAll(6_000_000);
    const busyWaits: number[] = [];
    const busy = refresherWith(busyWaits);
    busy.noteRequest();
    expect(await busy.refreshPass()).toBe(lastOfEach.length);
    expect(busyWaits.length).toBe(Math.floor(lastOfEach.length / 8));
    expect(busyWaits.every((ms) => ms > 0)).toBe(true);
    // Idle (no request noted): the same set drains without waiting, and the extremes are exact.
    await markAll(6_500_000);
    const idleWaits: number[] = [];
    expect(await refresherWith(idleWaits).refreshPass()).toBe(lastOfEach.length);
    expect(idleWaits).toEqual([]);
    expect(await staleProducts(server)).toBe(0);
    expect(await differencesFromRebuild()).toMatchObject({ differ: 0 });
  });

  it('has a sorted page refresh the stale products it had to read, and leave the others to the background', async () => {
    const all = await records();
    const lastOfEach = [...new Map(all.map((r) => [r.PID, r])).values()].sort((a, b) =>
      a.PID < b.PID ? -1 : 1,
    );
    const top = lastOfEach.at(-1)!;
    const save = async (units: (r: DemandRecord) => number | null) =>
      expect(
        (
          await server.request('POST', '/api/demand-planning/real-data/batch', {
            updates: lastOfEach.map((r) => ({
              PID: r.PID,
              Time_Series_sk: r.Time_Series_sk,
              SOP_Pln_Ovrd_Units: units(r),
            })),
          })
        ).status,
      ).toBe(200);
    // Earlier cases left these weeks' overrides in the millions: cleared, and refreshed.
    await save(() => null);
    await drainStale();
    // One statement over every product: the last by PID raised far above every other record,
    // the others' override set to 1 unit (most of them fall), so every product is marked.
    await save((r) => (r === top ? 9_000_000 : 1));
    // The first 20 by PID refreshed: the others' marks bound them.
    await sql`select refresh_stale_product_extremes(20)`.execute(db());
    const stale = () => staleProducts(server);
    expect(await stale()).toBe(lastOfEach.length - 20);
    const q = {
      filters: ALL_CLIENTS,
      field: 'Final_Pln_Units',
      dir: 'desc',
      drillDown: 'records',
      offset: 0,
      limit: 3,
    } as const;
    const { stalePids } = await narrowCandidates(db(), q);
    expect(stalePids).toContain(top.PID);
    expect(stalePids.length).toBeLessThan(lastOfEach.length - 20);
    const highest = { PID: top.PID, Time_Series_sk: top.Time_Series_sk };
    expect(await firstRow('viewLevel=none&drillDown=none&sortBy=Final_Pln_Units&sortDir=desc')).toMatchObject(
      highest,
    );
    // Exactly the stale products the page read were refreshed, the raised one among them.
    const left = (
      await sql<{ pid: string }>`select pid from demand_product_extremes_stale`.execute(db())
    ).rows.map((r) => r.pid);
    expect(left).toHaveLength(lastOfEach.length - 20 - stalePids.length);
    expect(left.filter((pid) => stalePids.includes(pid))).toEqual([]);
    expect(await drainStale()).toBe(left.length);
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
          await sql`select pg_advisory_xact_lock(7334, hashtext(current_schema() || '/' || ${pids[0]}))`.execute(
            refreshing,
          );
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

/** Every figure whose extremes are kept (migration 0032): the summed ones but P1/P2, both percents, the latest update. */
const KEPT_FIELDS = [
  ...SUMMED_FIELDS.filter((field) => !/^P[12]_Pub_/.test(field)),
  ...PERCENT_FIELDS,
  'last_updated_at',
];
const DRILLS = ['records', 'weekly', 'monthly', 'quarterly', 'yearly', 'none'] as const;
const ALL_CLIENTS = { clientIds: ['internal', 'circor'] as ClientId[] };

/** Rolls back whatever `work` wrote, once it has answered. */
class RolledBack<T> extends Error {
  constructor(readonly result: T) {
    super('rolled back');
  }
}
async function rolledBack<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    await db.transaction().execute(async (trx) => {
      throw new RolledBack(await work(trx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result as T;
    throw error;
  }
  throw new Error('unreachable');
}

describe.each(backends)('sort candidates match the full sort on %s', (backend) => {
  let server: TestServer;
  const db = () => server.database.db;

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: 40, weeks: 20 },
      { env: { SORT_EXTREMES_REFRESH_MS: '0' } },
    );
  });
  afterAll(async () => server?.close());

  type Page = CandidateQuery & { db: Kysely<Database> };
  /** The page as the grid reads it: records sorted whole, or a product-level roll-up. */
  const pageOf = (q: Page, candidates: string[] | null) => {
    const sort = { field: q.field, dir: q.dir };
    return q.drillDown === 'records'
      ? pageSortedRecords(q.db, { ...q, sort, candidates })
      : pageGroupsFromRecords(q.db, { ...q, viewLevel: 'sku', drillDown: q.drillDown, sort, candidates });
  };
  /** The candidates, without the page's refresh of stale products (which would move the next case). */
  const candidatesOf = async (q: Page) => (await narrowCandidates(q.db, q)).pids;

  it('gives every kept figure, both directions, every drill-down and filter the full sort’s page', async () => {
    const { rows } = await sql<{ bu: string; pf: string; region: string }>`
      select bu, pf, region from products order by pid limit 1`.execute(db());
    const [{ bu, pf, region }] = rows as [{ bu: string; pf: string; region: string }];
    const filterSets = [
      ALL_CLIENTS,
      { clientIds: ['circor'] as ClientId[] },
      { ...ALL_CLIENTS, bu: [bu] },
      { ...ALL_CLIENTS, pf: [pf] },
      { ...ALL_CLIENTS, region: [region] },
    ];
    let narrowed = 0;
    for (const [i, field] of KEPT_FIELDS.entries()) {
      for (const [j, dir] of (['desc', 'asc'] as const).entries()) {
        const drillDown = DRILLS[(i + j) % DRILLS.length]!;
        const filters = filterSets[(i + 2 * j) % filterSets.length]!;
        for (const window of [
          { offset: 0, limit: 4 },
          { offset: 5, limit: 3 },
        ]) {
          const q = { db: db(), field, dir, drillDown, filters, ...window };
          const candidates = await sortCandidates(db(), q);
          if (candidates !== null) narrowed += 1;
          const label = `${field} ${dir} ${drillDown} ${JSON.stringify(filters)} ${window.offset}`;
          expect(await pageOf(q, candidates), label).toEqual(await pageOf(q, null));
        }
      }
    }
    // Most cases narrow (some figures have too few values under a filter, and the full sort runs).
    expect(narrowed).toBeGreaterThan(KEPT_FIELDS.length * 2);
  });

  it('keeps the ties at T on both sides of a rounded cent, and the stale products whose marked bounds reach T', async () => {
    // Each product's first week carries one of these values, every other week 0: a product's
    // whole (drill-down none) is that value, its weeks' maximum and minimum that value or 0.
    const values = [
      ['100.005', '100.01'],
      ['100.004', '100.00'],
      ['100', '100.00'],
      ['99.995', '100.00'],
      ['99.9949', '99.99'],
      ['-100.005', '-100.01'],
      ['-100.004', '-100.00'],
      ['-100', '-100.00'],
      ['-99.995', '-100.00'],
      ['-99.9949', '-99.99'],
    ] as const;
    await rolledBack(db(), async (trx) => {
      const products = (
        await sql<{ pid: string; client_id: string }>`
          select pid, client_id from products order by pid collate "C"`.execute(trx)
      ).rows;
      const valueOf = new Map(products.map((p, i) => [p.pid, values[i % values.length]!]));
      // One statement over every product marks them all stale; refreshed, they keep every week 0.
      await sql`update demand_records set act_bkg_units = 0`.execute(trx);
      await sql`select refresh_stale_product_extremes(1000)`.execute(trx);
      await sql`
        update demand_records r set act_bkg_units = v.value::float8
        from unnest(${[...valueOf.keys()]}::text[], ${[...valueOf.values()].map(([raw]) => raw)}::text[]) v(pid, value)
        where r.pid = v.pid and r.week_start = (select min(x.week_start) from demand_records x where x.pid = r.pid)`.execute(
        trx,
      );
      // Some products stay stale: their kept bounds (0) say nothing of their records, their marks
      // (migration 0045) that the first week rose or fell by its value.
      await sql`select refresh_stale_product_extremes(28)`.execute(trx);
      const stale = new Set(
        (await sql<{ pid: string }>`select pid from demand_product_extremes_stale`.execute(trx)).rows.map(
          (r) => r.pid,
        ),
      );
      expect(stale.size).toBe(products.length - 28);

      let checked = 0;
      for (const drillDown of ['none', 'records'] as const)
        for (const dir of ['desc', 'asc'] as const)
          for (const filters of [ALL_CLIENTS, { clientIds: ['circor'] as ClientId[] }])
            for (const window of [
              { offset: 0, limit: 1 },
              { offset: 3, limit: 3 },
              { offset: 9, limit: 4 },
              { offset: 20, limit: 6 },
            ]) {
              const q = { db: trx, field: 'Act_Bkg_Units', dir, drillDown, filters, ...window };
              const shown = products.filter((p) => (filters.clientIds as string[]).includes(p.client_id));
              // A product's bound: its whole rounded as the grid shows it, or its best week as stored.
              const boundOf = (pid: string) => {
                const [raw, rounded] = valueOf.get(pid)!;
                if (drillDown === 'none') return Number(rounded);
                return dir === 'desc' ? Math.max(Number(raw), 0) : Math.min(Number(raw), 0);
              };
              const better = (a: number, b: number) => (dir === 'desc' ? a - b : b - a);
              // A stale product's: its kept bound (0) widened by the rise or fall its mark carries.
              const staleBoundOf = (pid: string) => {
                const raw = Number(valueOf.get(pid)![0]);
                return dir === 'desc' ? Math.max(raw, 0) : Math.min(raw, 0);
              };
              // A roll-up's T is rounded: a stale product within half a cent of it may round to it.
              const slack = drillDown === 'none' ? 0.005 : 0;
              const kept = shown.filter((p) => !stale.has(p.pid)).map((p) => boundOf(p.pid));
              const k = window.offset + window.limit;
              const t = [...kept].sort((a, b) => better(b, a))[k - 1];
              const reaches = (p: { pid: string }) =>
                stale.has(p.pid)
                  ? better(staleBoundOf(p.pid), t!) + slack >= -1e-9
                  : better(boundOf(p.pid), t!) >= 0;
              const expected =
                t === undefined
                  ? null
                  : shown
                      .filter(reaches)
                      .map((p) => p.pid)
                      .sort();
              const candidates = await candidatesOf(q);
              const label = `${drillDown} ${dir} ${filters.clientIds.join()} ${window.offset}`;
              expect(candidates && [...candidates].sort(), label).toEqual(expected);
              expect(await pageOf(q, candidates), label).toEqual(await pageOf(q, null));
              if (expected !== null) checked += 1;
            }
      expect(checked).toBeGreaterThan(12);
    });
  });

  it('gives the full sort’s page while writes of every kind leave products stale, reading only the stale ones whose bounds reach T', async () => {
    await rolledBack(db(), async (trx) => {
      await sql`select setseed(0.42)`.execute(trx);
      // Statements over every product (more than 32, so each only marks them, its bounds added to
      // the marks'): figures raised and lowered, overrides and a percent set and cleared, stamps
      // moved back, a week added to each product, a week deleted, a week moved.
      await sql`update demand_records set final_pln_units = round(final_pln_units * (0.5 + random())),
          sop_pln_ovrd_units = case when random() < 0.3 then round(random() * 500) end,
          act_bkg_cost = act_bkg_cost - 40 * random(),
          sop_pln_ovrd_percent = case when random() < 0.2 then round((random() * 60 - 30)::numeric, 2) end,
          last_updated_at = now() - random() * interval '400 days'
        where random() < 0.4`.execute(trx);
      await sql`insert into demand_records (pid, week_start, final_pln_units, act_bkg_units, rev_pln_ovrd_percent, last_updated_at)
        select pid, date '2035-01-07', round(random() * 900), 3, 12.5, now() from products`.execute(trx);
      await sql`delete from demand_records r
        where r.week_start = (select min(x.week_start) from demand_records x where x.pid = r.pid)`.execute(
        trx,
      );
      await sql`update demand_records r set week_start = date '2035-02-04'
        where r.week_start = (select max(x.week_start) from demand_records x
          where x.pid = r.pid and x.week_start < date '2035-01-01')`.execute(trx);
      const { rows } = await sql<{ stale: number; bounded: number }>`
        select count(*)::int as stale, (count(*) filter (where bounded))::int as bounded
        from demand_product_extremes_stale`.execute(trx);
      expect(rows[0]).toEqual({ stale: 40, bounded: 40 });

      const filterSets = [ALL_CLIENTS, { clientIds: ['circor'] as ClientId[] }];
      let narrowed = 0;
      for (const [i, field] of KEPT_FIELDS.entries())
        for (const [j, dir] of (['desc', 'asc'] as const).entries())
          for (const drillDown of [DRILLS[(i + j) % DRILLS.length]!, DRILLS[(i + j + 3) % DRILLS.length]!]) {
            const filters = filterSets[(i + j) % filterSets.length]!;
            const q = { db: trx, field, dir, drillDown, filters, offset: 0, limit: 3 };
            const candidates = await candidatesOf(q);
            const label = `${field} ${dir} ${drillDown} ${filters.clientIds.join()}`;
            expect(await pageOf(q, candidates), label).toEqual(await pageOf(q, null));
            if (candidates !== null && candidates.length < 40 / filters.clientIds.length) narrowed += 1;
          }
      // Every product is stale, so T comes from none and the full sort runs: nothing narrows yet.
      expect(narrowed).toBe(0);

      // Half refreshed, the other half's marks bound them: the pages narrow and stay exact.
      await sql`select refresh_stale_product_extremes(20)`.execute(trx);
      for (const [i, field] of KEPT_FIELDS.entries())
        for (const [j, dir] of (['desc', 'asc'] as const).entries())
          for (const drillDown of [DRILLS[(i + j) % DRILLS.length]!, DRILLS[(i + j + 3) % DRILLS.length]!]) {
            const q = { db: trx, field, dir, drillDown, filters: ALL_CLIENTS, offset: 0, limit: 3 };
            const { pids: candidates } = await narrowCandidates(trx, q);
            const label = `${field} ${dir} ${drillDown}`;
            expect(await pageOf(q, candidates), label).toEqual(await pageOf(q, null));
            // Narrowed below the 20 stale products plus the page's own: a stale product was left out.
            if (candidates !== null && candidates.length < 20) narrowed += 1;
          }
      expect(narrowed).toBeGreaterThan(KEPT_FIELDS.length);

      // An import's note knows no changes: its products are marked without bounds (the 20
      // still stale lose theirs), and they are read whatever their kept values.
      await sql`select note_product_extremes(array(select pid from products order by pid desc limit 33))`.execute(
        trx,
      );
      const marks = await sql<{ pid: string; bounded: boolean }>`
        select pid, bounded from demand_product_extremes_stale`.execute(trx);
      expect(marks.rows.length).toBe(33);
      expect(marks.rows.every((m) => !m.bounded)).toBe(true);
      const q = {
        db: trx,
        field: 'Final_Pln_Units',
        dir: 'desc',
        drillDown: 'weekly',
        filters: ALL_CLIENTS,
        offset: 0,
        limit: 3,
      } as const;
      const candidates = await candidatesOf(q);
      expect(candidates).toEqual(expect.arrayContaining(marks.rows.map((m) => m.pid)));
      expect(await pageOf(q, candidates)).toEqual(await pageOf(q, null));
    });
  });

  it('reads every product that ties with the K-th when more tie than the walk reads ahead (16)', async () => {
    await rolledBack(db(), async (trx) => {
      // Every product plans -1 unit in its first week, fewer than any other week: all tie at T = -1.
      await sql`update demand_records r set final_pln_units = -1
        where r.week_start = (select min(x.week_start) from demand_records x where x.pid = r.pid)`.execute(
        trx,
      );
      await sql`select refresh_stale_product_extremes(1000)`.execute(trx);
      const { rows } = await sql<{ pid: string }>`
        select pid from demand_product_extremes where drill = 'w' and final_pln_units_lo = -1`.execute(trx);
      expect(rows.length).toBeGreaterThan(2 + 16);
      for (const drillDown of ['weekly', 'records'] as const) {
        const q = {
          db: trx,
          field: 'Final_Pln_Units',
          dir: 'asc',
          drillDown,
          filters: ALL_CLIENTS,
          offset: 0,
          limit: 2,
        } as const;
        const candidates = await candidatesOf(q);
        expect(candidates && [...candidates].sort(), drillDown).toEqual(rows.map((r) => r.pid).sort());
        expect(await pageOf(q, candidates), drillDown).toEqual(await pageOf(q, null));
      }
    });
  });

  it.runIf(backend === 'postgres')(
    'walks the bound’s index in order and stops after the page’s products, however many products there are',
    async () => {
      const columns = KEPT_FIELDS.map((field) => fieldSpecOf(field)!.column!);
      await rolledBack(db(), async (trx) => {
        // 4,000 more products with kept bounds at every drill-down, so that PostgreSQL plans for
        // a table where reading every row costs far more than walking an index.
        await sql`
        insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
        select 'X' || lpad(i::text, 6, '0'), case when i % 5 = 0 then 'circor' else 'internal' end,
          'BU ' || i % 7, 'PF ' || i % 40, 'C', 'R ' || i % 4, 'S', 'E', 1, 2
        from generate_series(1, 4000) i`.execute(trx);
        await sql`
        insert into demand_product_extremes (pid, drill, ${sql.raw(columns.flatMap((c) => [`${c}_hi`, `${c}_lo`]).join(', '))})
        select 'X' || lpad(i::text, 6, '0'), d.drill, ${sql.raw(
          columns
            .map((c) =>
              c === 'last_updated_at'
                ? `now() - random() * interval '300 days', now() - random() * interval '600 days'`
                : `round((random() * 10000)::numeric, 3), round((random() * 100)::numeric, 3)`,
            )
            .join(', '),
        )}
        from generate_series(1, 4000) i, unnest('{w,m,q,y,n}'::"char"[]) d(drill)`.execute(trx);
        await sql`analyze products, demand_product_extremes, demand_product_extremes_stale`.execute(trx);

        type PlanNode = {
          'Node Type': string;
          'Relation Name'?: string;
          'Index Name'?: string;
          'Actual Rows': number;
          'Rows Removed by Filter'?: number;
          Plans?: PlanNode[];
        };
        const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
        const pages: [string, 'asc' | 'desc', CandidateQuery['drillDown'], GridFilters][] = [
          ['Final_Pln_Units', 'desc', 'monthly', ALL_CLIENTS],
          ['Act_Bkg_Cost', 'asc', 'none', { clientIds: ['circor'] as ClientId[] }],
          ['last_updated_at', 'desc', 'yearly', ALL_CLIENTS],
          ['SOP_Pln_Ovrd_Percent', 'asc', 'quarterly', { ...ALL_CLIENTS, bu: ['BU 3'] }],
          ['Delta_Prelim_to_Final_Pln_Rev_Dlrs', 'desc', 'records', { ...ALL_CLIENTS, region: ['R 1'] }],
        ];
        for (const [field, dir, drillDown, filters] of pages) {
          const q = { field, dir, drillDown, filters, offset: 100, limit: 100 };
          const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`
          explain (analyze, format json) ${candidateQueries(q)!.walk}`.execute(trx);
          // The stale products' kept rows are read by their key (none are stale here).
          const nodes = nodesOf(rows[0]!['QUERY PLAN'][0].Plan).filter(
            (node) =>
              node['Relation Name'] === 'demand_product_extremes' &&
              node['Index Name'] !== 'demand_product_extremes_pkey',
          );
          const label = `${field} ${dir} ${drillDown}`;
          const index = `demand_product_extremes_${fieldSpecOf(field)!.column}_${dir === 'desc' ? 'hi' : 'lo'}`;
          expect(
            nodes.map((node) => [node['Node Type'], node['Index Name']]),
            label,
          ).toEqual([['Index Scan', index]]);
          // It stops: after some 216 products (7 times more where a filter keeps 1 in 7), of 4,000.
          const [walked] = nodes as [PlanNode];
          expect(walked['Actual Rows'] + (walked['Rows Removed by Filter'] ?? 0), label).toBeLessThan(2_000);
        }
      });
    },
  );
});
