import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { refreshStaleExtremes } from './sort-extremes.repository';

/**
 * Refreshes stale sort extremes in the background. A write over more than 32 products (a forecast
 * run's chunk, an import, a big spread) only marks them stale, and a sort reads every stale
 * product whole: after a forecast run of 20,000 products, every figure-sorted page would sort all
 * records again until planners had paged through it 16 products at a time. Each pass refreshes
 * small batches, each its own statement, so requests interleave with it (on PGlite they share one
 * connection); any server process may run it, since the refresh skips rows another one holds.
 */
export class SortExtremesRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { batch: number; passMs: number; log: FastifyBaseLogger },
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.refreshPass(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: batches until none are stale or the pass has run its time; overlapping passes are skipped. */
  async refreshPass(): Promise<number> {
    if (this.running) return 0;
    this.running = (async () => {
      const deadline = performance.now() + this.options.passMs;
      let refreshed = 0;
      try {
        for (;;) {
          const batch = await refreshStaleExtremes(this.db, this.options.batch);
          refreshed += batch;
          if (batch < this.options.batch || performance.now() > deadline) break;
        }
      } catch (error) {
        this.options.log.warn({ err: error }, 'Refreshing stale sort extremes failed; the next pass retries');
      }
      return refreshed;
    })();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }
}
