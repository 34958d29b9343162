import { rollUp, type AggregatedRow } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, type Ok } from './support/api-shapes';
import { backends } from './support/backends';
import { overlapTransactions } from './support/overlapping-transactions';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type TestServer } from './support/test-server';
import { bulkWrite } from '../src/read-model';
import { importAndFollow } from './support/follow-import';
import { gridPageWithNotes } from './support/grid-page';

const LEVELS = ['category', 'business_unit'] as const;
const PERIODS = ['none', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

/**
 * Every kept table of the read-model registry (the week and slice totals, the overridden records,
 * the product totals and counts, the extremes, the accuracy sums) stays equal
 * to its rebuild after every kind of write: a batch save, an edit, a spread, an import, a publish,
 * a forecast run, a stamp that goes back, a product moved to another family and business unit, a
 * deleted product, a record moved to another week, and two transactions at once.
 * And the family and business-unit pages show what rolling the records up shows (figures, and the
 * comments, comment counts and reason codes read from the records), at every drill-down.
 */
describe.each(backends)('slice totals on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 24, weeks: 56 });
  });
  afterAll(async () => server?.close());

  /**
   * Every kept table of the read-model registry against its rebuild (the week totals from the
   * records, the slice totals from the week totals, the overridden records, …):
   * the rows each holds, and how many differ from the rebuild.
   */
  const differencesFromRecount = async () => {
    const checks = await keptTablesVersusRebuild(server.database.db);
    return {
      rows: Object.fromEntries(checks.map((c) => [c.table, c.rows])),
      differing: Object.fromEntries(checks.filter((c) => c.differing > 0).map((c) => [c.table, c.differing])),
    };
  };

  // As the grid shows a page: its rows, then the notes of its roll-up cells.
  const page = (query: string) => gridPageWithNotes(server, `${query}&limit=500`);

  const expectExact = async (step: string) => {
    const differences = await differencesFromRecount();
    for (const table of ['demand_slice_totals', 'demand_overridden_records'])
      expect(differences.rows[table], `${step}: ${table}`).toBeGreaterThan(0);
    expect(differences.differing, step).toEqual({});
    const records = await allRecords(server);
    for (const viewLevel of LEVELS)
      for (const drillDown of PERIODS) {
        const { rows, total } = await page(`viewLevel=${viewLevel}&drillDown=${drillDown}`);
        const expected = rollUp(records, viewLevel, drillDown);
        expect(total, `${step}: ${viewLevel} × ${drillDown}`).toBe(expected.length);
        // A weekly view holds more groups than a page: its first page is compared.
        expect(rows, `${step}: ${viewLevel} × ${drillDown}`).toEqual(expected.slice(0, rows.length));
        expect(rows.length).toBe(Math.min(expected.length, 500));
        expect(rows.some((row) => (row as AggregatedRow).Comments)).toBe(true);
      }
  };

  const waitFor = async (path: string, id: number) => {
    for (;;) {
      const { body } = await server.request<Ok<{ status: string }>>('GET', `${path}/${id}`);
      if (body.data.status !== 'running') return body.data.status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('equals a recount from scratch after every kind of write', async () => {
    await expectExact('seeded');
    const records = await allRecords(server);
    const db = server.database.db;

    const batch = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: records
        .filter((_, i) => i % 9 === 0)
        .slice(0, 60)
        .map((r, i) => ({
          PID: r.PID,
          Time_Series_sk: r.Time_Series_sk,
          ...(i % 2 === 0 ? { Rev_Pln_Ovrd_Percent: 12.5 } : { SOP_Pln_Ovrd_Units: 40 + i }),
          ...(i % 5 === 0 ? { Comments: i % 3 === 0 ? 'Slice shared note' : `Slice note ${i}` } : {}),
          ...(i % 7 === 0 ? { Reason_Code: 'Market Trend' } : {}),
        })),
    });
    expect(batch.status).toBe(200);
    await expectExact('batch');

    const edited = records[17]!;
    const edit = await server.request(
      'PUT',
      `/api/demand-planning/real-data/${edited.PID}/${edited.Time_Series_sk}`,
      { SOP_Pln_Ovrd_Percent: 20, Comments: '', Reason_Code: null },
    );
    expect(edit.status).toBe(200);
    await expectExact('edit');

    const overridden = (await allRecords(server))
      .filter(
        (r) =>
          r.Rev_Pln_Ovrd_Percent !== null ||
          r.Rev_Pln_Ovrd_Units !== null ||
          r.SOP_Pln_Ovrd_Percent !== null ||
          r.SOP_Pln_Ovrd_Units !== null,
      )
      .slice(0, 20);
    expect(overridden.length).toBe(20);
    const cleared = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: overridden.map((r) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Rev_Pln_Ovrd_Percent: null,
        Rev_Pln_Ovrd_Units: null,
        SOP_Pln_Ovrd_Percent: null,
        SOP_Pln_Ovrd_Units: null,
      })),
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    await expectExact('overrides cleared');

    const family = (await page('viewLevel=category&drillDown=quarterly')).rows[0] as AggregatedRow;
    const spread = await server.request('POST', '/api/demand-planning/spread', {
      viewLevel: 'category',
      drillDown: 'quarterly',
      group: family.PF,
      periodKey: family.periodKey,
      field: 'SOP_Pln_Ovrd_Units',
      value: 7000,
    });
    expect(spread.status, JSON.stringify(spread.body)).toBe(200);
    await expectExact('spread');

    const product = records[3]!;
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        `sku,category,businessUnit,overrideQ1,region\n${product.PID},${product.PF},${product.BU},1001,${product.Region}\n` +
          `SLICE-NEW-1,${product.PF},${product.BU},500,${product.Region}\n` +
          `SLICE-NEW-2,Slice New Family,Slice New BU,300,SLICE-NEW\n`,
      ]),
      'plan.csv',
    );
    // Throws unless the import succeeded.
    const imported = await importAndFollow(server.baseUrl, (await server.tokensFor('admin')).id_token, form);
    expect(imported.status).toBe(202);
    await expectExact('import');

    expect((await server.request('POST', '/api/plan-cycles', {})).status).toBe(201);
    await expectExact('publish');

    const run = await server.request<Ok<{ id: number }>>('POST', '/api/forecast/runs');
    expect(run.status).toBe(202);
    expect(await waitFor('/api/forecast/runs', run.body.data.id)).toBe('succeeded');
    await expectExact('forecast run');

    // A set-based writer's bulk write: four weeks of history for every product, one noted.
    await db.transaction().execute((trx) =>
      bulkWrite(trx, async () => {
        const { rows } = await sql<{ pid: string }>`
          insert into demand_records (pid, week_start, act_bkg_units, act_rev_dlrs, comments, last_updated_at)
          select p.pid, date '2020-01-05' + 7 * w, 5 + w, 20 + w, case when w = 2 then 'Bulk history' end, now()
          from products p cross join generate_series(0, 3) w
          returning pid`.execute(trx);
        return { pids: rows.map((r) => r.pid), weeks: { first: '2020-01-05', last: '2020-01-26' } };
      }),
    );
    await expectExact('bulk write');

    // Statements no endpoint makes: a stamp that goes back in time (the period's latest update
    // must drop with it), a product that moves to another family and business unit, one deleted
    // with its records, and a whole product's records deleted (its periods may empty).
    await sql`update demand_records set last_updated_at = timestamptz '2001-01-01'
      where pid = ${records[30]!.PID}`.execute(db);
    await sql`update demand_records set last_updated_at = timestamptz '2001-01-01'`.execute(db);
    await sql`update demand_records set last_updated_at = now() where pid = ${records[40]!.PID}`.execute(db);
    await expectExact('stamps back');
    await sql`update products set pf = 'Slice Moved Family', bu = 'Slice Moved BU' where pid = ${records[50]!.PID}`.execute(
      db,
    );
    await expectExact('product moved');
    await sql`delete from products where pid = ${records[70]!.PID}`.execute(db);
    await sql`delete from demand_records where pid = 'SLICE-NEW-2'`.execute(db);
    await expectExact('product deleted');
    // A record moves to a week in a year of its own (one without a planner's last override,
    // which holds on to its week).
    await sql`update demand_records set week_start = date '2035-01-07'
      where (pid, week_start) = (select r.pid, r.week_start from demand_records r
        where not exists (select 1 from demand_record_last_override o where (o.pid, o.week_start) = (r.pid, r.week_start))
        order by r.pid, r.week_start limit 1)`.execute(db);
    await expectExact('record moved');
  }, 300_000);

  it("shows business units by week filtered by business unit or by family with their records' notes", async () => {
    const records = await allRecords(server);
    const noted = records.find((r) => r.Comments && r.BU.trim() !== '' && r.PF.trim() !== '')!;
    for (const [filter, kept] of [
      [`bu=${encodeURIComponent(noted.BU)}`, (r: (typeof records)[number]) => r.BU === noted.BU],
      [`pf=${encodeURIComponent(noted.PF)}`, (r: (typeof records)[number]) => r.PF === noted.PF],
    ] as const) {
      const { rows } = await page(`viewLevel=business_unit&drillDown=weekly&${filter}`);
      const expected = rollUp(records.filter(kept), 'business_unit', 'weekly');
      expect(rows, filter).toEqual(expected.slice(0, rows.length));
      expect(rows.some((row) => (row as AggregatedRow).Comments)).toBe(true);
    }
  });

  it.runIf(backend === 'postgres')('stays exact when two transactions write one slice at once', async () => {
    const db = server.database.db;
    const { rows } = await sql<{ pid: string; week_start: string }>`
      select distinct on (r.week_start) r.pid, r.week_start::text as week_start
      from demand_records r join products p on p.pid = r.pid
      where (p.client_id, p.bu, p.pf, p.region) =
        (select client_id, bu, pf, region from products order by pid limit 1)
      order by r.week_start, r.pid limit 2`.execute(db);
    const [a, b] = rows as [{ pid: string; week_start: string }, { pid: string; week_start: string }];
    const write = (record: { pid: string; week_start: string }, units: number) =>
      sql`update demand_records set act_bkg_units = coalesce(act_bkg_units, 0) + ${units},
          act_rev_dlrs = coalesce(act_rev_dlrs, 0) + ${units * 3}, last_updated_at = now()
        where pid = ${record.pid} and week_start = ${record.week_start}::date`;
    // The first transaction holds its slice's periods; the second, to another week of the same
    // slice (another week row), waits for them and then adds to the committed sums.
    await overlapTransactions(
      db,
      (trx) => write(a, 11).execute(trx),
      (trx) => write(b, 13).execute(trx),
    );
    expect((await differencesFromRecount()).differing).toEqual({});
  });
});
