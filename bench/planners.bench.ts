import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DRILL_DOWNS, VIEW_LEVELS, type FilterOptions } from '@ps/domain';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';
import { seedDemoData } from '../apps/server/src/seed/seed-demo-data';
import { freePort } from '../apps/server/test/support/free-port';
import { signInOverHttp } from '../apps/server/test/support/sign-in';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { BENCH_POSTGRES_URL } from './bench-server';
import { ms, percentile, type BenchRow } from './stats';

/**
 * Many planners at once (issue 9): virtual users that each think 0–THINK ms between requests and
 * make the calls a planner's screen makes. The servers run in their own processes over one
 * PostgreSQL schema with the default data set, so the load generator never shares their event loop.
 *
 * Environment: PLANNERS_USERS (200), PLANNERS_SECONDS (120), PLANNERS_THINK_MS (2000),
 * PLANNERS_PROCESSES (1: how many server processes share the load, round-robin per user),
 * PLANNERS_RAMP ("10,25,50,100,150,200,300,400", "" to skip), PLANNERS_RAMP_SECONDS (20).
 */
const envNumber = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const settings = {
  users: envNumber('PLANNERS_USERS', 200),
  seconds: envNumber('PLANNERS_SECONDS', 120),
  thinkMs: envNumber('PLANNERS_THINK_MS', 2000),
  processes: envNumber('PLANNERS_PROCESSES', 1),
  ramp: (process.env.PLANNERS_RAMP ?? '10,25,50,100,150,200,300,400').split(',').filter(Boolean).map(Number),
  rampSeconds: envNumber('PLANNERS_RAMP_SECONDS', 20),
};
const P95_TARGET_MS = 500;

type Target = {
  baseUrls: string[];
  headers: Record<string, string>;
  pids: string[];
  businessUnits: string[];
};
type Sample = { kind: string; ms: number; ok: boolean };

/** The screen's drill-downs: none, week, month, quarter. */
const SCREEN_DRILL_DOWNS = DRILL_DOWNS.filter((drillDown) => drillDown !== 'yearly');

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A grid page as the screen asks for it: any view level and drill-down, one of the first pages, sometimes filtered. */
function gridPath(businessUnits: string[]): { kind: string; path: string } {
  const viewLevel = pick(VIEW_LEVELS);
  const drillDown = viewLevel === 'none' ? 'none' : pick(SCREEN_DRILL_DOWNS);
  const params = new URLSearchParams({
    viewLevel,
    drillDown,
    limit: '100',
    offset: String(pick([0, 0, 100, 200])),
  });
  if (Math.random() < 0.25 && businessUnits.length > 0) params.set('bu', pick(businessUnits));
  return { kind: `grid ${viewLevel}/${drillDown}`, path: `/api/demand-planning/grid?${params.toString()}` };
}

type SavedCell = { PID: string; Time_Series_sk: string; version: number };

/**
 * One planner: reads their product's records once (for the versions a save must carry), then
 * loops over the screen's calls until the deadline. Saves touch only this planner's cells, so a
 * conflict would be a server fault, counted as an error.
 */
async function planner(target: Target, index: number, deadline: number, samples: Sample[]): Promise<void> {
  const baseUrl = target.baseUrls[index % target.baseUrls.length]!;
  const pid = target.pids[index % target.pids.length]!;
  const call = async (kind: string, path: string, init?: RequestInit): Promise<unknown> => {
    const started = performance.now();
    let ok = false;
    let body: unknown = null;
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { ...target.headers, ...init?.headers },
      });
      body = kind === 'save' || kind === 'own records' ? await response.json() : await response.arrayBuffer();
      ok = response.ok;
    } catch {
      ok = false;
    }
    samples.push({ kind, ms: performance.now() - started, ok });
    return body;
  };
  const own = (await call(
    'own records',
    `/api/demand-planning/grid?viewLevel=none&search=${pid}&limit=4`,
  )) as {
    data?: { rows: SavedCell[] };
  } | null;
  const cells = (own?.data?.rows ?? []).map(({ PID, Time_Series_sk, version }) => ({
    PID,
    Time_Series_sk,
    version,
  }));
  while (performance.now() < deadline) {
    await sleep(Math.random() * settings.thinkMs);
    if (performance.now() >= deadline) break;
    const roll = Math.random();
    if (roll < 0.55) {
      const { kind, path } = gridPath(target.businessUnits);
      await call(kind, path);
    } else if (roll < 0.65) await call('dashboard', '/api/dashboard-metrics');
    else if (roll < 0.75) await call('summary', '/api/summary-stats');
    else if (roll < 0.85) await call('filter options', '/api/demand-planning/filter-options');
    else if (cells.length > 0) {
      const updates = cells.map((cell) => ({
        ...cell,
        Rev_Pln_Ovrd_Percent: Math.round(Math.random() * 20),
      }));
      const saved = (await call('save', '/api/demand-planning/real-data/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ updates }),
      })) as { data?: { items: SavedCell[] } } | null;
      for (const item of saved?.data?.items ?? []) {
        const cell = cells.find((c) => c.PID === item.PID && c.Time_Series_sk === item.Time_Series_sk);
        if (cell) cell.version = item.version;
      }
    }
  }
}

async function runLoad(target: Target, users: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: users }, (_, i) => planner(target, i, deadline, samples)));
  return samples.filter((s) => s.kind !== 'own records');
}

function summarize(label: string, samples: Sample[], seconds: number): BenchRow {
  const timings = samples.map((s) => s.ms);
  return {
    requests: label,
    count: samples.length,
    'req/s': (samples.length / seconds).toFixed(1),
    p50: ms(percentile(timings, 50)),
    p95: ms(percentile(timings, 95)),
    p99: ms(percentile(timings, 99)),
    errors: samples.filter((s) => !s.ok).length,
  };
}

type EventLoopDelay = { p50: number; p99: number; max: number };
type Servers = {
  target: Target;
  eventLoopDelays: () => Promise<EventLoopDelay[]>;
  close: () => Promise<void>;
};

/** A fresh schema with the default data set (700 × 52, as `npm start` seeds) and N server processes on it. */
async function startServers(processes: number): Promise<Servers> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const database = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, schema, poolSize: 4 });
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { products: 700, weeks: 52, anchor: new Date('2026-11-15T00:00:00Z') });
  await database.close();
  const keysDir = mkdtempSync(join(tmpdir(), 'planners-bench-'));
  const ports = await Promise.all(Array.from({ length: processes }, () => freePort()));
  const publicUrl = `http://127.0.0.1:${ports[0]}`;
  const children: ChildProcess[] = [];
  // One after another: the first creates the shared signing key that the others read.
  for (const port of ports) {
    const child = fork(new URL('./bench-process.ts', import.meta.url).pathname, {
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.PLANNERS_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ],
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        OIDC_KEYS_FILE: join(keysDir, 'keys.json'),
        BENCH_DATABASE_URL: BENCH_POSTGRES_URL,
        BENCH_SCHEMA: schema,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`Bench server exited with code ${code}`)));
    });
  }
  const tokens = await signInOverHttp(publicUrl, { email: 'admin@demo.local', password: 'admin-demo' });
  const headers = { authorization: `Bearer ${tokens.id_token}` };
  const rollup = await fetch(`${publicUrl}/api/demand-planning-rollup/sku?limit=1000`, { headers });
  const pids = ((await rollup.json()) as { data: Array<{ name: string }> }).data.map((item) => item.name);
  const options = await fetch(`${publicUrl}/api/demand-planning/filter-options`, { headers });
  const businessUnits = ((await options.json()) as { data: FilterOptions }).data.businessUnits.map(
    (o) => o.value,
  );
  return {
    target: { baseUrls: ports.map((port) => `http://127.0.0.1:${port}`), headers, pids, businessUnits },
    eventLoopDelays: () =>
      Promise.all(
        children.map(
          (child) =>
            new Promise<EventLoopDelay>((resolve) => {
              child.once('message', (delay) => resolve(delay as EventLoopDelay));
              child.send('event-loop');
            }),
        ),
      ),
    close: async () => {
      await Promise.all(
        children.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'))),
      );
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

/** The planners' mix at PLANNERS_USERS for PLANNERS_SECONDS, per request kind, then the ramp. */
export async function runPlannersBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ skipped: `PostgreSQL is not reachable at ${BENCH_POSTGRES_URL}` }];
  const servers = await startServers(settings.processes);
  try {
    await runLoad(servers.target, 10, 3); // warm-up: JIT, plans, connections
    await servers.eventLoopDelays();
    const samples = await runLoad(servers.target, settings.users, settings.seconds);
    const delays = await servers.eventLoopDelays();
    const label = `all (${settings.users} users, ${settings.processes} process)`;
    const rows: BenchRow[] = [summarize(label, samples, settings.seconds)];
    const kinds = [...new Set(samples.map((s) => s.kind))].sort();
    for (const kind of kinds) {
      rows.push(
        summarize(
          kind,
          samples.filter((s) => s.kind === kind),
          settings.seconds,
        ),
      );
    }
    delays.forEach((delay, i) =>
      rows.push({
        requests: `event-loop delay, process ${i + 1}: p50 ${ms(delay.p50)}, p99 ${ms(delay.p99)}, max ${ms(delay.max)}`,
      }),
    );
    let most = 0;
    for (const users of settings.ramp) {
      const step = await runLoad(servers.target, users, settings.rampSeconds);
      rows.push(summarize(`ramp: ${users} users`, step, settings.rampSeconds));
      if (
        percentile(
          step.map((s) => s.ms),
          95,
        ) >= P95_TARGET_MS
      )
        break;
      most = users;
    }
    if (settings.ramp.length > 0)
      rows.push({ requests: `most users with p95 < ${P95_TARGET_MS} ms: ${most}` });
    return rows;
  } finally {
    await servers.close();
  }
}
