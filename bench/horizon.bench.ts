import { addWeeks } from '@ps/domain';
import { MovableClock } from '../apps/server/src/lib/clock';
import { rollHorizon } from '../apps/server/src/modules/horizon';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { getJson, startBenchServer } from './bench-server';
import { budgetRow, ms, percentile, timeRuns, type BenchRow } from './stats';

/**
 * Rolling the plan one week at 20,000 products × 156 weeks (78 of them ahead, the default
 * horizon), and a grid page's p95 while the roll runs against its quiet value.
 * HORIZON_BENCH_SCHEMA=name seeds that schema once and reuses it (each run rolls one more week).
 */
const SIZE = { products: 20_000, weeks: 156, futureWeeks: 78 };
const HORIZON = 78;
const BUDGET = { roll: 30_000, check: 50 };
const GRID = '/api/demand-planning/grid?viewLevel=none&drillDown=none&limit=100';

export async function runHorizonBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ case: 'skipped: PostgreSQL at 127.0.0.1:5432 is not reachable' }];
  const server = await startBenchServer('postgres', SIZE, undefined, {
    kept: process.env.HORIZON_BENCH_SCHEMA,
    // The roll's cost is the records' count and keys, not the demo's figures.
    isSqlSeed: true,
  });
  try {
    const rows: BenchRow[] = [
      {
        case: server.seed.kept
          ? 'kept schema: migrate to latest'
          : `seed ${SIZE.products} × ${SIZE.weeks} (${SIZE.futureWeeks} ahead)`,
        runs: 1,
        p50: `${server.seed.seconds.toFixed(1)} s`,
      },
    ];
    const state = await server.database.db
      .selectFrom('plan_horizon')
      .select('last_rolled_week')
      .executeTakeFirstOrThrow();
    // The week after the last rolled one: one week's roll, whatever earlier runs rolled.
    const clock = new MovableClock(addWeeks(new Date(`${state.last_rolled_week}T00:00:00Z`), 1));

    await getJson(server, GRID);
    const quiet = await timeRuns(20, () => getJson(server, GRID));
    rows.push(budgetRow('grid page (100 records), quiet', quiet, 200));

    let isDone = false;
    const started = performance.now();
    const roll = rollHorizon(server.database.db, clock, { horizonWeeks: HORIZON }).finally(() => {
      isDone = true;
    });
    const during: number[] = [];
    while (!isDone) {
      const at = performance.now();
      await getJson(server, GRID);
      during.push(performance.now() - at);
    }
    const outcome = await roll;
    const rollMs = performance.now() - started;
    rows.push({
      ...budgetRow(
        `roll one week (${outcome.rolled ? outcome.recordsAdded : 0} records added)`,
        [rollMs],
        BUDGET.roll,
      ),
    });
    const quietP95 = percentile(quiet, 95);
    const duringP95 = percentile(during, 95);
    rows.push({
      case: 'grid page while the roll runs',
      runs: during.length,
      p50: ms(percentile(during, 50)),
      p95: ms(duringP95),
      budget: `< 2 × quiet (${ms(2 * quietP95)})`,
      verdict: duringP95 < 2 * quietP95 ? 'ok' : 'OVER',
    });
    rows.push(
      budgetRow(
        'check when up to date (every HORIZON_CHECK_MS)',
        await timeRuns(20, () => rollHorizon(server.database.db, clock, { horizonWeeks: HORIZON })),
        BUDGET.check,
      ),
    );
    return rows;
  } finally {
    await server.close();
  }
}
