import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { DemandRecord } from '@ps/domain';
import { sql } from 'kysely';
import { readWithoutJit } from '../apps/server/src/db/write-transaction';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { budgetRow, timeRuns, type BenchRow } from './stats';

type Page = { data: { items: DemandRecord[]; nextToken: string | null } };

const SIZES = [500, 2000, 5000] as const;
const REPETITIONS = 5;
/** Every size under 1 s at p95 with the server's JIT settings. */
const BUDGET_MS = 1000;

/** Every PostgreSQL JIT threshold at 0: each query is compiled, as a large cost estimate would be. */
const JIT_FORCED = {
  jit: 'on',
  jit_above_cost: '0',
  jit_inline_above_cost: '0',
  jit_optimize_above_cost: '0',
};

/** The bench server's PostgreSQL connections, by name, so that their CPU can be read from /proc. */
const APPLICATION_NAME = 'batch-save-bench';

/**
 * CPU time (ms) the server's PostgreSQL backends have used so far, from /proc (utime + stime, clock
 * ticks of 1/100 s); null when the server is not on this machine. Less noisy than wall time on a
 * busy machine, and it counts what a save leaves running after it answers (a JIT compile of a
 * read it starts, a background refresh) as well as its own statements.
 */
async function postgresCpuMs(server: BenchServer): Promise<number | null> {
  // Without JIT: with the thresholds at 0 this query's own compiling would count as the saves'.
  const { rows } = await readWithoutJit(server.database.db, (trx) =>
    sql<{ pid: number }>`
      select pid from pg_stat_activity where application_name = ${APPLICATION_NAME}`.execute(trx),
  );
  try {
    return rows.reduce((total, { pid }) => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return total + (Number(fields[11]) + Number(fields[12])) * 10;
    }, 0);
  } catch {
    return null;
  }
}

async function firstRecords(server: BenchServer, count: number): Promise<DemandRecord[]> {
  const response = await fetch(`${server.baseUrl}/api/demand-planning/real-data?limit=${count}`, {
    headers: server.headers,
  });
  return ((await response.json()) as Page).data.items;
}

/**
 * What a batch writes in each record: one comment shared by every record of the batch, or a new
 * comment of each record's own (every record a note the roll-ups have not seen, the costliest case
 * for the notes they keep).
 */
type Comments = 'shared' | 'each its own';

/** One Save Changes of `records.length` cells (one comment per record), refused unless it succeeds. */
async function saveBatch(
  server: BenchServer,
  records: DemandRecord[],
  comment: string,
  comments: Comments,
): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/demand-planning/real-data/batch`, {
    method: 'POST',
    headers: { ...server.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      updates: records.map((r, i) => ({
        PID: r.PID,
        Time_Series_sk: r.Time_Series_sk,
        Comments: comments === 'shared' ? comment : `${comment}: record ${i}`,
      })),
    }),
  });
  if (!response.ok) throw new Error(`Batch save failed: HTTP ${response.status} ${await response.text()}`);
}

/** The cases of each JIT setting: every size with a shared comment, and the largest with new comments. */
const CASES: ReadonlyArray<{ size: number; comments: Comments }> = [
  ...SIZES.map((size) => ({ size, comments: 'shared' as const })),
  { size: Math.max(...SIZES), comments: 'each its own' },
];

/**
 * Batch saves of 500, 2,000 and 5,000 cells over HTTP on the default data set (700 × 52) in
 * PostgreSQL, and of 5,000 records each given a new comment of its own, with the server's JIT
 * settings (on by default) and with JIT forced on every query.
 * A failed case is reported as a row, so one slow configuration never hides the others' figures.
 */
export async function runBatchSaveBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [];
  const rows: BenchRow[] = [];
  for (const [jit, settings] of [
    ['server default', undefined],
    ['forced (all thresholds 0)', JIT_FORCED],
  ] as const) {
    const server = await startBenchServer(
      'postgres',
      { products: 700, weeks: 52 },
      { application_name: APPLICATION_NAME, ...settings },
    );
    try {
      const records = await firstRecords(server, Math.max(...SIZES));
      for (const { size, comments } of CASES) {
        const what = comments === 'shared' ? 'cells' : 'records, each with a new comment of its own';
        const name = `${size.toLocaleString('en-US')} ${what}, JIT ${jit}`;
        const batch = records.slice(0, size);
        let round = 0;
        try {
          await saveBatch(server, batch, 'warm-up', comments);
          const cpu = process.cpuUsage();
          const postgresBefore = await postgresCpuMs(server);
          // Each save changes every cell: the comment alternates from one repetition to the next.
          const timings = await timeRuns(REPETITIONS, () =>
            saveBatch(server, batch, `bench ${(round += 1)}`, comments),
          );
          const used = process.cpuUsage(cpu);
          const postgresAfter = await postgresCpuMs(server);
          rows.push({
            ...budgetRow(name, timings, BUDGET_MS),
            // Less noisy than the times on a busy machine: the server and this client share the process.
            'Node CPU per save': `${((used.user + used.system) / 1000 / REPETITIONS).toFixed(0)} ms`,
            'PostgreSQL CPU per save':
              postgresBefore === null || postgresAfter === null
                ? ''
                : `${((postgresAfter - postgresBefore) / REPETITIONS).toFixed(0)} ms`,
            'load average': loadavg()[0]!.toFixed(1),
          });
        } catch (error) {
          rows.push({
            case: name,
            runs: round,
            p50: '',
            p95: '',
            budget: `< ${BUDGET_MS} ms`,
            verdict: String(error),
          });
        }
      }
    } finally {
      await server.close();
    }
  }
  return rows;
}
