import type { DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * The records' roll-up trigger (migration 0025) keeps demand_week_totals and demand_product_totals
 * equal to what rebuilding them from the records gives, whatever a statement does: a batch of
 * overrides, comments only, one edit, an insert, a delete, a stamp that goes back in time, a
 * record that moves to another week.
 */
describe.each(backends)('roll-up totals on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server?.close());

  /**
   * Rows of each totals table that differ from a rebuild from the records, compared as values
   * (EXCEPT both ways, so 12.5 and 12.50 are equal), on one connection for the temporary copies.
   */
  const differencesFromRebuild = () =>
    server.database.db.transaction().execute(async (trx) => {
      await sql`create temp table kept_week on commit drop as select * from demand_week_totals`.execute(trx);
      await sql`create temp table kept_product on commit drop as select * from demand_product_totals`.execute(
        trx,
      );
      await sql`select rebuild_demand_totals()`.execute(trx);
      const { rows } = await sql<{ week: number; product: number; kept: number }>`
        select
          (select count(*) from ((select * from kept_week except select * from demand_week_totals)
            union all (select * from demand_week_totals except select * from kept_week)) d)::int as week,
          (select count(*) from ((select * from kept_product except select * from demand_product_totals)
            union all (select * from demand_product_totals except select * from kept_product)) d)::int as product,
          (select count(*) from kept_week)::int as kept`.execute(trx);
      return rows[0]!;
    });

  it('keeps the totals equal to the records after every kind of write', async () => {
    const { body } = await server.request<Ok<{ items: DemandRecord[] }>>(
      'GET',
      '/api/demand-planning/real-data?limit=5000',
    );
    const records = body.data.items;
    // A record without a revenue override yet: its slice's weighted sum gains exactly its own share.
    const first = records.find((r) => r.Rev_Pln_Ovrd_Percent === null)!;
    const slice = async () =>
      (
        await sql<{ record_count: number; rev_pct_wsum: number; rev_pct_weight: number }>`
          select t.record_count, t.rev_pct_wsum::float8 as rev_pct_wsum, t.rev_pct_weight::float8 as rev_pct_weight
          from demand_week_totals t join products p
            on (p.client_id, p.bu, p.pf, p.region) = (t.client_id, t.bu, t.pf, t.region)
          where p.pid = ${first.PID} and t.week_start = ${`${first.Time_Series_sk.slice(0, 4)}-${first.Time_Series_sk.slice(4, 6)}-${first.Time_Series_sk.slice(6)}`}::date`.execute(
          server.database.db,
        )
      ).rows[0]!;
    const before = await slice();

    // One override first, alone in its statement, so its slice and week change by its share only.
    expect(
      (
        await server.request('POST', '/api/demand-planning/real-data/batch', {
          updates: [{ PID: first.PID, Time_Series_sk: first.Time_Series_sk, Rev_Pln_Ovrd_Percent: 25 }],
        })
      ).status,
    ).toBe(200);
    // The slice and week gain the override weighted as spec §9 says: 25 × the final plan units the
    // chain now gives, else the record's actual units, else 1.
    const saved = (
      await server.request<Ok<DemandRecord>>(
        'GET',
        `/api/demand-planning/real-data/${first.PID}/${first.Time_Series_sk}`,
      )
    ).body.data;
    const weight =
      (saved.Final_Pln_Units ?? 0) > 0
        ? saved.Final_Pln_Units!
        : (saved.Act_Bkg_Units ?? 0) > 0
          ? saved.Act_Bkg_Units!
          : 1;
    const after = await slice();
    expect(after.record_count).toBe(before.record_count);
    expect(after.rev_pct_wsum - before.rev_pct_wsum).toBeCloseTo(25 * weight, 6);
    expect(after.rev_pct_weight - before.rev_pct_weight).toBeCloseTo(weight, 6);

    // Overrides on 60 other records (the plan chain changes sums and may flip a data flag).
    const overrides = records
      .slice(0, 61)
      .filter((r) => r !== first)
      .map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Rev_Pln_Ovrd_Percent: i % 2 === 0 ? 30 : 5,
      }));
    expect(
      (await server.request('POST', '/api/demand-planning/real-data/batch', { updates: overrides })).status,
    ).toBe(200);

    // Comments only, then one edit.
    const comments = records.slice(100, 140).map((r) => ({
      PID: r.PID,
      Time_Series_sk: r.Time_Series_sk,
      Comments: 'roll-up check',
    }));
    expect(
      (await server.request('POST', '/api/demand-planning/real-data/batch', { updates: comments })).status,
    ).toBe(200);
    const edited = records[200]!;
    expect(
      (
        await server.request('PUT', `/api/demand-planning/real-data/${edited.PID}/${edited.Time_Series_sk}`, {
          SOP_Pln_Ovrd_Units: 77,
        })
      ).status,
    ).toBe(200);

    // Statements no endpoint makes but the trigger must handle: data that disappears, a stamp
    // that goes back, a record moved to another week, a new record, a deleted one.
    const db = server.database.db;
    await sql`update demand_records set act_bkg_cost = null, act_rev_dlrs = null, prelim_pln_cost = null,
      prelim_pln_rev_dlrs = null, final_bk_pln_cost = null, final_pln_rev_dlrs = null
      where pid = ${records[250]!.PID}`.execute(db);
    await sql`update demand_records set last_updated_at = timestamptz '2001-01-01'
      where pid = ${records[300]!.PID}`.execute(db);
    await sql`update demand_records set week_start = date '2035-01-07'
      where pid = ${records[350]!.PID} and week_start = (select min(week_start) from demand_records where pid = ${records[350]!.PID})`.execute(
      db,
    );
    await sql`insert into demand_records (pid, week_start, act_bkg_units, act_bkg_cost, last_updated_at)
      values (${records[400]!.PID}, date '2035-01-14', 4, 17.5, now())`.execute(db);
    await sql`delete from demand_records where pid = ${records[450]!.PID}`.execute(db);

    const differences = await differencesFromRebuild();
    expect(differences.kept).toBeGreaterThan(0);
    expect(differences).toMatchObject({ week: 0, product: 0 });
  });
});
