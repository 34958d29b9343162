import type { DataLoadJob } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { loadDataFile } from './support/follow-data-load';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * A history load of many weeks (more than a weekly load's 13): the file that breaks no rule is
 * checked in one grouped pass and its records written in one statement with the read model
 * rebuilt once for the written keys; a file with a row to refuse gets the full check. Either way
 * every kept table equals its rebuild, the same file twice changes nothing, and a refused file
 * writes nothing.
 */
describe.each(backends)('a long sales-history load on %s', (backend) => {
  let server: TestServer;
  const pids = Array.from({ length: 12 }, (_, i) => `LONG-${String(i + 1).padStart(2, '0')}`);
  /** Sundays before the current week (2026-11-15): 30 from 2026-04-19 to 2026-11-08. */
  const weeks = Array.from({ length: 30 }, (_, i) =>
    new Date(Date.UTC(2026, 3, 19 + 7 * i)).toISOString().slice(0, 10),
  );

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { products: 4, weeks: 12 },
      { env: { SORT_EXTREMES_REFRESH_MS: '0' } },
    );
    server.clock.setToday(new Date('2026-11-18T12:00:00Z'));
  });
  afterAll(async () => server?.close());

  const load = (content: string, entity = 'sales-history'): Promise<DataLoadJob> =>
    loadDataFile(server, entity, content);
  const history = (units: (pid: number, week: number) => number, from = 0) =>
    [
      'PID,Week,Units',
      ...pids.flatMap((pid, p) => weeks.slice(from).map((week, w) => `${pid},${week},${units(p, w + from)}`)),
    ].join('\n');
  const expectKeptTablesRebuilt = async () => {
    // The loaded products have no snapshots, so the accuracy sums are not theirs to change (and a
    // rebuild of the other products' float sums on PGlite may differ in the last bit, by plan).
    const checks = await keptTablesVersusRebuild(server.database.db);
    for (const check of checks.filter((c) => !/^(accuracy|exception)_/.test(c.table)))
      expect(check, check.table).toMatchObject({ differing: 0 });
  };
  const state = async () => {
    const { rows } = await sql<{ history: number; units: number; records: number; versions: number }>`
      select (select count(*)::int from sales_history where pid like 'LONG-%') as history,
        (select sum(units)::float8 from sales_history where pid like 'LONG-%') as units,
        (select count(*)::int from demand_records where pid like 'LONG-%') as records,
        (select sum(version)::int from demand_records where pid like 'LONG-%') as versions`.execute(
      server.database.db,
    );
    return rows[0]!;
  };

  it('inserts, then updates and inserts, then changes nothing, the kept tables equal to their rebuild', async () => {
    const products = await load(
      [
        'PID,Client,Business Unit,Family,Unit Cost,Unit Price',
        ...pids.map((pid, i) => `${pid},internal,Long Loads,Family ${i % 2},2,3`),
      ].join('\n'),
      'products',
    );
    expect(products.status, products.error ?? '').toBe('succeeded');

    // First load: the last 20 weeks, every key new.
    const first = await load(history((p, w) => p + w, 10));
    expect(first.status, first.error ?? '').toBe('succeeded');
    expect(first.counts).toEqual({ inserted: 12 * 20, updated: 0, unchanged: 0, refused: 0 });
    expect(await state()).toMatchObject({ history: 240, records: 240 });
    const money = await sql<{ revenue: string; cost: string }>`
      select act_rev_dlrs::text as revenue, act_bkg_cost::text as cost from demand_records
      where pid = 'LONG-02' and week_start = ${weeks[12]!}::date`.execute(server.database.db);
    // 1 + 12 units at the price of 3 and the cost of 2.
    expect(money.rows).toEqual([{ revenue: '39.00', cost: '26.00' }]);
    await expectKeptTablesRebuilt();

    // Second load: all 30 weeks, the first 10 new, half the products' later weeks corrected.
    const changed = (p: number, w: number) => (p % 2 === 0 && w >= 10 ? p + w + 100 : p + w);
    const second = await load(history(changed));
    expect(second.status, second.error ?? '').toBe('succeeded');
    expect(second.counts).toEqual({ inserted: 120, updated: 120, unchanged: 120, refused: 0 });
    expect(await state()).toMatchObject({ history: 360, records: 360 });
    const { rows: audit } = await sql<{ corrections: number }>`
      select count(*)::int as corrections from audit_log
      where pid like 'LONG-%' and field = 'Act_Bkg_Units' and source = 'data-load'`.execute(
      server.database.db,
    );
    expect(audit).toEqual([{ corrections: 120 }]);
    await expectKeptTablesRebuilt();

    // The same file again: every week unchanged, no record written.
    const before = await state();
    const third = await load(history(changed));
    expect(third.counts).toEqual({ inserted: 0, updated: 0, unchanged: 360, refused: 0 });
    expect(await state()).toEqual(before);
  });

  it('refuses a long file with a week twice through the full check, writing nothing', async () => {
    const before = await state();
    const rows = history(() => 7).split('\n');
    // Row 3 (the second data row) again at the end, and an unknown product.
    const job = await load([...rows, rows[2]!, `LONG-99,${weeks[0]!},1`].join('\n'));
    expect(job.status).toBe('refused');
    expect(job.counts).toMatchObject({ refused: 2 });
    expect(job.refusals.map((r) => [r.row, r.field])).toEqual([
      [rows.length + 1, 'Week'],
      [rows.length + 2, 'PID'],
    ]);
    expect(await state()).toEqual(before);
  });

  it('refuses an unknown product in a file in week order (every key its own) through the full check', async () => {
    const before = await state();
    const rows = weeks.flatMap((week) => [...pids, 'LONG-99'].map((pid) => `${pid},${week},2`));
    const job = await load(['PID,Week,Units', ...rows].join('\n'));
    expect(job.status).toBe('refused');
    expect(job.counts).toMatchObject({ refused: weeks.length });
    expect(job.refusals[0]).toEqual({
      row: 14,
      field: 'PID',
      reason: 'PID LONG-99 is not a product: load it with the products first',
    });
    expect(await state()).toEqual(before);
  });

  it('sums the days of a week in the one-pass check', async () => {
    const days = ['PID,Date,Units', 'LONG-01,2026-11-09,2', 'LONG-01,2026-11-12,3', 'LONG-02,2026-11-10,4'];
    const job = await load(days.join('\n'));
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(job.counts).toEqual({ inserted: 0, updated: 2, unchanged: 0, refused: 0 });
    const { rows } = await sql<{ pid: string; units: number }>`
      select pid, units from sales_history where week_start = '2026-11-08' and pid in ('LONG-01', 'LONG-02')
      order by pid`.execute(server.database.db);
    expect(rows).toEqual([
      { pid: 'LONG-01', units: 5 },
      { pid: 'LONG-02', units: 4 },
    ]);
    await expectKeptTablesRebuilt();
  });
});
