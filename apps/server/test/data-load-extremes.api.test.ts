import type { DataLoadJob } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './support/backends';
import { loadDataFile } from './support/follow-data-load';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * A weekly actuals load over many products marks their sort extremes stale with the bounds of what
 * it moved (each actual's rises and falls, the update time), added to an earlier mark's, instead
 * of unbounded marks that make every written product a candidate of every figure-sorted page; and
 * leaves every kept table equal to its rebuild.
 */
describe.each(backends)('sort extremes after a weekly actuals load on %s', (backend) => {
  let server: TestServer;
  // More products than a write refreshes at once (migration 0035), so they are marked.
  const pids = Array.from({ length: 40 }, (_, i) => `MARK-${String(i + 1).padStart(2, '0')}`);

  beforeAll(async () => {
    // No background refresher: the marks stay as the loads left them.
    server = await startTestServer(
      backend,
      { products: 4, weeks: 12 },
      { env: { SORT_EXTREMES_REFRESH_MS: '0' } },
    );
  });
  afterAll(async () => server?.close());

  const load = async (entity: string, content: string): Promise<DataLoadJob> => {
    const job = await loadDataFile(server, entity, content);
    expect(job.status, job.error ?? '').toBe('succeeded');
    return job;
  };
  const week = (units: number) =>
    ['PID,Week,Units', ...pids.map((pid) => `${pid},2026-10-25,${units}`)].join('\n');

  it('marks the written products with the bounds of the actuals moved, summed over loads', async () => {
    await load(
      'products',
      [
        'PID,Client,Business Unit,Family,Unit Cost,Unit Price',
        ...pids.map((pid) => `${pid},internal,Marks,Marked,2,3`),
      ].join('\n'),
    );
    await load('sales-history', week(5));
    await load('sales-history', week(3));
    const { rows } = await sql<{
      bounded: boolean;
      units_up: string | null;
      units_down: string | null;
      revenue_up: string | null;
      revenue_down: string | null;
      has_time: boolean;
    }>`
      select bounded, act_bkg_units_up::text as units_up, act_bkg_units_down::text as units_down,
        act_rev_dlrs_up::text as revenue_up, act_rev_dlrs_down::text as revenue_down,
        last_updated_at_hi is not null and last_updated_at_lo is not null as has_time
      from demand_product_extremes_stale where pid like 'MARK-%'`.execute(server.database.db);
    expect(rows).toHaveLength(pids.length);
    for (const row of rows) {
      // 5 units (15 of revenue at the price of 3) in, then 2 (6) out.
      expect(row).toMatchObject({ bounded: true, has_time: true });
      expect(Number(row.units_up)).toBe(5);
      expect(Number(row.units_down)).toBe(-2);
      expect(Number(row.revenue_up)).toBe(15);
      expect(Number(row.revenue_down)).toBe(-6);
    }
    // The loaded products have no snapshots, so the accuracy sums are not theirs to change (and a
    // rebuild of the other products' float sums on PGlite may differ in the last bit, by plan).
    const checks = await keptTablesVersusRebuild(server.database.db);
    for (const check of checks.filter((c) => !/^(accuracy|exception)_/.test(c.table)))
      expect(check, check.table).toMatchObject({ differing: 0 });
  });
});
