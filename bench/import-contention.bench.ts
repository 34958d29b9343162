import { isPostgresReachable } from '../apps/server/test/support/backends';
import { csvOf, importOnce, rowsOf } from './import.bench';
import { PLANNERS_MIX, runLoad, startServers, summarize, type Sample } from './planners.bench';
import { ms, percentile, type BenchRow } from './stats';

const envNumber = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
/** Planners at work (the planners' mix) before and during the import. */
const USERS = envNumber('CONTENTION_USERS', 100);
/** Seconds of the quiet run the import's figures are compared with. */
const QUIET_SECONDS = envNumber('CONTENTION_QUIET_SECONDS', 30);
/** The load runs in rounds of this many seconds until the import has ended. */
const ROUND_SECONDS = 10;
/** A save during the import: p95 under this, and none refused. */
const SAVE_P95_MS = 1000;
/** A read during the import: p95 within this many times its quiet p95. */
const READ_SLOWDOWN = 2;

const p95 = (samples: readonly Sample[]) =>
  percentile(
    samples.map((s) => s.ms),
    95,
  );

/**
 * Planners at work while a colleague imports the import bench's 100,000-row file (import.bench.ts:
 * overrides for every product, 99,300 new SKUs) on the default data set in PostgreSQL: the planners'
 * mix at USERS users, quiet for QUIET_SECONDS, then for as long as the import runs, then
 * QUIET_SECONDS after it. Saves must keep a p95 under SAVE_P95_MS with no failure, reads within
 * READ_SLOWDOWN × their quiet p95.
 */
export async function runImportContentionBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable())) return [{ skipped: 'PostgreSQL is not reachable' }];
  const servers = await startServers(1);
  try {
    const { target } = servers;
    await runLoad(target, PLANNERS_MIX, 10, 3); // warm-up: JIT, plans, connections
    await servers.eventLoopDelays();
    const quiet = await runLoad(target, PLANNERS_MIX, USERS, QUIET_SECONDS);
    const [quietDelay] = await servers.eventLoopDelays();
    const file = csvOf(rowsOf(target.pids, 1));
    let isImporting = true;
    const imported = importOnce(
      { baseUrl: target.baseUrls[0]!, headers: target.headers },
      'contention.csv',
      file,
    ).finally(() => {
      isImporting = false;
    });
    const during: Sample[] = [];
    // The server's event loop in each round: a slow loop keeps every request's transaction (and
    // the rows it locked) open between its statements.
    const roundDelays: string[] = [];
    let seconds = 0;
    while (isImporting) {
      during.push(...(await runLoad(target, PLANNERS_MIX, USERS, ROUND_SECONDS)));
      seconds += ROUND_SECONDS;
      const [delay] = await servers.eventLoopDelays();
      if (delay) roundDelays.push(`${ms(delay.p99)}/${ms(delay.max)}`);
    }
    const run = await imported;
    // The same mix once the import has ended, over the data it added: a read as slow after as
    // during pays for the larger data set, not for waiting on the import.
    const after = await runLoad(target, PLANNERS_MIX, USERS, QUIET_SECONDS);
    const rows: BenchRow[] = [
      {
        requests: `import: ${ms(run.ms)} (${run.job.outcome?.created} created, ${run.job.outcome?.updated} updated)`,
      },
      summarize(`quiet: all (${USERS} users)`, quiet, QUIET_SECONDS),
      summarize(`during the import: all (${USERS} users)`, during, seconds),
      summarize(`after the import: all (${USERS} users)`, after, QUIET_SECONDS),
      {
        requests: `server event-loop delay: quiet p99 ${ms(quietDelay?.p99 ?? NaN)}, max ${ms(quietDelay?.max ?? NaN)}; during, p99/max per ${ROUND_SECONDS} s round: ${roundDelays.join(', ')}`,
      },
    ];
    for (const kind of [...new Set([...quiet, ...during].map((s) => s.kind))].sort()) {
      const before = quiet.filter((s) => s.kind === kind);
      const now = during.filter((s) => s.kind === kind);
      const isSave = kind === 'save';
      const budget = isSave ? SAVE_P95_MS : READ_SLOWDOWN * p95(before);
      const isOk = now.every((s) => s.ok) && p95(now) < budget;
      rows.push({
        ...summarize(`${kind}: quiet → during`, now, seconds),
        'quiet p95': ms(p95(before)),
        'after p95': ms(p95(after.filter((s) => s.kind === kind))),
        budget: isSave ? `p95 < ${ms(SAVE_P95_MS)}, no failure` : `p95 < ${READ_SLOWDOWN} × quiet`,
        verdict: isOk ? 'ok' : 'OVER',
      });
    }
    return rows;
  } finally {
    await servers.close();
  }
}
