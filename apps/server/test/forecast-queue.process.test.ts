import { spawn, type ChildProcess } from 'node:child_process';
import type { ForecastRun as Run } from '@ps/domain';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastQueue } from '../src/modules/forecast-runs/forecast-queue';
import { backends, TEST_POSTGRES_URL } from './support/backends';
import { startTestServer, type TestServer } from './support/test-server';

type Envelope<T> = { data: T };

const PRODUCTS = 30;
/** 30 products in chunks of whole business units up to 8: five jobs (6, 7, 6, 5, 6). */
const CHUNK_PRODUCTS = 8;
/** Short, so that an abandoned chunk is retried within the test. */
const CHUNK_TIMEOUT_SECONDS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run worker`'s entry point on the test's schema, as its own process. */
function spawnWorker(schema: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/worker.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      FORECAST_CHUNK_PRODUCTS: String(CHUNK_PRODUCTS),
      FORECAST_CHUNK_TIMEOUT_SECONDS: String(CHUNK_TIMEOUT_SECONDS),
      LOG_LEVEL: 'info',
      // The shared test database is busy; a worker's start-up statements may wait their turn.
      DB_STATEMENT_TIMEOUT_MS: '120000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function stopWorker(worker: { child: ChildProcess }): Promise<void> {
  if (worker.child.exitCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGTERM');
  await exited;
}

/**
 * Forecast runs through the PostgreSQL job queue with dedicated worker processes: the server
 * process only enqueues (FORECAST_WORK_IN_SERVER=false), `npm run worker` processes do the chunks,
 * progress is summed across them, a chunk whose worker vanished is retried, and the run is
 * finished once.
 */
describe.skipIf(!backends.includes('postgres'))('forecast runs through the job queue', () => {
  let server: TestServer;
  let schema: string;
  const workers: { child: ChildProcess; output: () => string }[] = [];

  beforeAll(async () => {
    server = await startTestServer(
      'postgres',
      { products: PRODUCTS, weeks: 12 },
      {
        env: {
          FORECAST_WORK_IN_SERVER: 'false',
          FORECAST_CHUNK_PRODUCTS: String(CHUNK_PRODUCTS),
          FORECAST_CHUNK_TIMEOUT_SECONDS: String(CHUNK_TIMEOUT_SECONDS),
        },
      },
    );
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      server.database.db,
    );
    schema = rows[0]!.schema;
    // Notifications go to users the suite knows: reading one's settings makes the admin known.
    await server.request('GET', '/api/user-settings');
  });
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await server?.close();
  });

  async function waitForRun(id: number, timeoutMs = 180_000): Promise<Run> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await server.request<Envelope<Run>>('GET', `/api/forecast/runs/${id}`);
      if (body.data.status !== 'running') return body.data;
      if (Date.now() > deadline)
        throw new Error(`Run ${id} still running:\n${workers.map((w) => w.output()).join('\n---\n')}`);
      await sleep(250);
    }
  }

  const chunksOf = (runId: number) =>
    server.database.db
      .selectFrom('forecast_run_chunks')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('chunk')
      .execute();

  const successNotices = async (runId: number): Promise<number> => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int4 as n from notifications
      where kind = 'forecast-run-succeeded' and (content->>'runId')::int = ${runId}`.execute(
      server.database.db,
    );
    return rows[0]!.n;
  };

  it('the server only enqueues; two worker processes share the chunks and the run finishes once', async () => {
    const started = await server.request<Envelope<Run>>('POST', '/api/forecast/runs');
    expect(started.status).toBe(202);
    const runId = started.body.data.id;
    // The server trains the run's global member, then queues the chunks; no process works the
    // queue yet, so they wait, and the run shows training done (half its progress), no product.
    for (let i = 0; i < 240 && (await chunksOf(runId)).length === 0; i++) await sleep(250);
    await sleep(1000);
    const waiting = await server.request<Envelope<Run>>('GET', `/api/forecast/runs/${runId}`);
    expect(waiting.body.data).toMatchObject({
      status: 'running',
      totalProducts: PRODUCTS,
      processedProducts: 0,
      progressPercent: 50,
    });
    expect((await chunksOf(runId)).map((c) => c.pids.length)).toEqual([6, 7, 6, 5, 6]);

    workers.push(spawnWorker(schema), spawnWorker(schema));
    const run = await waitForRun(runId);
    expect(run).toMatchObject({
      status: 'succeeded',
      totalProducts: PRODUCTS,
      processedProducts: PRODUCTS,
      error: null,
    });
    // 30 products × 6 future weeks (12-week window: 6 past, 6 future).
    expect(run.updatedRecords).toBe(180);
    const chunks = await chunksOf(runId);
    // Each chunk done once; more than one attempt only when a loaded machine outran the timeout.
    expect(chunks.every((c) => c.done_at !== null && c.attempts >= 1 && c.error === null)).toBe(true);
    expect(chunks.reduce((t, c) => t + c.updated_records, 0)).toBe(180);
    const accuracy = await server.database.db
      .selectFrom('forecast_accuracy')
      .select(['run_id'])
      .where('run_id', '=', runId)
      .execute();
    expect(accuracy).toHaveLength(PRODUCTS);
    expect(await successNotices(runId)).toBe(1);
  }, 240_000);

  it('retries a chunk whose worker vanished while holding it, and still finishes the run once', async () => {
    // Workers of the first test are stopped: the chunks wait in the queue again.
    await Promise.all(workers.splice(0).map(stopWorker));
    const started = await server.request<Envelope<Run>>('POST', '/api/forecast/runs');
    expect(started.status).toBe(202);
    const runId = started.body.data.id;

    // A worker takes a chunk and dies before finishing it: the job stays active, nobody works it.
    const boss = new PgBoss({
      connectionString: TEST_POSTGRES_URL,
      schema: ForecastQueue.schemaFor(schema),
      supervise: false,
      schedule: false,
      migrate: false,
      max: 1,
    });
    boss.on('error', () => undefined);
    await boss.start();
    let taken: PgBoss.Job<{ runId: number; chunk: number }>[] = [];
    for (let i = 0; i < 40 && taken.length === 0; i++) {
      taken = await boss.fetch<{ runId: number; chunk: number }>('forecast-chunk');
      if (taken.length === 0) await sleep(250);
    }
    await boss.stop({ graceful: false, wait: true });
    expect(taken).toHaveLength(1);
    expect(taken[0]!.data.runId).toBe(runId);

    // A live worker does the other chunks, then the abandoned one once it has timed out.
    const startedAt = Date.now();
    workers.push(spawnWorker(schema));
    const run = await waitForRun(runId);
    expect(run).toMatchObject({ status: 'succeeded', processedProducts: PRODUCTS, updatedRecords: 180 });
    // Not before the abandoned chunk's timeout: it could only finish through the retry.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual((CHUNK_TIMEOUT_SECONDS - 5) * 1000);
    // The queue marks the job completed after the finish's notifications, a moment after the run.
    const jobState = async () =>
      (
        await sql<{ retry_count: number; state: string }>`
          select retry_count, state from ${sql.id(ForecastQueue.schemaFor(schema), 'job')}
          where id = ${taken[0]!.id}`.execute(server.database.db)
      ).rows[0];
    let job = await jobState();
    for (let i = 0; i < 40 && job?.state !== 'completed'; i++) {
      await sleep(250);
      job = await jobState();
    }
    expect(job).toEqual({ retry_count: 1, state: 'completed' });
    expect((await chunksOf(runId)).every((c) => c.done_at !== null)).toBe(true);
    expect(await successNotices(runId)).toBe(1);
  }, 240_000);
});
