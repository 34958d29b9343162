import type { InventoryPage } from '@ps/domain';
import { sql } from 'kysely';
import { recomputeInventory } from '../apps/server/src/modules/inventory';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { getJson, startBenchServer } from './bench-server';
import { budgetRow, timeRuns, type BenchRow } from './stats';

/**
 * 20,000 products × 3 sites; 52 weeks of records (the recompute reads 39 of them).
 * INVENTORY_BENCH_SCHEMA=name seeds that schema once and reuses it on later runs (give it a
 * database of its own with BENCH_DATABASE_URL: the migration lock is per database).
 */
const SIZE = { products: 20_000, weeks: 52 };
const BUDGET = { page: 200, metrics: 500, recompute: 30_000 };

/** The inventory override page for every filter, the two control tower screens, and the recompute. */
export async function runInventoryBench(): Promise<BenchRow[]> {
  if (!(await isPostgresReachable()))
    return [{ case: 'skipped: PostgreSQL at 127.0.0.1:5432 is not reachable' }];
  const kept = process.env.INVENTORY_BENCH_SCHEMA;
  const server = await startBenchServer('postgres', SIZE, undefined, { kept });
  try {
    const { rows: counted } = await sql<{ rows: number }>`
      select count(*)::int as rows from inventory_parameters`.execute(server.database.db);
    const rows: BenchRow[] = [
      {
        case: server.seed.kept
          ? `kept schema ${kept} with ${counted[0]!.rows} product × site rows: migrate to latest`
          : `seed ${SIZE.products} × ${SIZE.weeks} with ${counted[0]!.rows} product × site rows`,
        runs: 1,
        p50: `${server.seed.seconds.toFixed(1)} s`,
        p95: '',
        budget: '',
        verdict: '',
      },
    ];

    const page = (query: string) => getJson<InventoryPage>(server, `/api/inventory/overrides?${query}`);
    const first = (await page('page=1')).items[0]!;
    const filters: Array<[string, string]> = [
      ['no filter, page 1', 'page=1'],
      ['no filter, page 2000', 'page=2000'],
      ['category', `category=${encodeURIComponent(first.category)}`],
      ['business unit', `businessUnit=${encodeURIComponent(first.businessUnit)}`],
      ['region', `region=${encodeURIComponent(first.region)}`],
      ['site', `site=${encodeURIComponent(first.site)}`],
      [
        'all four filters',
        `category=${encodeURIComponent(first.category)}&businessUnit=${encodeURIComponent(first.businessUnit)}&region=${encodeURIComponent(first.region)}&site=${encodeURIComponent(first.site)}`,
      ],
      ['one SKU (S&D link)', `sku=${first.sku}`],
    ];
    for (const [name, query] of filters) {
      await page(query);
      rows.push(budgetRow(`override page: ${name}`, await timeRuns(20, () => page(query)), BUDGET.page));
    }
    rows.push(
      budgetRow(
        'filter options',
        await timeRuns(20, () => getJson(server, '/api/inventory/filter-options')),
        BUDGET.page,
      ),
    );
    await getJson(server, '/api/inventory/metrics');
    rows.push(
      budgetRow(
        'inventory metrics',
        await timeRuns(20, () => getJson(server, '/api/inventory/metrics')),
        BUDGET.metrics,
      ),
    );
    rows.push(
      budgetRow(
        'S&D match trend',
        await timeRuns(20, () => getJson(server, '/api/inventory/sd-match')),
        BUDGET.metrics,
      ),
    );
    const anchor = new Date('2026-11-15T00:00:00Z');
    rows.push(
      budgetRow(
        'recompute every OUL and the projection (after a forecast run)',
        await timeRuns(2, () => recomputeInventory(server.database.db, { asOf: anchor })),
        BUDGET.recompute,
      ),
    );
    return rows;
  } finally {
    await server.close();
  }
}
