import { MAX_LAG, MIN_LAG, type WorksheetFilters } from '@ps/domain';
import { sql } from 'kysely';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, vacuumSchema, type BenchServer } from './bench-server';
import { budgetRow, timeRuns, type BenchRow } from './stats';

/**
 * The control tower's budgets on 20,000 × 156 (CONTROL_TOWER_BENCH_PRODUCTS / _WEEKS to try other sizes;
 * CONTROL_TOWER_BENCH_SCHEMA=name seeds that schema once and reuses it on later runs).
 */
const SIZE = {
  products: Number(process.env.CONTROL_TOWER_BENCH_PRODUCTS ?? 20_000),
  weeks: Number(process.env.CONTROL_TOWER_BENCH_WEEKS ?? 156),
};
const BUDGET = { worksheet: 500, accuracy: 500, publish: 10_000 };

async function call(server: BenchServer, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...server.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} failed: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: unknown }).data;
}

/**
 * Control tower on 20,000 × 156 in PostgreSQL over HTTP: the forecast snapshots' size, the
 * worksheet for every company × business unit × family, accuracy at every lag, and a full publish.
 */
export async function runControlTowerBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ case: 'skipped: PostgreSQL at 127.0.0.1:5432 is not reachable' }];
  const kept = process.env.CONTROL_TOWER_BENCH_SCHEMA;
  const server = await startBenchServer('postgres', SIZE, undefined, { kept });
  try {
    await vacuumSchema(server.database);
    const { rows: size } = await sql<{ rows: number; bytes: number; records: number }>`
      select (select count(*)::int from forecast_snapshots) as rows,
        pg_total_relation_size('forecast_snapshots')::float8 as bytes,
        (select count(*)::int from demand_records) as records`.execute(server.database.db);
    const rows: BenchRow[] = [
      {
        case: server.seed.kept
          ? `kept schema ${kept} (${server.seed.records} records): migrate to latest`
          : `seed ${SIZE.products} × ${SIZE.weeks} (${server.seed.records} records)`,
        runs: 1,
        p50: `${server.seed.seconds.toFixed(1)} s`,
        p95: '',
        budget: '',
        verdict: '',
      },
      {
        case: `forecast_snapshots: ${size[0]!.rows} rows (26 weeks × 3 plans each), table + indexes`,
        runs: 1,
        p50: `${(size[0]!.bytes / 1024 / 1024).toFixed(1)} MB`,
      },
    ];
    const filters = (await call(server, 'GET', '/api/control-tower/filters')) as WorksheetFilters;
    const queries = filters.productFamilies.map((f) =>
      new URLSearchParams({
        company: f.companyId,
        businessUnit: f.businessUnitId,
        productFamily: f.id,
      }).toString(),
    );
    let next = 0;
    await call(server, 'GET', `/api/control-tower/worksheet?${queries[0]}`);
    rows.push(
      budgetRow(
        `worksheet, every filter combination (${queries.length}), round robin`,
        await timeRuns(queries.length * 3, () =>
          call(server, 'GET', `/api/control-tower/worksheet?${queries[next++ % queries.length]}`),
        ),
        BUDGET.worksheet,
      ),
    );
    let lag = MIN_LAG;
    rows.push(
      budgetRow(
        `accuracy, lags ${MIN_LAG}–${MAX_LAG} round robin`,
        await timeRuns((MAX_LAG - MIN_LAG + 1) * 2, () => {
          const current = lag;
          lag = lag === MAX_LAG ? MIN_LAG : lag + 1;
          return call(server, 'GET', `/api/control-tower/accuracy?lag=${current}`);
        }),
        BUDGET.accuracy,
      ),
    );
    // A publish writes only the records whose P1/P2 it changes, from the current quarter on: a kept
    // schema published before has fewer to move, so the figure says how many it moved.
    const { rows: moving } = await sql<{ n: number }>`
      select count(*)::int as n from demand_records r
      where r.week_start >= date_trunc('quarter', current_date - extract(dow from current_date)::int)::date
        and (r.p2_pub_pln_units, r.p2_pub_pln_cost, r.p2_pub_pln_rev_dlrs,
            r.p1_pub_pln_units, r.p1_pub_pln_cost, r.p1_pub_pln_rev_dlrs)
          is distinct from (r.p1_pub_pln_units, r.p1_pub_pln_cost, r.p1_pub_pln_rev_dlrs,
            r.final_pln_units, r.final_bk_pln_cost, r.final_pln_rev_dlrs)`.execute(server.database.db);
    const started = performance.now();
    await call(server, 'POST', '/api/plan-cycles', { label: 'Bench cycle' });
    rows.push(
      budgetRow(
        `publish a cycle, all products (one run, ${moving[0]!.n} records moved)`,
        [performance.now() - started],
        BUDGET.publish,
      ),
    );
    return rows;
  } finally {
    await server.close();
  }
}
