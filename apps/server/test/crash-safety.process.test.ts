import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_IDS, type DemandRecord, type ForecastRun } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { PAST_CYCLES } from '../src/seed/seed-demo-data';
import { backends, TEST_POSTGRES_URL } from './support/backends';
import { freePort } from './support/free-port';
import { signInOverHttp } from './support/sign-in';

type Envelope<T> = { data: T };

const PRODUCTS = 100;
const WEEKS = 26;
const BATCH = 2500;
const BASE = '/api/demand-planning/real-data';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The real server process (`npm run serve`'s entry point) that the test can kill -9. */
type ServerProcess = { child: ChildProcess; output: () => string; exited: Promise<unknown> };

function spawnServer(env: Record<string, string>): ServerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', WEB_DIST_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function until(what: string, server: ServerProcess, check: () => Promise<boolean> | boolean) {
  const deadline = Date.now() + 90_000;
  while (!(await check())) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited (${server.child.exitCode}) before ${what}:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
    await sleep(50);
  }
}

async function killHard(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

/**
 * kill -9 in the middle of a seed, a batch save and a forecast run, each followed by a restart
 * on the same database: the data is all or nothing, and the server recovers on its own.
 */
describe.each(backends)('crash safety of the server process on %s', (backend) => {
  const dir = mkdtempSync(join(tmpdir(), 'ps-crash-'));
  const schema = `crash_${randomBytes(5).toString('hex')}`;
  let env: Record<string, string>;
  let baseUrl: string;

  const openForChecks = (): DatabaseHandle =>
    backend === 'postgres'
      ? openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, schema, poolSize: 1 })
      : openDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') });

  afterAll(async () => {
    if (backend === 'postgres') {
      const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function startHealthy(): Promise<{ server: ServerProcess; headers: Record<string, string> }> {
    const server = spawnServer(env);
    await until(
      'health',
      server,
      async () => (await fetch(`${baseUrl}/health`).catch(() => null))?.ok === true,
    );
    const tokens = await signInOverHttp(baseUrl, { email: 'admin@demo.local', password: 'admin-demo' });
    return { server, headers: { authorization: `Bearer ${tokens.id_token}` } };
  }

  const firstRecords = async (headers: Record<string, string>): Promise<DemandRecord[]> => {
    const response = await fetch(`${baseUrl}${BASE}?limit=${BATCH}`, { headers });
    return ((await response.json()) as Envelope<{ items: DemandRecord[] }>).data.items;
  };

  it('recovers from kill -9 during a seed, a batch save and a forecast run', async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') {
      const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      await admin.close();
    }
    env = {
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      SEED_PRODUCTS: String(PRODUCTS),
      SEED_WEEKS: String(WEEKS),
      PGLITE_DATA_DIR: join(dir, 'pglite'),
      OIDC_KEYS_FILE: join(dir, 'keys.json'),
      // A queued chunk held by the killed process is retried after this long.
      FORECAST_CHUNK_TIMEOUT_SECONDS: '15',
      DATABASE_URL:
        backend === 'postgres'
          ? `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
          : '',
    };

    // 1. Seed: killed once the first rows were written (products are written first, records as they are generated).
    const seeding = spawnServer(env);
    await until('the seed at 70 %', seeding, () => seeding.output().includes('Seeding demo data: 70%'));
    await killHard(seeding);

    // 2. The next start seeds again from scratch; a batch save is killed while it works.
    let { server, headers } = await startHealthy();
    const before = await firstRecords(headers);
    expect(before).toHaveLength(BATCH);
    const batch = fetch(`${baseUrl}${BASE}/batch`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        updates: before.map((r) => ({
          PID: r.PID,
          Time_Series_sk: r.Time_Series_sk,
          Comments: 'crash batch',
          version: r.version,
        })),
      }),
    }).catch(() => 'connection lost');
    await sleep(backend === 'pglite' ? 300 : 150);
    await killHard(server);
    const batchOutcome = await batch;

    // 3. After a restart the batch is all there or not at all; a forecast run is killed while it works.
    ({ server, headers } = await startHealthy());
    const after = await firstRecords(headers);
    const saved = after.filter((r) => r.Comments === 'crash batch').length;
    expect([0, BATCH]).toContain(saved);
    expect(after.map((r) => r.version)).toEqual(before.map((r) => r.version + (saved ? 1 : 0)));
    const started = await fetch(`${baseUrl}/api/forecast/runs`, { method: 'POST', headers });
    const interrupted = ((await started.json()) as Envelope<ForecastRun>).data;
    expect(interrupted.status).toBe('running');
    await until('the run to make progress', server, async () => {
      const polled = await fetch(`${baseUrl}/api/forecast/runs/${interrupted.id}`, { headers });
      return ((await polled.json()) as Envelope<ForecastRun>).data.processedProducts > 0;
    });
    await killHard(server);

    // 4. On the embedded database the interrupted run is marked failed. On PostgreSQL its chunks
    // are jobs in the queue: the chunk the killed process held is retried once it times out, and
    // the restarted process finishes the run. Either way a new run then starts and finishes.
    ({ server, headers } = await startHealthy());
    if (backend === 'pglite') {
      const failed = await fetch(`${baseUrl}/api/forecast/runs/${interrupted.id}`, { headers });
      expect(((await failed.json()) as Envelope<ForecastRun>).data).toMatchObject({
        status: 'failed',
        error: 'Interrupted: the server stopped before the run finished',
      });
    } else {
      let resumed = interrupted;
      await until('the interrupted run to be finished from the queue', server, async () => {
        const polled = await fetch(`${baseUrl}/api/forecast/runs/${interrupted.id}`, { headers });
        resumed = ((await polled.json()) as Envelope<ForecastRun>).data;
        return resumed.status !== 'running';
      });
      expect(resumed).toMatchObject({ status: 'succeeded', processedProducts: PRODUCTS });
    }
    const next = (
      (await (
        await fetch(`${baseUrl}/api/forecast/runs`, { method: 'POST', headers })
      ).json()) as Envelope<ForecastRun>
    ).data;
    let run = next;
    await until('the new run to finish', server, async () => {
      const polled = await fetch(`${baseUrl}/api/forecast/runs/${next.id}`, { headers });
      run = ((await polled.json()) as Envelope<ForecastRun>).data;
      return run.status !== 'running';
    });
    expect(run).toMatchObject({ status: 'succeeded', totalProducts: PRODUCTS, processedProducts: PRODUCTS });
    server.child.kill('SIGTERM');
    await server.exited;

    // 5. The database itself: the whole seed once, roll-ups that match the records, audit rows
    // that match the batch's outcome.
    const database = openForChecks();
    try {
      const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
        Number((await query.execute(database.db)).rows[0]!.n);
      expect(await count(sql`select count(*) as n from products`)).toBe(PRODUCTS);
      expect(await count(sql`select count(*) as n from demand_records`)).toBe(PRODUCTS * WEEKS);
      // One seed's plan cycles per client: a seed that ran twice would have doubled them.
      expect(await count(sql`select count(*) as n from plan_versions`)).toBe(PAST_CYCLES * CLIENT_IDS.length);
      expect(await count(sql`select coalesce(sum(record_count), 0) as n from demand_week_totals`)).toBe(
        PRODUCTS * WEEKS,
      );
      expect(await count(sql`select count(*) as n from audit_log where new_value = 'crash batch'`)).toBe(
        saved,
      );
    } finally {
      await database.close();
    }
    console.info(
      `${backend}: batch ${saved ? 'committed before' : 'rolled back by'} the kill (client saw ${typeof batchOutcome === 'string' ? batchOutcome : `HTTP ${batchOutcome.status}`})`,
    );
  }, 300_000);
});
