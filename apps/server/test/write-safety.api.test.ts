import type { DemandRecord } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { runInBackground } from '../src/db/pglite-dialect';
import type { Database } from '../src/db/schema';
import { writeTransaction } from '../src/db/write-transaction';
import type { Failure } from './support/api-shapes';
import { backends, TEST_POSTGRES_URL } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Page = { data: { items: DemandRecord[] } };

const BASE = '/api/demand-planning/real-data';
const weekStartOf = (sk: string) => `${sk.slice(0, 4)}-${sk.slice(4, 6)}-${sk.slice(6, 8)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)('write safety on %s', (backend) => {
  let server: TestServer;
  let records: DemandRecord[];

  beforeAll(async () => {
    server = await startTestServer(backend);
    records = (await server.request<Page>('GET', `${BASE}?limit=5000`)).body.data.items;
  });
  afterAll(async () => server?.close());

  /**
   * Sends a batch while the test holds the first record's row lock (PostgreSQL) or the single
   * connection (PGlite), so the save is certainly still running when `whileHeld` acts.
   */
  async function batchWhileHeld(
    targets: DemandRecord[],
    comment: string,
    whileHeld: (controller: AbortController) => Promise<void>,
  ): Promise<Response | undefined> {
    const token = (await server.tokensFor('admin')).id_token;
    const controller = new AbortController();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = server.database.db.transaction().execute(async (trx) => {
      const first = targets[0]!;
      await sql`select 1 from demand_records where pid = ${first.PID}
        and week_start = ${weekStartOf(first.Time_Series_sk)} for update`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const response = fetch(`${server.baseUrl}${BASE}/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        updates: targets.map((r) => ({
          PID: r.PID,
          Time_Series_sk: r.Time_Series_sk,
          Comments: comment,
          version: r.version,
        })),
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    await sleep(500);
    await whileHeld(controller);
    release();
    await holder;
    return response;
  }

  const current = async (targets: DemandRecord[]) =>
    Promise.all(
      targets.map(
        async (r) =>
          (await server.request<{ data: DemandRecord }>('GET', `${BASE}/${r.PID}/${r.Time_Series_sk}`)).body
            .data,
      ),
    );
  const auditCount = async (comment: string) =>
    Number(
      (
        await sql<{ n: number }>`select count(*) as n from audit_log where new_value = ${comment}`.execute(
          server.database.db,
        )
      ).rows[0]!.n,
    );

  it('commits a batch that waited for a lock when its client is still there', async () => {
    const targets = records.slice(0, 20);
    const response = await batchWhileHeld(targets, 'kept', async () => undefined);
    expect(response?.status).toBe(200);
    const after = await current(targets);
    expect(after.map((r) => r.Comments)).toEqual(targets.map(() => 'kept'));
    expect(after.map((r) => r.version)).toEqual(targets.map((r) => r.version + 1));
    expect(await auditCount('kept')).toBe(20);
  });

  it('rolls back a batch whose client went away before it finished', async () => {
    const targets = records.slice(40, 60);
    await batchWhileHeld(targets, 'abandoned', async (controller) => {
      controller.abort();
      await sleep(200);
    });
    // The save goes on once the lock is released; give it time to reach its commit.
    await sleep(1000);
    const after = await current(targets);
    expect(after.map((r) => r.Comments)).toEqual(targets.map((r) => r.Comments));
    expect(after.map((r) => r.version)).toEqual(targets.map((r) => r.version));
    expect(await auditCount('abandoned')).toBe(0);
  });

  it('refuses a batch above the 5,000-update cap with a 400 naming the field', async () => {
    const r = records[0]!;
    const updates = Array.from({ length: 5001 }, () => ({
      PID: r.PID,
      Time_Series_sk: r.Time_Series_sk,
      Comments: 'too many',
    }));
    const { status, body } = await server.request<Failure>('POST', `${BASE}/batch`, { updates });
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION');
    expect(body.error).toBe('updates must hold at most 5000 updates');
  });

  it.runIf(backend === 'postgres')(
    'runs writes without JIT even on a connection whose every JIT threshold is 0',
    async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        server.database.db,
      );
      const forced = openDatabase({
        kind: 'postgres',
        url: TEST_POSTGRES_URL,
        schema: rows[0]!.schema,
        poolSize: 1,
        settings: {
          jit: 'on',
          jit_above_cost: '0',
          jit_inline_above_cost: '0',
          jit_optimize_above_cost: '0',
        },
      });
      try {
        // EXPLAIN's JSON names a "JIT" block only when the statement was compiled.
        const compiles = async (db: Kysely<Database>) => {
          const plan = await sql<{ 'QUERY PLAN': unknown }>`explain (analyze, format json)
            select sum(final_pln_units) from demand_records`.execute(db);
          return JSON.stringify(plan.rows[0]!['QUERY PLAN']).includes('"JIT"');
        };
        expect(await compiles(forced.db)).toBe(true);
        const inside = await writeTransaction(forced.db, async (trx) => ({
          compiles: await compiles(trx),
          settings: (
            await sql<{ jit: string; work_mem: string }>`select current_setting('jit') as jit,
              current_setting('work_mem') as work_mem`.execute(trx)
          ).rows[0],
        }));
        expect(inside).toEqual({ compiles: false, settings: { jit: 'off', work_mem: '16MB' } });
        // The settings end with the transaction: the pooled connection keeps its own.
        expect(await compiles(forced.db)).toBe(true);
      } finally {
        await forced.close();
      }
    },
  );

  it.runIf(backend === 'pglite')(
    'lets a request in between the statements of a caller that issues them back to back',
    async () => {
      const { db } = server.database;
      let done = 0;
      // A forecast run's writes: each statement awaits the previous one and nothing else.
      const run = (async () => {
        for (let i = 0; i < 50; i++) {
          await sql`select pg_sleep(0.002)`.execute(db);
          done += 1;
        }
      })();
      // A request arriving meanwhile: it reaches the database from an event-loop turn, as HTTP does.
      const answeredAfter = await new Promise<number>((resolve) =>
        setTimeout(() => void sql`select 1`.execute(db).then(() => resolve(done)), 1),
      );
      await run;
      // Without a turn of the event loop between holders it waited for all 50.
      expect(answeredAfter).toBeLessThan(10);
    },
  );

  it.runIf(backend === 'pglite')(
    'lets requests go before background work, which still gets every fifth turn',
    async () => {
      const { db } = server.database;
      const statements = (count: number, onEach: () => void) => async () => {
        for (let i = 0; i < count; i++) {
          await sql`select pg_sleep(0.002)`.execute(db);
          onEach();
        }
      };
      let background = 0;
      const run = runInBackground(statements(200, () => (background += 1)));
      // Requests one after another, each from an event-loop turn as HTTP requests arrive.
      const waits: number[] = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const asked = background;
        await sql`select 1`.execute(db);
        waits.push(background - asked);
      }
      // Each request waited for at most the background statement under way.
      expect(Math.max(...waits)).toBeLessThanOrEqual(1);
      // A steady stream of requests does not stop background work.
      let requests = 0;
      const before = background;
      await statements(40, () => (requests += 1))();
      expect(background - before).toBeGreaterThanOrEqual(5);
      await run;
    },
  );

  it.runIf(backend === 'postgres')('limits every pooled connection with timeouts', async () => {
    const settings = await sql<{ name: string; setting: string }>`select name, setting from pg_settings
      where name in ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout')
      order by name`.execute(server.database.db);
    expect(settings.rows).toEqual([
      { name: 'idle_in_transaction_session_timeout', setting: '30000' },
      { name: 'lock_timeout', setting: '10000' },
      { name: 'statement_timeout', setting: '30000' },
    ]);
  });
});
