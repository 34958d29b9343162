import { DRILL_DOWNS, VIEW_LEVELS, type DemandRecord, type GridPage } from '@ps/domain';
import { sql } from 'kysely';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { getJson, startBenchServer } from './bench-server';
import { budgetRow, timeRuns, type BenchRow } from './stats';

const SIZE = { products: 20_000, weeks: 156 };
const BUDGET = { firstPage: 300, aggregation: 1000, save: 1000 };

/**
 * The planning grid on 20,000 products × 156 weeks (3.12 M records) in PostgreSQL, over HTTP:
 * first page, every view level × drill-down, and a 500-cell batch save.
 */
export async function runPlanningGridBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ case: 'skipped: PostgreSQL at 127.0.0.1:5432 is not reachable' }];
  const server = await startBenchServer('postgres', SIZE);
  try {
    const rows: BenchRow[] = [
      {
        case: `seed ${SIZE.products} × ${SIZE.weeks} (${server.seed.records} records, roll-up triggers on)`,
        runs: 1,
        p50: `${server.seed.seconds.toFixed(1)} s`,
        p95: '',
        budget: '',
        verdict: '',
      },
    ];
    // What autovacuum does after a bulk load; it keeps index-only scans off the heap.
    const vacuumStarted = performance.now();
    await sql`vacuum analyze`.execute(server.database.db);
    rows.push({
      case: 'vacuum analyze after seeding',
      runs: 1,
      p50: `${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`,
    });

    const page = (query: string) => getJson<GridPage>(server, `/api/demand-planning/grid?${query}`);
    await page('viewLevel=none&drillDown=none&limit=100'); // warm-up
    rows.push(
      budgetRow(
        'first page, original table (100 rows)',
        await timeRuns(40, () => page('viewLevel=none&drillDown=none&limit=100')),
        BUDGET.firstPage,
      ),
    );
    rows.push(
      budgetRow(
        'first page, default view (category)',
        await timeRuns(40, () => page('limit=100')),
        BUDGET.firstPage,
      ),
    );
    rows.push(
      budgetRow(
        'page 2000 of the original table',
        await timeRuns(20, () => page('viewLevel=none&drillDown=none&limit=100&offset=200000')),
        BUDGET.firstPage,
      ),
    );
    for (const viewLevel of VIEW_LEVELS) {
      for (const drillDown of DRILL_DOWNS) {
        if (viewLevel === 'none' && drillDown === 'none') continue;
        const query = `viewLevel=${viewLevel}&drillDown=${drillDown}&limit=100`;
        await page(query);
        rows.push(
          budgetRow(`${viewLevel} × ${drillDown}`, await timeRuns(15, () => page(query)), BUDGET.aggregation),
        );
      }
    }
    rows.push(
      budgetRow(
        'business_unit × monthly, BU + region filter',
        await timeRuns(15, () =>
          page('viewLevel=business_unit&drillDown=monthly&bu=Instrumentation&region=EMEA'),
        ),
        BUDGET.aggregation,
      ),
    );
    rows.push(
      budgetRow(
        'filter options',
        await timeRuns(15, () => getJson(server, '/api/demand-planning/filter-options')),
        BUDGET.firstPage,
      ),
    );
    rows.push(
      budgetRow(
        'dashboard metrics',
        await timeRuns(15, () => getJson(server, '/api/dashboard-metrics')),
        BUDGET.aggregation,
      ),
    );
    rows.push(
      budgetRow(
        'summary stats',
        await timeRuns(15, () => getJson(server, '/api/summary-stats')),
        BUDGET.aggregation,
      ),
    );

    // 500 cells: a percent override on 500 future records, alternating so every save changes them.
    const records = (
      await getJson<{ items: DemandRecord[] }>(
        server,
        '/api/demand-planning/real-data?limit=5000&from=20261115',
      )
    ).items.slice(0, 500);
    const versions = new Map(records.map((r) => [`${r.PID}|${r.Time_Series_sk}`, r.version]));
    let round = 0;
    const save = async () => {
      round += 1;
      const response = await fetch(`${server.baseUrl}/api/demand-planning/real-data/batch`, {
        method: 'POST',
        headers: { ...server.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          updates: records.map((r) => ({
            PID: r.PID,
            Time_Series_sk: r.Time_Series_sk,
            version: versions.get(`${r.PID}|${r.Time_Series_sk}`),
            Rev_Pln_Ovrd_Percent: round % 2 === 0 ? 5 : 7.5,
          })),
        }),
      });
      if (!response.ok)
        throw new Error(`Batch save failed: HTTP ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { data: { items: DemandRecord[]; changedFields: number } };
      if (body.data.changedFields !== 500)
        throw new Error(`Batch save changed ${body.data.changedFields} cells, not 500`);
      for (const item of body.data.items) versions.set(`${item.PID}|${item.Time_Series_sk}`, item.version);
    };
    rows.push(budgetRow('batch save, 500 cells (500 records)', await timeRuns(10, save), BUDGET.save));
    return rows;
  } finally {
    await server.close();
  }
}
