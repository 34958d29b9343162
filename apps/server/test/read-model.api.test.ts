import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema';
import { bulkWrite, KEPT_TABLES } from '../src/read-model';
import { backends } from './support/backends';
import { overlapTransactions } from './support/overlapping-transactions';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * The read model's bulk write: records written with the kept-table triggers standing aside, then
 * every kept table of the registry rebuilt for the written keys. After a history load (new weeks
 * for every product, actuals rewritten, a record deleted), a write of a few columns of one product,
 * and alongside another transaction's trigger-kept edit or bulk write of the same slice, every kept
 * table equals its rebuild from the records (the registry's invariant, on both engines).
 */
describe.each(backends)('read model bulk write on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 16, weeks: 30 });
  });
  afterAll(async () => server?.close());

  const expectEveryTableRebuilt = async (step: string) => {
    const checks = await keptTablesVersusRebuild(server.database.db);
    expect(checks.map((c) => c.table).sort(), step).toEqual(KEPT_TABLES.map((t) => t.name).sort());
    for (const check of checks) expect(check, `${step}: ${check.table}`).toMatchObject({ differing: 0 });
    return new Map(checks.map((c) => [c.table, c.rows]));
  };

  const firstWeek = async () =>
    (
      await sql<{ week: string }>`select min(week_start)::text as week from demand_records`.execute(
        server.database.db,
      )
    ).rows[0]!.week;

  it('keeps every kept table equal to its rebuild after a bulk history load', async () => {
    const before = await expectEveryTableRebuilt('seeded');
    for (const table of ['demand_week_totals', 'demand_slice_totals', 'demand_overridden_records'])
      expect(before.get(table), table).toBeGreaterThan(0);
    const db = server.database.db;
    const start = await firstWeek();
    const { rows: products } = await sql<{ pid: string }>`select pid from products order by pid`.execute(db);
    const pids = products.map((p) => p.pid);
    const totalsBefore = await sql<{
      n: number;
    }>`select sum(record_count)::int as n from demand_week_totals`.execute(db);

    await db.transaction().execute((trx) =>
      bulkWrite(trx, async () => {
        // Eight weeks of history before the first for every product: actuals, a few notes and overrides.
        await sql`insert into demand_records (pid, week_start, act_bkg_units, act_bkg_cost, act_rev_dlrs,
            ensemble_fcst_units, final_pln_units, sop_pln_ovrd_percent, comments, reason_code, last_updated_at)
          select p.pid, ${start}::date - 7 * w, 10 + w, (10 + w) * 2.5, (10 + w) * 4,
            9.5 + w, 10 + w, case when w = 3 then 15 end, case when w % 4 = 0 then 'History note ' || (w / 4) end,
            case when w = 5 then 'Market Trend' end, timestamptz '2026-01-01' + w * interval '1 day'
          from products p cross join generate_series(1, 8) w`.execute(trx);
        // Actuals rewritten for half the products' existing weeks.
        await sql`update demand_records set act_bkg_units = coalesce(act_bkg_units, 0) + 1,
            act_rev_dlrs = coalesce(act_rev_dlrs, 0) + 3
          where pid in (select unnest(${pids.filter((_, i) => i % 2 === 0)}::text[]))`.execute(trx);
        await sql`delete from demand_records where pid = ${pids[1]!} and week_start = ${start}::date`.execute(
          trx,
        );
        // The triggers stood aside: the week totals still count the records as before the write.
        const during = await sql<{
          n: number;
        }>`select sum(record_count)::int as n from demand_week_totals`.execute(trx);
        expect(during.rows[0]!.n).toBe(totalsBefore.rows[0]!.n);
        return { pids };
      }),
    );
    const after = await expectEveryTableRebuilt('history load');
    expect(after.get('demand_week_totals')).toBeGreaterThan(before.get('demand_week_totals')!);
    const counted = await sql<{
      n: number;
    }>`select sum(record_count)::int as n from demand_week_totals`.execute(db);
    expect(counted.rows[0]!.n).toBe(totalsBefore.rows[0]!.n + pids.length * 8 - 1);
  });

  it('rebuilds only what a write of a few columns of one product reaches, within its weeks', async () => {
    const db = server.database.db;
    const start = await firstWeek();
    const { rows } = await sql<{ pid: string }>`select pid from products order by pid desc limit 1`.execute(
      db,
    );
    const pid = rows[0]!.pid;
    await db.transaction().execute((trx) =>
      bulkWrite(trx, async () => {
        await sql`update demand_records set comments = 'Bulk note', rev_pln_ovrd_percent = 5,
            final_pln_units = 77
          where pid = ${pid} and week_start between ${start}::date and ${start}::date + 14`.execute(trx);
        return {
          pids: [pid],
          weeks: {
            first: start,
            last: new Date(Date.parse(start) + 14 * 86_400_000).toISOString().slice(0, 10),
          },
          columns: ['comments', 'rev_pln_ovrd_percent', 'final_pln_units'],
        };
      }),
    );
    await expectEveryTableRebuilt('a few columns');
    // The three weeks written now carry an override percent: each is an overridden record.
    const overridden = await sql<{ n: number }>`select count(*)::int as n from demand_overridden_records
      where pid = ${pid} and week_start between ${start}::date and ${start}::date + 14`.execute(db);
    expect(overridden.rows[0]!.n).toBe(3);
  });

  it("takes a noted write's product totals by differences, equal to the rebuild: one week for every product, data gained and lost, new buckets", async () => {
    const db = server.database.db;
    const slice = { client_id: 'internal', bu: 'Flow', pf: 'Valves', class: 'C', region: 'EMEA' };
    const product = (pid: string) => ({
      pid,
      ...slice,
      site: 'Berlin',
      entity_type: 'Purchased',
      unit_cost: 10,
      unit_price: 15,
      rank: null,
    });
    await db
      .insertInto('products')
      .values([product('DIFF-1'), product('DIFF-2')])
      .execute();
    // DIFF-1: one record with data in March 2031 (its only one that month), one without in May, one
    // with data in July that the write leaves alone.
    await db
      .insertInto('demand_records')
      .values([
        { pid: 'DIFF-1', week_start: '2031-03-02', act_bkg_units: 4, act_rev_dlrs: 40 },
        { pid: 'DIFF-1', week_start: '2031-03-09', act_bkg_units: 0 },
        { pid: 'DIFF-1', week_start: '2031-05-04', act_bkg_units: 5 },
        { pid: 'DIFF-1', week_start: '2031-07-06', act_bkg_units: 3, act_rev_dlrs: 30 },
      ])
      .execute();
    const before = await sql<{ data_count: number; month_data_groups: number }>`
      select data_count, month_data_groups from demand_product_totals where pid = 'DIFF-1'`.execute(db);
    expect(before.rows).toEqual([{ data_count: 2, month_data_groups: 2 }]);
    const week = await firstWeek();
    await db.transaction().execute((trx) =>
      bulkWrite(trx, async () => {
        // As a weekly load notes what it writes: the updated records locked and read first.
        await sql`create temp table test_written on commit drop as
          select r.pid, r.week_start, true as was_present, r.has_data as had_data from demand_records r
          where (r.week_start = ${week}::date and r.pid not like 'DIFF-%')
            or (r.pid = 'DIFF-1' and r.week_start in ('2031-03-02', '2031-05-04'))
          order by r.pid, r.week_start for update of r`.execute(trx);
        await sql`update demand_records r set act_bkg_units = coalesce(r.act_bkg_units, 0) + 1,
            act_rev_dlrs = case when r.pid = 'DIFF-1' and r.week_start = '2031-03-02' then 0
              when r.pid = 'DIFF-1' then 50 else coalesce(r.act_rev_dlrs, 0) + 2 end
          from test_written x where r.pid = x.pid and r.week_start = x.week_start`.execute(trx);
        // New weeks: DIFF-1 in a new year and beside its July week (no data), DIFF-2 its first record.
        await sql`insert into demand_records (pid, week_start, act_bkg_units, act_rev_dlrs)
          values ('DIFF-1', '2032-01-04', 6, 60), ('DIFF-1', '2031-07-13', 2, 0),
            ('DIFF-2', '2031-03-02', 7, 0)`.execute(trx);
        await sql`insert into test_written values ('DIFF-1', '2032-01-04', false, false),
          ('DIFF-1', '2031-07-13', false, false), ('DIFF-2', '2031-03-02', false, false)`.execute(trx);
        const { rows } = await sql<{ pid: string }>`select distinct pid from test_written`.execute(trx);
        return { pids: rows.map((r) => r.pid), written: 'test_written' };
      }),
    );
    await expectEveryTableRebuilt('noted write');
    // Hand-counted: March lost its only week with data, May and January 2032 gained one each, July
    // (a new week beside one the write left) neither gained nor lost.
    const { rows } = await sql`
      select pid, record_count, data_count, month_groups, month_data_groups, quarter_groups,
        quarter_data_groups, year_groups, year_data_groups
      from demand_product_totals where pid like 'DIFF-%' order by pid`.execute(db);
    expect(rows).toEqual([
      {
        pid: 'DIFF-1',
        record_count: 6,
        data_count: 3,
        month_groups: 4,
        month_data_groups: 3,
        quarter_groups: 4,
        quarter_data_groups: 3,
        year_groups: 2,
        year_data_groups: 2,
      },
      {
        pid: 'DIFF-2',
        record_count: 1,
        data_count: 0,
        month_groups: 1,
        month_data_groups: 0,
        quarter_groups: 1,
        quarter_data_groups: 0,
        year_groups: 1,
        year_data_groups: 0,
      },
    ]);
  });

  it("recounts a noted write's accuracy for the lags its weeks reach only, equal to the rebuild", async () => {
    const db = server.database.db;
    // The latest week whose actual pairs with a snapshot at some lag, and the keys it reaches.
    const { rows: weeks } = await sql<{ week: string }>`
      select max(r.week_start)::text as week from demand_records r
      join forecast_snapshots s on s.pid = r.pid and s.snapshot_week = r.week_start - 7 * 2
      where r.act_bkg_units is not null`.execute(db);
    const week = weeks[0]!.week;
    const keys = async () =>
      (
        await sql<{ lag: number; pid: string; xmin: string; n: number }>`
          select a.lag, a.pid, a.xmin::text as xmin, a.n from accuracy_product_sums a order by a.lag, a.pid`.execute(
          db,
        )
      ).rows;
    const before = await keys();
    const { rows: reached } = await sql<{ lag: number; pid: string }>`
      select distinct l.lag, r.pid from demand_records r
      cross join generate_series(1, 13) l(lag)
      join forecast_snapshots s on s.pid = r.pid and s.snapshot_week = r.week_start - 7 * l.lag
      where r.week_start = ${week}::date`.execute(db);
    expect(reached.length).toBeGreaterThan(0);
    await db.transaction().execute((trx) =>
      bulkWrite(trx, async () => {
        await sql`create temp table test_written on commit drop as
          select r.pid, r.week_start, true as was_present, r.has_data as had_data from demand_records r
          where r.week_start = ${week}::date order by r.pid for update of r`.execute(trx);
        await sql`update demand_records r set act_bkg_units = r.act_bkg_units + 5
          from test_written x where r.pid = x.pid and r.week_start = x.week_start`.execute(trx);
        const { rows } = await sql<{ pid: string }>`select distinct pid from test_written`.execute(trx);
        return { pids: rows.map((r) => r.pid), written: 'test_written', columns: ['act_bkg_units'] };
      }),
    );
    await expectEveryTableRebuilt('accuracy of a noted write');
    const isReached = new Set(reached.map((k) => `${k.lag}|${k.pid}`));
    const after = new Map((await keys()).map((k) => [`${k.lag}|${k.pid}`, k]));
    const untouched = before.filter((k) => !isReached.has(`${k.lag}|${k.pid}`));
    // Keys the week does not reach are not rewritten (same row version); the reached ones are.
    expect(untouched.length).toBeGreaterThan(0);
    for (const k of untouched) expect(after.get(`${k.lag}|${k.pid}`)?.xmin, `${k.lag} ${k.pid}`).toBe(k.xmin);
    const rewritten = before.filter((k) => isReached.has(`${k.lag}|${k.pid}`));
    expect(rewritten.length).toBeGreaterThan(0);
    for (const k of rewritten) expect(after.get(`${k.lag}|${k.pid}`)?.xmin).not.toBe(k.xmin);
  });

  it('keeps every kept table exact after inserts of given columns: forecasts only, then a week with notes and overrides', async () => {
    const db = server.database.db;
    const { rows } = await sql<{ pid: string }>`select pid from products order by pid limit 3`.execute(db);
    const pids = rows.map((r) => r.pid);
    const overriddenRows = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from demand_overridden_records`.execute(db))
        .rows[0]!.n;
    const overriddenBefore = await overriddenRows();
    const insert = (week: string, columns: string[], values: string) =>
      db.transaction().execute((trx) =>
        bulkWrite(trx, async () => {
          await sql`insert into demand_records (pid, week_start, ${sql.raw(columns.join(', '))})
            select p, ${week}::date, ${sql.raw(values)} from unnest(${pids}::text[]) p`.execute(trx);
          return { pids, weeks: { first: week, last: week }, columns, inserts: true };
        }),
      );
    // A rolled week: a forecast and its plan, nothing the overridden records or accuracy hold.
    await insert(
      '2041-01-06',
      ['ensemble_fcst_units', 'final_pln_units', 'final_pln_rev_dlrs'],
      '12, 12, 48',
    );
    await expectEveryTableRebuilt('forecast weeks inserted');
    expect(await overriddenRows()).toBe(overriddenBefore);
    // Inserted notes and overrides reach the tables that hold only records with them.
    await insert(
      '2041-01-13',
      ['ensemble_fcst_units', 'comments', 'rev_pln_ovrd_percent', 'act_bkg_units'],
      `5, 'Inserted note ' || p, 10, 4`,
    );
    await expectEveryTableRebuilt('noted weeks inserted');
    expect(await overriddenRows()).toBe(overriddenBefore + pids.length);
  });

  it('refuses nothing and rebuilds nothing for an empty write', async () => {
    await server.database.db
      .transaction()
      .execute((trx) => bulkWrite(trx, () => Promise.resolve({ pids: [] })));
    await expectEveryTableRebuilt('empty write');
  });

  it.runIf(backend === 'postgres')(
    "stays exact beside another transaction's edit or bulk write of the same slice",
    async () => {
      const db = server.database.db;
      const { rows } = await sql<{ pid: string; week_start: string }>`
        select r.pid, r.week_start::text as week_start
        from demand_records r join products p on p.pid = r.pid
        where (p.client_id, p.bu, p.pf, p.region) =
          (select client_id, bu, pf, region from products order by pid limit 1)
        order by r.week_start, r.pid limit 2`.execute(db);
      const [a, b] = rows as [{ pid: string; week_start: string }, { pid: string; week_start: string }];
      const edit =
        (record: { pid: string; week_start: string }, units: number) => (trx: Transaction<Database>) =>
          sql`update demand_records set act_bkg_units = coalesce(act_bkg_units, 0) + ${units},
            act_rev_dlrs = coalesce(act_rev_dlrs, 0) + ${units * 3}, comments = 'Edit ' || ${units}::text,
            last_updated_at = now()
          where pid = ${record.pid} and week_start = ${record.week_start}::date`.execute(trx);
      const bulk =
        (record: { pid: string; week_start: string }, units: number) => (trx: Transaction<Database>) =>
          bulkWrite(trx, async () => {
            await edit(record, units)(trx);
            // A new week for the product: a week row of the slice the other transaction may create too.
            await sql`insert into demand_records (pid, week_start, act_bkg_units, last_updated_at)
            values (${record.pid}, date '2040-01-01' + ${units}::int, ${units}, now())`.execute(trx);
            return { pids: [record.pid] };
          });
      await overlapTransactions(db, bulk(a, 11), edit(b, 13));
      await expectEveryTableRebuilt('bulk write, then an edit');
      await overlapTransactions(db, edit(b, 17), bulk(a, 19));
      await expectEveryTableRebuilt('an edit, then a bulk write');
      await overlapTransactions(db, bulk(a, 23), bulk(b, 29));
      await expectEveryTableRebuilt('two bulk writes');
    },
  );

  it('keeps every kept table exact when a product moves or goes after a bulk write', async () => {
    const db = server.database.db;
    const { rows } = await sql<{ pid: string }>`select pid from products order by pid limit 2`.execute(db);
    await sql`update products set bu = 'Moved BU', pf = 'Moved Family' where pid = ${rows[0]!.pid}`.execute(
      db,
    );
    await expectEveryTableRebuilt('product moved');
    await sql`delete from products where pid = ${rows[1]!.pid}`.execute(db);
    await expectEveryTableRebuilt('product deleted');
  });
});
