import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer, type BenchServer } from './bench-server';
import { ms, percentile, timeRuns, type BenchRow } from './stats';

type Page = { data: { items: unknown[]; nextToken: string | null } };

async function getPage(server: BenchServer, token?: string | null): Promise<Page> {
  const query = token ? `limit=1000&nextToken=${encodeURIComponent(token)}` : 'limit=1000';
  const response = await fetch(`${server.baseUrl}/api/demand-planning/real-data?${query}`, {
    headers: server.headers,
  });
  if (!response.ok) throw new Error(`List call failed: HTTP ${response.status}`);
  return (await response.json()) as Page;
}

/** List-call latency on the default data set (700 products × 52 weeks): first page, and a full paged read. */
export async function runListLatencyBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const engines: Array<'pglite' | 'postgres'> = (await isPostgresReachable())
    ? ['pglite', 'postgres']
    : ['pglite'];
  for (const engine of engines) {
    const server = await startBenchServer(engine, { products: 700, weeks: 52 });
    try {
      await getPage(server); // warm-up
      const firstPage = await timeRuns(40, () => getPage(server));
      let records = 0;
      const fullRead = await timeRuns(5, async () => {
        records = 0;
        let token: string | null = null;
        do {
          const page: Page = await getPage(server, token);
          records += page.data.items.length;
          token = page.data.nextToken;
        } while (token);
      });
      rows.push({
        engine,
        'seed 700×52': `${server.seed.seconds.toFixed(1)} s`,
        'first page p50': ms(percentile(firstPage, 50)),
        'first page p95': ms(percentile(firstPage, 95)),
        [`full read (${records} records) p50`]: ms(percentile(fullRead, 50)),
        'full read p95': ms(percentile(fullRead, 95)),
      });
    } finally {
      await server.close();
    }
  }
  return rows;
}
