import type { ForecastRun } from '@ps/domain';
import { isPostgresReachable } from '../apps/server/test/support/backends';
import { startBenchServer } from './bench-server';
import type { BenchRow } from './stats';

type Envelope<T> = { data: T };

/**
 * A forecast run in the product on the default data set (700 products, 130 weeks of history,
 * 26 future weeks): from POST /api/forecast/runs to the run's 'succeeded', polled as the page does.
 */
export async function runForecastRunBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const engines: Array<'pglite' | 'postgres'> = (await isPostgresReachable())
    ? ['pglite', 'postgres']
    : ['pglite'];
  for (const engine of engines) {
    const server = await startBenchServer(engine, { products: 700, weeks: 52 });
    try {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/api/forecast/runs`, {
        method: 'POST',
        headers: server.headers,
      });
      let run = ((await response.json()) as Envelope<ForecastRun>).data;
      let slowestPoll = 0;
      while (run.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const polled = performance.now();
        const poll = await fetch(`${server.baseUrl}/api/forecast/runs/${run.id}`, {
          headers: server.headers,
        });
        run = ((await poll.json()) as Envelope<ForecastRun>).data;
        slowestPoll = Math.max(slowestPoll, performance.now() - polled);
      }
      rows.push({
        engine,
        products: run.totalProducts,
        'records written': run.updatedRecords,
        status: run.status,
        'run time': `${((performance.now() - started) / 1000).toFixed(1)} s`,
        // The run must not block requests: the slowest progress poll answered while it worked.
        'slowest poll during the run': `${slowestPoll.toFixed(0)} ms`,
      });
    } finally {
      await server.close();
    }
  }
  return rows;
}
