import type { DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Ok<T> = { success: true; data: T };

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

  /** Both totals tables as sorted JSON lines, so that any differing value shows in the diff. */
  const totals = async () => {
    const db = server.database.db;
    const week = await sql<{ row: string }>`
      select row_to_json(t)::text as row from demand_week_totals t
      order by client_id, bu, pf, region, week_start`.execute(db);
    const product = await sql<{ row: string }>`
      select row_to_json(t)::text as row from demand_product_totals t order by pid`.execute(db);
    return { week: week.rows.map((r) => r.row), product: product.rows.map((r) => r.row) };
  };

  const rebuilt = async () => {
    await sql`select rebuild_demand_totals()`.execute(server.database.db);
    return totals();
  };

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

    // Overrides on 60 records (the plan chain changes sums and may flip a record's data flag).
    const overrides = [first, ...records.slice(0, 60).filter((r) => r !== first)].map((r, i) => ({
      PID: r.PID,
      Time_Series_sk: r.Time_Series_sk,
      Rev_Pln_Ovrd_Percent: i % 2 === 0 ? 25 : -100,
    }));
    expect(
      (await server.request('POST', '/api/demand-planning/real-data/batch', { updates: overrides })).status,
    ).toBe(200);
    // The first record's slice and week gain its override weighted as spec §9 says: 25 × the final
    // plan units the chain now gives, else its actual units, else 1.
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

    const kept = await totals();
    expect(kept.week.length).toBeGreaterThan(0);
    const truth = await rebuilt();
    expect(kept.week).toEqual(truth.week);
    expect(kept.product).toEqual(truth.product);
  });
});
