import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextCycleRun, type CycleOverview, type CycleRun, type NotificationList } from '@ps/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { createAuthSetup } from '../src/modules/auth/auth-setup';
import { ForecastQueue } from '../src/modules/forecast-runs';
import { TEST_POSTGRES_URL, backends } from './support/backends';
import { freePort } from './support/free-port';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

type Ok<T> = { success: true; data: T };
type Failure = { success: false; error: string; code: string };

const SCHEDULE = {
  isEnabled: true,
  frequency: 'weekly',
  weekday: 1,
  time: '06:00',
  timeZone: 'Europe/Berlin',
};

async function push(
  server: TestServer,
  fileName: string,
  content: string,
  as: Caller = 'admin',
): Promise<{ status: number; body: Ok<{ fileName: string; waitingFiles: string[] }> | Failure }> {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  const token = as === 'anonymous' ? undefined : (await server.tokensFor(as)).id_token;
  const response = await fetch(`${server.baseUrl}/api/cycle/feed`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Ok<never> | Failure };
}

async function waitForRun(server: TestServer, id: number): Promise<CycleRun> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { body } = await server.request<Ok<CycleRun>>('GET', `/api/cycle/runs/${id}`);
    if (body.data.status !== 'running') return body.data;
    if (Date.now() > deadline) throw new Error(`Cycle run ${id} still running`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(backends)('the planning cycle on %s', (backend) => {
  let server: TestServer;
  let feedDir: string;
  let pids: string[];

  beforeAll(async () => {
    feedDir = mkdtempSync(join(tmpdir(), 'ps-cycle-feed-'));
    server = await startTestServer(
      backend,
      { products: 12, weeks: 12 },
      { env: { CYCLE_FEED_DIR: feedDir } },
    );
    // The week after the seed's: the cycle's horizon step has one week to roll, on any day the test runs.
    server.clock.setToday(new Date('2026-11-24T00:00:00Z'));
    pids = (await server.database.db.selectFrom('products').select('pid').orderBy('pid').execute()).map(
      (row) => row.pid,
    );
  });
  afterAll(async () => {
    await server?.close();
    rmSync(feedDir, { recursive: true, force: true });
  });

  it('is for admins only', async () => {
    for (const as of ['circor', 'nogroup'] as const) {
      expect((await server.request('GET', '/api/cycle', undefined, { as })).status).toBe(403);
      expect((await server.request('PUT', '/api/cycle/schedule', SCHEDULE, { as })).status).toBe(403);
      expect((await server.request('POST', '/api/cycle/runs', undefined, { as })).status).toBe(403);
      expect((await server.request('POST', '/api/cycle/runs/1/rerun', undefined, { as })).status).toBe(403);
      expect((await push(server, 'x.csv', 'PID,Week,Units\n', as)).status).toBe(403);
    }
    expect((await server.request('GET', '/api/cycle', undefined, { as: 'anonymous' })).status).toBe(401);
    expect((await push(server, 'x.csv', 'PID,Week,Units\n', 'anonymous')).status).toBe(401);
  });

  it('starts switched off, then saves a schedule and answers its next run in the time zone', async () => {
    const before = await server.request<Ok<CycleOverview>>('GET', '/api/cycle');
    expect(before.body.data.schedule.isEnabled).toBe(false);
    expect(before.body.data.nextRunAt).toBeNull();
    expect(before.body.data.feed).toEqual({ isConfigured: true, waitingFiles: [] });

    const saved = await server.request<Ok<CycleOverview>>('PUT', '/api/cycle/schedule', SCHEDULE);
    expect(saved.status).toBe(200);
    expect(saved.body.data.schedule).toEqual(SCHEDULE);
    expect(saved.body.data.updatedBy).toBe('Demo Admin');
    const next = new Date(saved.body.data.nextRunAt!);
    // Monday 06:00 in Berlin: 05:00Z in winter, 04:00Z in summer.
    expect(next.getUTCDay()).toBe(1);
    expect([4, 5]).toContain(next.getUTCHours());
    expect(next.getTime()).toBe(
      nextCycleRun({ ...SCHEDULE, frequency: 'weekly' }, new Date(next.getTime() - 7 * 86_400_000)).getTime(),
    );

    if (backend === 'postgres') {
      const queueSchema = ForecastQueue.schemaFor(await schemaOf(server.database));
      const { rows } = await sql<{ cron: string; timezone: string }>`
        select cron, timezone from ${sql.id(queueSchema, 'schedule')} where name = 'planning-cycle'`.execute(
        server.database.db,
      );
      expect(rows).toEqual([{ cron: '0 6 * * 1', timezone: 'Europe/Berlin' }]);
    }

    const off = await server.request<Ok<CycleOverview>>('PUT', '/api/cycle/schedule', {
      ...SCHEDULE,
      isEnabled: false,
    });
    expect(off.body.data.nextRunAt).toBeNull();
    if (backend === 'postgres') {
      const queueSchema = ForecastQueue.schemaFor(await schemaOf(server.database));
      const { rows } = await sql`select 1 from ${sql.id(queueSchema, 'schedule')}`.execute(
        server.database.db,
      );
      expect(rows).toEqual([]);
    }
  });

  it('refuses a bad schedule with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...SCHEDULE, time: '24:00' }, 'time'],
      [{ ...SCHEDULE, time: '6:00' }, 'time'],
      [{ ...SCHEDULE, timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ ...SCHEDULE, timeZone: '+01:00' }, 'timeZone'],
      [{ ...SCHEDULE, weekday: 7 }, 'weekday'],
      [{ ...SCHEDULE, weekday: 1.5 }, 'weekday'],
      [{ ...SCHEDULE, frequency: 'hourly' }, 'frequency'],
      [{ ...SCHEDULE, isEnabled: 'yes' }, 'isEnabled'],
      [{ frequency: 'daily', weekday: 0, time: '06:00', timeZone: 'UTC' }, 'isEnabled'],
      [{ ...SCHEDULE, cron: '* * * * *' }, 'cron'],
    ];
    for (const [body, field] of cases) {
      const answer = await server.request<Failure>('PUT', '/api/cycle/schedule', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toContain(field);
    }
    expect((await server.request<Failure>('PUT', '/api/cycle/schedule', 'not json')).status).toBe(400);
  });

  it('takes pushed files into the feed folder under their names, never over a waiting one', async () => {
    const first = await push(server, '2026-11-08.csv', 'PID,Week,Units\n');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      data: { fileName: '2026-11-08.csv', waitingFiles: ['2026-11-08.csv'] },
    });
    const again = await push(server, '2026-11-08.csv', 'PID,Week,Units\n');
    expect(again.status).toBe(409);
    for (const bad of ['.hidden.csv', 'bad*name.csv']) {
      const answer = await push(server, bad, 'PID,Week,Units\n');
      expect(answer.status, bad).toBe(400);
      expect((answer.body as Failure).error).toContain('file name');
    }
    rmSync(join(feedDir, '2026-11-08.csv'));
  });

  it('stops at a failed step, tells the admin, and reruns from that step', async () => {
    const [first, second] = pids;
    // The app notes its user at sign-in (settings read): the notifications know whom to tell.
    await server.request('GET', '/api/user-settings');
    // Taken in name order: the first file names a product that does not exist.
    writeFileSync(
      join(feedDir, 'a-week.csv'),
      `PID,Week,Units\n${first},2026-11-08,7\nNO-SUCH-PID,2026-11-08,3\n`,
    );
    writeFileSync(join(feedDir, 'b-week.csv'), `pid,week,units\n${second},2026-11-08,11\n`);

    const started = await server.request<Ok<CycleRun>>('POST', '/api/cycle/runs');
    expect(started.status).toBe(202);
    expect(started.body.data.status).toBe('running');
    const failed = await waitForRun(server, started.body.data.id);
    expect(failed.status).toBe('failed');
    expect(failed.rerunFrom).toBe('actuals-feed');
    expect(failed.steps).toHaveLength(1);
    expect(failed.steps[0]).toMatchObject({ step: 'actuals-feed', status: 'failed' });
    expect(failed.steps[0]!.message).toMatch(
      /^a-week\.csv was refused and moved to failed\/: row 3 PID: PID NO-SUCH-PID is not a product: load it with the products first \(data load \d+\)$/,
    );
    expect(failed.error).toContain('actuals-feed');
    // Nothing of the refused file was written; the later file waits for the rerun.
    expect(await unitsOf(server, first!, '2026-11-08')).not.toBe(7);
    expect(readdirSync(join(feedDir, 'failed'))).toEqual(['a-week.csv']);
    expect(
      (await server.request<Ok<CycleOverview>>('GET', '/api/cycle')).body.data.feed.waitingFiles,
    ).toEqual(['b-week.csv']);

    const told = await server.request<Ok<NotificationList>>('GET', '/api/notifications');
    expect(told.body.data.items.find((item) => item.kind === 'cycle-failed')?.content).toMatchObject({
      runId: failed.id,
      step: 'actuals-feed',
    });

    const rerun = await server.request<Ok<CycleRun>>('POST', `/api/cycle/runs/${failed.id}/rerun`);
    expect(rerun.status).toBe(202);
    const done = await waitForRun(server, failed.id);
    expect(done.status).toBe('succeeded');
    expect(done.rerunFrom).toBeNull();
    expect(done.steps.map((step) => [step.step, step.status])).toEqual([
      ['actuals-feed', 'failed'],
      ['actuals-feed', 'succeeded'],
      ['roll-horizon', 'succeeded'],
      ['forecast-run', 'succeeded'],
      ['forecast-snapshot', 'succeeded'],
      ['exception-queue', 'succeeded'],
      ['planner-digest', 'succeeded'],
    ]);
    const step = (name: string) => done.steps.filter((s) => s.step === name).at(-1)!;
    expect(step('actuals-feed').counts).toEqual({
      files: 1,
      inserted: 0,
      updated: 1,
      unchanged: 0,
      refused: 0,
    });
    // The clock is a week past the seed's last rolled week: the horizon gains that week's records.
    expect(step('roll-horizon').counts.records).toBeGreaterThanOrEqual(12);
    expect(step('roll-horizon').message).toMatch(/^Weeks \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
    expect(step('forecast-run').counts.products).toBe(12);
    expect(step('forecast-run').progress).toBe(100);
    expect(step('forecast-snapshot').counts).toEqual({ products: 12 });
    expect(Object.keys(step('exception-queue').counts).sort()).toEqual(['items', 'new']);
    expect(step('planner-digest').counts).toEqual({ mails: 0 });
    for (const s of done.steps) {
      expect(s.finishedAt).not.toBeNull();
      expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt));
    }
    expect(await unitsOf(server, second!, '2026-11-08')).toBe(11);
    expect(readdirSync(join(feedDir, 'processed'))).toEqual(['b-week.csv']);
    expect(existsSync(join(feedDir, 'b-week.csv'))).toBe(false);

    const finished = await server.request<Ok<NotificationList>>('GET', '/api/notifications');
    expect(finished.body.data.items.find((item) => item.kind === 'cycle-finished')?.content).toMatchObject({
      runId: done.id,
      products: 12,
    });

    // A run that succeeded is not rerun; nor is an unknown one.
    expect((await server.request<Failure>('POST', `/api/cycle/runs/${done.id}/rerun`)).status).toBe(409);
    expect((await server.request<Failure>('POST', '/api/cycle/runs/999999/rerun')).status).toBe(404);
    expect((await server.request<Failure>('GET', '/api/cycle/runs/abc')).status).toBe(400);
  });

  it('waits for a forecast run started by hand, then runs its own', async () => {
    const byHand = await server.request<Ok<{ id: number }>>('POST', '/api/forecast/runs');
    expect(byHand.status).toBe(202);
    const started = await server.request<Ok<CycleRun>>('POST', '/api/cycle/runs');
    const done = await waitForRun(server, started.body.data.id);
    expect(done.status).toBe('succeeded');
    const forecast = done.steps.find((step) => step.step === 'forecast-run')!;
    // Its own run, after the one by hand (which finished, not refused or cut short).
    expect(Number(/^Forecast run (\d+)$/.exec(forecast.message ?? '')?.[1])).toBeGreaterThan(
      byHand.body.data.id,
    );
    const handRun = await server.request<Ok<{ status: string }>>(
      'GET',
      `/api/forecast/runs/${byHand.body.data.id}`,
    );
    expect(handRun.body.data.status).toBe('succeeded');
  });

  it('runs one cycle at a time', async () => {
    const first = await server.request<Ok<CycleRun>>('POST', '/api/cycle/runs');
    expect(first.status).toBe(202);
    const second = await server.request<Failure>('POST', '/api/cycle/runs');
    expect(second.status).toBe(409);
    expect(second.body.error).toContain(`run ${first.body.data.id}`);
    expect((await waitForRun(server, first.body.data.id)).status).toBe('succeeded');
    const { body } = await server.request<Ok<CycleOverview>>('GET', '/api/cycle');
    expect(body.data.runs[0]!.id).toBe(first.body.data.id);
    expect(body.data.runs[0]!.steps[0]).toMatchObject({
      step: 'actuals-feed',
      status: 'succeeded',
      message: 'No files were waiting',
    });
  });
});

async function schemaOf(database: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]!.schema;
}

async function unitsOf(server: TestServer, pid: string, week: string): Promise<number | undefined> {
  const row = await server.database.db
    .selectFrom('sales_history')
    .select('units')
    .where('pid', '=', pid)
    .where('week_start', '=', week)
    .executeTakeFirst();
  return row?.units;
}

describe.skipIf(!backends.includes('postgres'))('the planning cycle on two server processes', () => {
  let server: TestServer;
  let other: { app: FastifyInstance; database: DatabaseHandle; baseUrl: string };

  beforeAll(async () => {
    server = await startTestServer('postgres', { products: 12, weeks: 12 });
    // A second server on the same schema, trusting the same sign-in keys: another process.
    const database = openDatabase({
      kind: 'postgres',
      url: TEST_POSTGRES_URL,
      schema: await schemaOf(server.database),
      poolSize: 5,
    });
    const port = await freePort();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '/nonexistent',
      PORT: String(port),
      PUBLIC_URL: server.baseUrl,
    });
    const app = await buildApp({
      config,
      database,
      auth: await createAuthSetup(config, { keysFile: server.keysFile }),
    });
    await app.listen({ port, host: '127.0.0.1' });
    other = { app, database, baseUrl: `http://127.0.0.1:${port}` };
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.database.close();
    await server?.close();
  });

  it('starts one run when both are asked at once, and each sees it', async () => {
    const token = (await server.tokensFor('admin')).id_token;
    const post = (baseUrl: string) =>
      fetch(`${baseUrl}/api/cycle/runs`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const answers = await Promise.all([post(server.baseUrl), post(other.baseUrl)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    const started = (await answers.find((a) => a.status === 202)!.json()) as Ok<CycleRun>;
    const seen = await fetch(`${other.baseUrl}/api/cycle/runs/${started.data.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(seen.status).toBe(200);
    expect((await waitForRun(server, started.data.id)).status).toBe('succeeded');
    const runs = await server.database.db.selectFrom('cycle_runs').select('id').execute();
    expect(runs).toHaveLength(1);
  });

  it("a starting process leaves the other's running run alone", async () => {
    const started = await server.request<Ok<CycleRun>>('POST', '/api/cycle/runs');
    expect(started.status).toBe(202);
    const token = (await server.tokensFor('admin')).id_token;
    // The other process is asked to start one too: it tries the run's lock, which is held.
    const second = await fetch(`${other.baseUrl}/api/cycle/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const run = await waitForRun(server, started.body.data.id);
    expect(second.status === 409 || run.status === 'succeeded').toBe(true);
    expect(run.status).toBe('succeeded');
  });
});
