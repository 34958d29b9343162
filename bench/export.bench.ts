import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FilterOptions } from '@ps/domain';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';
import { seedDemoData } from '../apps/server/src/seed/seed-demo-data';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { freePort } from '../apps/server/test/support/free-port';
import { signInOverHttp } from '../apps/server/test/support/sign-in';
import { BENCH_POSTGRES_URL } from './bench-server';
import { ms, percentile, timeRuns, type BenchRow } from './stats';

/**
 * The heap limit `npm run serve` gives the server (package.json). V8 lets the old generation grow
 * to a multiple of what is live before it collects, and a smaller limit lowers that multiple:
 * the export's short-lived garbage is then collected at about 100 MB of heap instead of 260 MB.
 */
const SERVE_HEAP_FLAGS =
  (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: { serve: string };
    }
  ).scripts.serve.match(/--max-old-space-size=\d+/g) ?? [];

const DEFAULT_SIZE = { products: 700, weeks: 52 };
const LARGE_SIZE = { products: 20_000, weeks: 156 };
const BUDGET = { detailedMs: 5000, quickRssMb: 300, quickRecords: 1_000_000 };

export type ExportServer = {
  baseUrl: string;
  headers: Record<string, string>;
  /** The server process's resident memory now and at its peak, from /proc (Linux). */
  memoryMb: () => { rss: number; peak: number };
  /** CPU seconds the server process has used (user + system), from /proc: less noisy than time under load. */
  cpuSeconds: () => number;
  seedSeconds: number;
  close: () => Promise<void>;
};

/**
 * The server in a process of its own over a freshly seeded PostgreSQL schema, so that its memory
 * is the server's alone (the bench reads the download in this process).
 */
export async function startExportServer(
  size: { products: number; weeks: number },
  /** A schema to seed once and keep (or to reuse when it exists), so re-runs skip the seed. */
  kept?: string,
): Promise<ExportServer> {
  const schema = kept ?? `bench_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ kind: 'postgres', url: BENCH_POSTGRES_URL, poolSize: 1 });
  const { rows: existing } =
    await sql`select 1 from information_schema.schemata where schema_name = ${schema}`.execute(admin.db);
  const isSeeded = kept !== undefined && existing.length > 0;
  if (!isSeeded) await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  // No statement limits while seeding: 3 M records with their roll-up triggers take minutes.
  const database = openDatabase({
    kind: 'postgres',
    url: BENCH_POSTGRES_URL,
    schema,
    poolSize: 4,
    timeouts: { statementMs: 0, lockMs: 0 },
  });
  const seeded = performance.now();
  // A kept schema is brought to the latest migration, as the server would at start.
  await migrateToLatest(database.db);
  if (!isSeeded) {
    await seedDemoData(database.db, { ...size, anchor: new Date('2026-11-15T00:00:00Z') });
    // Only this schema's tables: a database-wide vacuum would wait behind other benches' seeds.
    const { rows: tables } = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = ${schema}`.execute(database.db);
    for (const { name } of tables) await sql`vacuum analyze ${sql.id(schema, name)}`.execute(database.db);
  }
  const seedSeconds = isSeeded ? 0 : (performance.now() - seeded) / 1000;
  await database.close();
  const keysDir = mkdtempSync(join(tmpdir(), 'export-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = fork(new URL('./bench-process.ts', import.meta.url).pathname, {
    execArgv: [...SERVE_HEAP_FLAGS, '--import', 'tsx'],
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      OIDC_KEYS_FILE: join(keysDir, 'keys.json'),
      BENCH_DATABASE_URL: BENCH_POSTGRES_URL,
      BENCH_SCHEMA: schema,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`Bench server exited with code ${code}`)));
  });
  const tokens = await signInOverHttp(baseUrl, { email: 'admin@demo.local', password: 'admin-demo' });
  const kb = (status: string, field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    baseUrl,
    headers: { authorization: `Bearer ${tokens.id_token}` },
    seedSeconds,
    memoryMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return { rss: kb(status, 'VmRSS') / 1024, peak: kb(status, 'VmHWM') / 1024 };
    },
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/pid/stat, after the command name in parentheses; clock ticks of 1/100 s.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    close: async () => {
      await new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'));
      if (kept === undefined) await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

/** Downloads a file, reading and dropping its bytes as they come; its size, rows header and time. */
async function download(server: ExportServer, path: string) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}${path}`, { headers: server.headers });
  if (!response.ok || !response.body) throw new Error(`GET ${path}: HTTP ${response.status}`);
  let bytes = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
  return { bytes, rows: response.headers.get('x-export-rows'), ms: performance.now() - started };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function defaultDataSet(): Promise<BenchRow[]> {
  const server = await startExportServer(DEFAULT_SIZE);
  try {
    const path = '/api/demand-planning/export-detailed.xlsx?viewLevel=category&drillDown=none';
    const first = await download(server, path); // warm-up: JIT, plans, connections
    const timings = await timeRuns(3, () => download(server, path));
    const p95 = percentile(timings, 95);
    const quick = await download(server, '/api/demand-planning/export.xlsx?viewLevel=none&drillDown=none');
    return [
      {
        case: `Detailed Export, ${DEFAULT_SIZE.products} × ${DEFAULT_SIZE.weeks} (${first.rows} SKU rows, ${mb(first.bytes)})`,
        runs: timings.length,
        p50: ms(percentile(timings, 50)),
        p95: ms(p95),
        budget: `< ${BUDGET.detailedMs} ms`,
        verdict: p95 < BUDGET.detailedMs ? 'ok' : 'OVER',
      },
      {
        case: `Quick Export .xlsx, original table ${DEFAULT_SIZE.products * DEFAULT_SIZE.weeks} records (${mb(quick.bytes)})`,
        runs: 1,
        p50: ms(quick.ms),
        p95: '',
        budget: '',
        verdict: '',
      },
    ];
  } finally {
    await server.close();
  }
}

async function largeDataSet(): Promise<BenchRow[]> {
  const server = await startExportServer(LARGE_SIZE, process.env.EXPORT_BENCH_SCHEMA);
  try {
    // Business units, largest first, until they hold at least a million records.
    const options = await fetch(`${server.baseUrl}/api/demand-planning/filter-options`, {
      headers: server.headers,
    });
    const units = ((await options.json()) as { data: FilterOptions }).data.businessUnits.sort(
      (a, b) => b.count - a.count,
    );
    const chosen: string[] = [];
    let records = 0;
    for (const unit of units) {
      if (records >= BUDGET.quickRecords) break;
      chosen.push(unit.value);
      records += unit.count;
    }
    const before = server.memoryMb();
    const cpuBefore = server.cpuSeconds();
    let sampled = before.rss;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, server.memoryMb().rss);
    }, 100);
    const bu = encodeURIComponent(chosen.join(','));
    const quick = await download(
      server,
      `/api/demand-planning/export.xlsx?viewLevel=none&drillDown=none&bu=${bu}`,
    );
    clearInterval(sampler);
    const cpu = server.cpuSeconds() - cpuBefore;
    const after = server.memoryMb();
    const peak = Math.max(after.peak, sampled);
    return [
      {
        case: `seed ${LARGE_SIZE.products} × ${LARGE_SIZE.weeks}`,
        runs: 1,
        p50: server.seedSeconds ? `${server.seedSeconds.toFixed(0)} s` : 'kept schema, not seeded',
        p95: '',
        budget: '',
        verdict: '',
      },
      {
        case: `Quick Export .xlsx of ${records.toLocaleString('en-US')} records (${chosen.length} business units, ${mb(quick.bytes)}), server RSS ${before.rss.toFixed(0)} MB before`,
        runs: 1,
        p50: `${(quick.ms / 1000).toFixed(1)} s (server CPU ${cpu.toFixed(0)} s), peak RSS ${peak.toFixed(0)} MB`,
        p95: '',
        budget: `< ${BUDGET.quickRssMb} MB`,
        verdict: peak < BUDGET.quickRssMb ? 'ok' : 'OVER',
      },
    ];
  } finally {
    await server.close();
  }
}

/**
 * Detailed Export on the default data set (budget < 5 s) and Quick Export of at least a million
 * records of 20,000 × 156 to .xlsx (budget: server memory < 300 MB), PostgreSQL, over HTTP.
 * EXPORT_BENCH_LARGE=0 skips the large data set (its seed alone takes minutes);
 * EXPORT_BENCH_DEFAULT=0 skips the default one; EXPORT_BENCH_SCHEMA=name seeds it into that schema once and keeps it for the next runs.
 */
export async function runExportBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ case: `skipped: PostgreSQL is not reachable at ${BENCH_POSTGRES_URL}` }];
  const rows = process.env.EXPORT_BENCH_DEFAULT === '0' ? [] : await defaultDataSet();
  // The large data set takes many minutes: show what is known meanwhile.
  console.error(rows.map((row) => `${row.case}: ${row.p50} ${row.verdict ?? ''}`).join('\n'));
  if (process.env.EXPORT_BENCH_LARGE !== '0') rows.push(...(await largeDataSet()));
  return rows;
}
