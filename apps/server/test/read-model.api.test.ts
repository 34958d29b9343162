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
    for (const table of ['demand_week_totals', 'demand_slice_totals', 'demand_annotation_digest'])
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
    const digest = await sql<{ n: number }>`select count(*)::int as n from demand_annotation_digest
      where value = 'Bulk note'`.execute(db);
    expect(digest.rows[0]!.n).toBe(1);
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
