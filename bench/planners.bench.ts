import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DRILL_DOWNS, VIEW_LEVELS, type DrillDown, type FilterOptions, type ViewLevel } from '@ps/domain';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';
import { seedDemoData } from '../apps/server/src/seed/seed-demo-data';
import { ForecastQueue } from '../apps/server/src/modules/forecast-runs/forecast-queue';
import { freePort } from '../apps/server/test/support/free-port';
import { signInOverHttp } from '../apps/server/test/support/sign-in';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { BENCH_POSTGRES_URL } from './bench-server';
import { ms, percentile, type BenchRow } from './stats';

/**
 * Many planners at once: virtual users that each think 0–THINK ms between requests and
 * make the calls a planner's screen makes. The servers run in their own processes over one
 * PostgreSQL schema with the default data set, so the load generator never shares their event loop.
 *
 * Environment: PLANNERS_USERS (200), PLANNERS_SECONDS (120), PLANNERS_THINK_MS (2000),
 * PLANNERS_PROCESSES (1: how many server processes share the load, round-robin per user),
 * PLANNERS_RAMP ("10,25,50,100,150,200,300,400", "" to skip), PLANNERS_RAMP_SECONDS (20),
 * PLANNERS_CPU_CALLS (30: sequential calls per request kind for the CPU-per-call table, 0 to skip).
 * BENCH_POOL_SIZE sets each server's pool (10, as served, when unset).
 *
 * CPU is read from /proc (the server processes and their PostgreSQL backends, found by their
 * application_name) and from process.cpuUsage() (this load generator): unlike wall-clock times,
 * it hardly depends on what else the machine runs.
 */
const envNumber = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const settings = {
  users: envNumber('PLANNERS_USERS', 200),
  seconds: envNumber('PLANNERS_SECONDS', 120),
  thinkMs: envNumber('PLANNERS_THINK_MS', 2000),
  processes: envNumber('PLANNERS_PROCESSES', 1),
  ramp: (process.env.PLANNERS_RAMP ?? '10,25,50,100,150,200,300,400').split(',').filter(Boolean).map(Number),
  rampSeconds: envNumber('PLANNERS_RAMP_SECONDS', 20),
  cpuCalls: envNumber('PLANNERS_CPU_CALLS', 30),
};
const P95_TARGET_MS = 500;

export type Target = {
  baseUrls: string[];
  headers: Record<string, string>;
  pids: string[];
  businessUnits: string[];
};
export type Sample = { kind: string; ms: number; ok: boolean; bytes: number };

/** The screen's drill-downs: none, week, month, quarter. */
const SCREEN_DRILL_DOWNS = DRILL_DOWNS.filter((drillDown) => drillDown !== 'yearly');

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A grid page as the screen asks for it: any view level and drill-down, one of the first pages, sometimes filtered. */
export function gridPath(
  businessUnits: string[],
  viewLevel: ViewLevel = pick(VIEW_LEVELS),
  drillDown: DrillDown = viewLevel === 'none' ? 'none' : pick(SCREEN_DRILL_DOWNS),
): { kind: string; path: string } {
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
type PlannerRequest = { method: 'POST' | 'PUT'; body: string };

/**
 * The planners' HTTP client: node:http over kept-alive sockets. It shares the machine's cores with
 * the servers and PostgreSQL, and fetch (undici) cost it about 2 ms of CPU a call, a fifth of what
 * the whole mix may cost; node:http takes a fraction of that. A browser's cost is not the server's.
 */
const agent = new http.Agent({ keepAlive: true });
function httpRequest(
  url: string,
  headers: Record<string, string>,
  init?: PlannerRequest,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        agent,
        method: init?.method ?? 'GET',
        headers: init ? { ...headers, 'content-type': 'application/json' } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init?.body);
  });
}

/** A planner's session: its server, its product's cells (with the versions a save must carry) and a timed call. */
export type Session = {
  /** One timed call; its answer is parsed for a save, a read of the own records, or when `parse`. */
  call: (kind: string, path: string, init?: PlannerRequest, parse?: boolean) => Promise<unknown>;
  /** Saves `count` of the cells (all by default) in one batch, counted as `kind`. */
  save: (count?: number, kind?: string) => Promise<void>;
  cells: SavedCell[];
};

/**
 * Opens one planner's session: reads their product's records once, for the versions a save
 * carries. Saves touch only this planner's cells, so a conflict would be a server fault, counted
 * as an error.
 */
async function openSession(
  target: Target,
  index: number,
  samples: Sample[],
  cellCount = 4,
): Promise<Session> {
  const baseUrl = target.baseUrls[index % target.baseUrls.length]!;
  const pid = target.pids[index % target.pids.length]!;
  const call = async (kind: string, path: string, init?: PlannerRequest, parse = false): Promise<unknown> => {
    const started = performance.now();
    let ok = false;
    let body: unknown = null;
    let bytes = 0;
    try {
      const response = await httpRequest(`${baseUrl}${path}`, target.headers, init);
      bytes = response.body.length;
      if (init || parse || kind === 'own records') body = JSON.parse(response.body.toString('utf8'));
      ok = response.status >= 200 && response.status < 300;
    } catch {
      ok = false;
    }
    samples.push({ kind, ms: performance.now() - started, ok, bytes });
    return body;
  };
  const own = (await call(
    'own records',
    `/api/demand-planning/grid?viewLevel=none&search=${pid}&limit=${cellCount}`,
  )) as {
    data?: { rows: SavedCell[] };
  } | null;
  const cells = (own?.data?.rows ?? []).map(({ PID, Time_Series_sk, version }) => ({
    PID,
    Time_Series_sk,
    version,
  }));
  const save = async (count = cells.length, kind = 'save') => {
    if (cells.length === 0) return;
    const start = Math.floor(Math.random() * (cells.length - Math.min(count, cells.length) + 1));
    const updates = cells
      .slice(start, start + count)
      .map((cell) => ({ ...cell, Rev_Pln_Ovrd_Percent: Math.round(Math.random() * 20) }));
    const saved = (await call(kind, '/api/demand-planning/real-data/batch', {
      method: 'POST',
      body: JSON.stringify({ updates }),
    })) as { data?: { items: SavedCell[] } } | null;
    for (const item of saved?.data?.items ?? []) {
      const cell = cells.find((c) => c.PID === item.PID && c.Time_Series_sk === item.Time_Series_sk);
      if (cell) cell.version = item.version;
    }
  };
  return { call, save, cells };
}

/** The mix's request kinds with their share of a planner's calls (grid pages: view level, then drill-down, uniform). */
export type Kind = {
  kind: string;
  share: number;
  run: (session: Session, target: Target) => Promise<unknown>;
};
/** A mix: its request kinds, and how many cells of their product each planner's saves may touch. */
export type Mix = { kinds: Kind[]; cells: number };
const GRID_SHARE = 0.55;
const KINDS: Kind[] = [
  ...VIEW_LEVELS.flatMap((viewLevel) => {
    const drillDowns = viewLevel === 'none' ? (['none'] as const) : SCREEN_DRILL_DOWNS;
    return drillDowns.map((drillDown): Kind => ({
      kind: `grid ${viewLevel}/${drillDown}`,
      share: GRID_SHARE / VIEW_LEVELS.length / drillDowns.length,
      run: (session, target) => {
        const { kind, path } = gridPath(target.businessUnits, viewLevel, drillDown);
        return session.call(kind, path);
      },
    }));
  }),
  { kind: 'dashboard', share: 0.1, run: (session) => session.call('dashboard', '/api/dashboard-metrics') },
  { kind: 'summary', share: 0.1, run: (session) => session.call('summary', '/api/summary-stats') },
  {
    kind: 'filter options',
    share: 0.1,
    run: (session) => session.call('filter options', '/api/demand-planning/filter-options'),
  },
  { kind: 'save', share: 0.15, run: (session) => session.save() },
];
export const PLANNERS_MIX: Mix = { kinds: KINDS, cells: 4 };

/** One planner: thinks, then makes one of the screen's calls, until the deadline. */
async function planner(
  target: Target,
  mix: Mix,
  index: number,
  deadline: number,
  samples: Sample[],
): Promise<void> {
  const session = await openSession(target, index, samples, mix.cells);
  while (performance.now() < deadline) {
    await sleep(Math.random() * settings.thinkMs);
    if (performance.now() >= deadline) break;
    let roll = Math.random();
    const kind = mix.kinds.find((k) => (roll -= k.share) < 0) ?? mix.kinds[mix.kinds.length - 1]!;
    await kind.run(session, target);
  }
}

export async function runLoad(target: Target, mix: Mix, users: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: users }, (_, i) => planner(target, mix, i, deadline, samples)));
  return samples.filter((s) => s.kind !== 'own records');
}

export function summarize(label: string, samples: Sample[], seconds: number): BenchRow {
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
/** CPU spent so far, in ms: the server processes, their PostgreSQL backends, this load generator. */
type CpuSpent = { server: number; postgres: number; generator: number };
type Servers = {
  target: Target;
  cpu: () => Promise<CpuSpent>;
  eventLoopDelays: () => Promise<EventLoopDelay[]>;
  close: () => Promise<void>;
};

/** The heap flags `npm run serve` gives the server (package.json): its garbage collector works as served. */
const SERVE_HEAP_FLAGS =
  (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: { serve: string };
    }
  ).scripts.serve.match(/--max-[a-z-]+-size=\d+/g) ?? [];

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU of a process from /proc/PID/stat, in ms; null once it is gone. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** A fresh schema with the default data set (700 × 52, as `npm start` seeds) and N server processes on it. */
export async function startServers(processes: number): Promise<Servers> {
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
  const applicationName = `planners-${schema}`;
  // A backend that closes keeps the CPU it had when last read (pool connections live on while busy).
  const backendCpu = new Map<number, number>();
  const cpu = async (): Promise<CpuSpent> => {
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where application_name = ${applicationName}`.execute(admin.db);
    for (const { pid } of rows) {
      const spent = processCpuMs(pid);
      if (spent !== null) backendCpu.set(pid, spent);
    }
    const { user, system } = process.cpuUsage();
    return {
      server: children.reduce((sum, child) => sum + (processCpuMs(child.pid!) ?? 0), 0),
      postgres: [...backendCpu.values()].reduce((sum, spent) => sum + spent, 0),
      generator: (user + system) / 1000,
    };
  };
  // One after another: the first creates the shared signing key that the others read.
  for (const port of ports) {
    const child = fork(new URL('./bench-process.ts', import.meta.url).pathname, {
      execArgv: [
        '--import',
        'tsx',
        ...SERVE_HEAP_FLAGS,
        ...(process.env.PLANNERS_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ],
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        OIDC_KEYS_FILE: join(keysDir, 'keys.json'),
        BENCH_DATABASE_URL: BENCH_POSTGRES_URL,
        BENCH_SCHEMA: schema,
        BENCH_APPLICATION_NAME: applicationName,
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
    cpu,
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
      // The forecast job queue's tables, beside the bench's schema.
      await sql`drop schema if exists ${sql.id(ForecastQueue.schemaFor(schema))} cascade`.execute(admin.db);
      await admin.close();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

const cpuLabel = (before: CpuSpent, after: CpuSpent, calls: number): string => {
  const per = (key: keyof CpuSpent) => (after[key] - before[key]) / calls;
  const total = per('server') + per('postgres') + per('generator');
  return `server ${ms(per('server'))}, PostgreSQL ${ms(per('postgres'))}, generator ${ms(per('generator'))}, in all ${ms(total)}`;
};

/**
 * CPU per call of each request kind, one planner calling sequentially (so the figures do not
 * include waiting, and hardly depend on the machine's load), and the mix's mean weighted by its
 * shares. Ticks are 10 ms, so a kind's figure is ±10 ms / calls.
 */
async function cpuPerCall(servers: Servers, mix: Mix, calls: number): Promise<BenchRow[]> {
  const samples: Sample[] = [];
  const session = await openSession(servers.target, 0, samples, mix.cells);
  const rows: BenchRow[] = [];
  const mean: CpuSpent = { server: 0, postgres: 0, generator: 0 };
  for (const kind of mix.kinds) {
    const before = await servers.cpu();
    for (let i = 0; i < calls; i += 1) await kind.run(session, servers.target);
    const after = await servers.cpu();
    for (const key of ['server', 'postgres', 'generator'] as const)
      mean[key] += ((after[key] - before[key]) / calls) * kind.share;
    const answers = samples.filter((sample) => sample.kind === kind.kind).slice(-calls);
    const kilobytes = answers.reduce((sum, sample) => sum + sample.bytes, 0) / answers.length / 1024;
    rows.push({
      requests: `CPU per call, ${kind.kind}: ${cpuLabel(before, after, calls)}; answer ${kilobytes.toFixed(1)} KB`,
    });
  }
  const zero: CpuSpent = { server: 0, postgres: 0, generator: 0 };
  rows.push({ requests: `CPU per call, the mix's mean: ${cpuLabel(zero, mean, 1)}` });
  if (samples.some((s) => !s.ok))
    rows.push({ requests: `CPU per call: ${samples.filter((s) => !s.ok).length} errors` });
  return rows;
}

/** The planners' mix at PLANNERS_USERS for PLANNERS_SECONDS, per request kind, then the ramp. */
export function runPlannersBench(): Promise<BenchRow[]> {
  return runMixBench(PLANNERS_MIX);
}

/** A mix at PLANNERS_USERS for PLANNERS_SECONDS, per request kind, then the ramp. */
export async function runMixBench(mix: Mix): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ skipped: `PostgreSQL is not reachable at ${BENCH_POSTGRES_URL}` }];
  const servers = await startServers(settings.processes);
  try {
    await runLoad(servers.target, mix, 10, 3); // warm-up: JIT, plans, connections
    const cpuRows = settings.cpuCalls > 0 ? await cpuPerCall(servers, mix, settings.cpuCalls) : [];
    await servers.eventLoopDelays();
    const before = await servers.cpu();
    const samples = await runLoad(servers.target, mix, settings.users, settings.seconds);
    const after = await servers.cpu();
    const delays = await servers.eventLoopDelays();
    const label = `all (${settings.users} users, ${settings.processes} process)`;
    const rows: BenchRow[] = [summarize(label, samples, settings.seconds)];
    rows.push({ requests: `CPU per call under load: ${cpuLabel(before, after, samples.length)}` });
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
    rows.push(...cpuRows);
    let most = 0;
    for (const users of settings.ramp) {
      const step = await runLoad(servers.target, mix, users, settings.rampSeconds);
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
