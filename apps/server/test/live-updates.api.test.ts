import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIVE_EVENT, type DemandRecord, type RecordChangeEvent } from '@ps/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import type { Ok } from './support/api-shapes';
import { backends, TEST_POSTGRES_URL } from './support/backends';
import { openEventStream, type EventStreamReader, type StreamEvent } from './support/event-stream';
import { freePort } from './support/free-port';
import { mintShortLivedToken } from './support/mint-token';
import { signInOverHttp } from './support/sign-in';
import { startTestServer, type TestServer } from './support/test-server';

const EVENTS = '/api/demand-planning/events';
const RECORDS = '/api/demand-planning/real-data';

const changeOf = (event: StreamEvent) => event.data as RecordChangeEvent;
const touches = (pid: string) => (event: StreamEvent) =>
  event.event === LIVE_EVENT.change && (changeOf(event).pids ?? []).includes(pid);

/** A comment edit of one record, as a planner's save sends it. */
const commentBody = (record: DemandRecord, text: string) => ({ Comments: text, version: record.version });

describe.each(backends)('live updates of record writes on %s', (backend) => {
  let server: TestServer;
  let internal: DemandRecord;
  let circor: DemandRecord;

  beforeAll(async () => {
    server = await startTestServer(backend, { products: 24, weeks: 8 });
    const list = async (as: 'admin' | 'circor') =>
      (await server.request<Ok<{ items: DemandRecord[] }>>('GET', `${RECORDS}?limit=500`, undefined, { as }))
        .body.data.items;
    const circorRecords = await list('circor');
    const circorPids = new Set(circorRecords.map((r) => r.PID));
    circor = circorRecords[0]!;
    internal = (await list('admin')).find((r) => !circorPids.has(r.PID))!;
    expect(circor && internal).toBeTruthy();
  });
  afterAll(async () => server?.close());

  const stream = async (as: 'admin' | 'circor'): Promise<EventStreamReader> =>
    openEventStream(`${server.baseUrl}${EVENTS}`, (await server.tokensFor(as)).id_token);

  const save = async (record: DemandRecord, text: string) => {
    const response = await server.request<Ok<DemandRecord>>(
      'PUT',
      `${RECORDS}/${record.PID}/${record.Time_Series_sk}`,
      commentBody(record, text),
    );
    expect(response.status).toBe(200);
    return response.body.data;
  };

  it('ends the stream when its token expires, and keeps streaming to a fresh token', async () => {
    const started = Date.now();
    const response = await fetch(`${server.baseUrl}${EVENTS}`, {
      headers: { authorization: `Bearer ${await mintShortLivedToken(server, 3)}` },
    });
    expect(response.status).toBe(200);
    const fresh = await stream('admin');
    try {
      const reader = response.body!.getReader();
      const ended = (async () => {
        for (let read = await reader.read(); !read.done; read = await reader.read());
        return Date.now() - started;
      })();
      const endedAfterMs = await Promise.race([
        ended,
        new Promise<number>((_, reject) => setTimeout(() => reject(new Error('stream still open')), 20_000)),
      ]);
      // exp is whole seconds: the stream ends within a second around the 3 s it was given.
      expect(endedAfterMs).toBeGreaterThan(1_500);
      // The long-lived token's stream is still open and hears the next write.
      internal = await save(internal, `after expiry ${backend}`);
      await fresh.next(touches(internal.PID), 5_000);
    } finally {
      fresh.close();
    }
  });

  it('refuses a caller without a token and streams to a signed-in one', async () => {
    const anonymous = await fetch(`${server.baseUrl}${EVENTS}`);
    expect(anonymous.status).toBe(401);
    const admin = await stream('admin');
    try {
      expect(admin.status).toBe(200);
      expect(admin.contentType).toMatch(/^text\/event-stream/);
    } finally {
      admin.close();
    }
  });

  it('tells each caller about the clients they may see, and only those', async () => {
    const [admin, circorUser] = await Promise.all([stream('admin'), stream('circor')]);
    try {
      internal = await save(internal, `live internal ${backend}`);
      circor = await save(circor, `live circor ${backend}`);
      // The admin hears both writes: one record of one product each, with its family and unit.
      const heardInternal = changeOf(await admin.next(touches(internal.PID), 5_000));
      expect(heardInternal).toEqual({
        records: 1,
        products: 1,
        pids: [internal.PID],
        families: [internal.PF],
        businessUnits: [internal.BU],
      });
      await admin.next(touches(circor.PID), 5_000);
      // The circor user hears the circor write; the internal one, committed first, never arrives.
      await circorUser.next(touches(circor.PID), 5_000);
      expect(circorUser.events.some(touches(internal.PID))).toBe(false);
      expect(circorUser.events.every((e) => changeOf(e).pids?.every((pid) => pid !== internal.PID))).toBe(
        true,
      );
    } finally {
      admin.close();
      circorUser.close();
    }
  });

  it('says nothing about a write that was rolled back', async () => {
    const admin = await stream('admin');
    try {
      // A stale version refuses the whole save (409): nothing committed, nothing announced.
      const refused = await server.request('PUT', `${RECORDS}/${internal.PID}/${internal.Time_Series_sk}`, {
        Comments: 'never saved',
        version: internal.version - 1,
      });
      expect(refused.status).toBe(409);
      internal = await save(internal, `after refusal ${backend}`);
      await admin.next(touches(internal.PID), 5_000);
      expect(admin.events.filter(touches(internal.PID))).toHaveLength(1);
    } finally {
      admin.close();
    }
  });
});

/** The real server entry point, as production starts it. */
type ServerProcess = { child: ChildProcess; output: () => string; baseUrl: string };

async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '/nonexistent',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 110_000;
  while ((await fetch(`${baseUrl}/health`).catch(() => null))?.ok !== true) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, baseUrl };
}

describe.skipIf(!backends.includes('postgres'))('live updates across server processes on postgres', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ps-live-'));
  const schema = `live_${randomBytes(5).toString('hex')}`;
  const processes: ServerProcess[] = [];

  afterAll(async () => {
    for (const server of processes) {
      server.child.kill('SIGTERM');
      await new Promise((resolve) =>
        server.child.exitCode === null ? server.child.once('exit', resolve) : resolve(null),
      );
    }
    const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a save on one process reaches a stream opened on the other within 2 s', async () => {
    const admin = openDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.close();
    const env = {
      SEED_PRODUCTS: '12',
      SEED_WEEKS: '8',
      OIDC_KEYS_FILE: join(dir, 'keys.json'),
      DATABASE_URL: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    };
    // The first process migrates and seeds; the second finds the data there.
    processes.push(await spawnServer(env));
    processes.push(await spawnServer(env));
    const [writer, reader] = processes as [ServerProcess, ServerProcess];
    const signIn = (server: ServerProcess) =>
      signInOverHttp(server.baseUrl, { email: 'admin@demo.local', password: 'admin-demo' });
    const [writerToken, readerToken] = [(await signIn(writer)).id_token, (await signIn(reader)).id_token];

    const stream = await openEventStream(`${reader.baseUrl}${EVENTS}`, readerToken);
    try {
      const listed = await fetch(`${writer.baseUrl}${RECORDS}?limit=5`, {
        headers: { authorization: `Bearer ${writerToken}` },
      });
      const record = ((await listed.json()) as Ok<{ items: DemandRecord[] }>).data.items[0]!;
      const savedAt = Date.now();
      const saved = await fetch(`${writer.baseUrl}${RECORDS}/${record.PID}/${record.Time_Series_sk}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(commentBody(record, 'from the other process')),
      });
      expect(saved.status).toBe(200);
      const heard = changeOf(await stream.next(touches(record.PID), 2_000));
      expect(Date.now() - savedAt).toBeLessThan(2_000);
      expect(heard.records).toBe(1);
    } finally {
      stream.close();
    }
  });
});
