import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_TABLES } from '../src/read-model';
import { allRecords } from './support/api-shapes';
import { backends } from './support/backends';
import { keptTablesVersusRebuild } from './support/read-model-invariant';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * Saves that change only notes (comments, reason codes) skip the week totals' paired sums and only
 * move their weeks' latest stamp (migration 0078). Every kept table still equals its rebuild: after
 * notes-only batches, after a batch mixing notes with overrides, and after a single notes save.
 */
describe.each(backends)('notes-only saves on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { products: 12, weeks: 30 });
  });
  afterAll(async () => server?.close());

  const expectKeptTablesRebuilt = async (step: string) => {
    const checks = await keptTablesVersusRebuild(server.database.db);
    expect(checks.map((c) => c.table).sort(), step).toEqual(KEPT_TABLES.map((t) => t.name).sort());
    for (const check of checks) expect(check, `${step}: ${check.table}`).toMatchObject({ differing: 0 });
  };
  const latestStamp = async () =>
    (
      await sql<{ latest: Date }>`select max(last_updated_at) as latest from demand_week_totals`.execute(
        server.database.db,
      )
    ).rows[0]!.latest;

  it('keeps every kept table equal to its rebuild, the latest stamp included', async () => {
    await expectKeptTablesRebuilt('seeded');
    const records = (await allRecords(server)).filter((r) => r.Act_Bkg_Units === null);
    const before = await latestStamp();

    const notes = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: records.slice(0, 40).map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Comments: `Notes-only save ${i}`,
        ...(i % 3 === 0 ? { Reason_Code: 'Market Trend' } : {}),
      })),
    });
    expect(notes.status).toBe(200);
    await expectKeptTablesRebuilt('notes-only batch');
    expect((await latestStamp()).getTime()).toBeGreaterThan(new Date(before).getTime());

    // Notes and overrides in one statement: the overridden records are summed, the others stamped.
    const mixed = await server.request('POST', '/api/demand-planning/real-data/batch', {
      updates: records.slice(20, 60).map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        ...(i % 2 === 0 ? { SOP_Pln_Ovrd_Units: 100 + i } : { Comments: `Mixed save ${i}` }),
      })),
    });
    expect(mixed.status).toBe(200);
    await expectKeptTablesRebuilt('mixed batch');

    const one = records[70]!;
    const single = await server.request(
      'PUT',
      `/api/demand-planning/real-data/${one.PID}/${one.Time_Series_sk}`,
      {
        Comments: 'One notes-only save',
      },
    );
    expect(single.status).toBe(200);
    await expectKeptTablesRebuilt('single save');
  });

  it('leaves the week totals row unwritten when only a note changes and the stamp stays', async () => {
    const db = server.database.db;
    const { rows } = await sql<{ pid: string; week_start: string }>`
      select r.pid, r.week_start::text from demand_records r order by r.pid, r.week_start limit 1`.execute(
      db,
    );
    const { pid, week_start: week } = rows[0]!;
    const versionOfWeek = async () =>
      (
        await sql<{ xmin: string }>`select t.xmin::text from demand_week_totals t
          join products p on (p.client_id, p.bu, p.pf, p.region) = (t.client_id, t.bu, t.pf, t.region)
          where p.pid = ${pid} and t.week_start = ${week}::date`.execute(db)
      ).rows[0]!.xmin;
    const before = await versionOfWeek();
    await sql`update demand_records set comments = 'A note only' where pid = ${pid} and week_start = ${week}::date`.execute(
      db,
    );
    expect(await versionOfWeek()).toBe(before);
    await expectKeptTablesRebuilt('note without a stamp');
  });
});
