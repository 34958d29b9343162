import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { refreshStaleExtremes } from './sort-extremes.repository';

/** How long after a request arrived the server counts as busy with planners' requests. */
const BUSY_MS = 1_000;

/** The longest wait between two batches of a pass while the server is busy. */
const LONGEST_WAIT_MS = 5_000;

export type SortExtremesRefresherOptions = {
  /** Stale products refreshed per statement. */
  batch: number;
  /** The longest a pass runs (batches and the waits between them). */
  passMs: number;
  /**
   * While requests arrive, the share of the time the refresher may spend refreshing: after a batch
   * that took t ms it waits t × (1 / busyShare − 1) before the next. 1: no wait.
   */
  busyShare: number;
  log: FastifyBaseLogger;
  /** How long after a request arrived the server counts as busy (1 s unless given). */
  busyMs?: number;
  /** How it waits between batches (tests pass their own). */
  wait?: (ms: number) => Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Refreshes stale sort extremes in the background. A write over more than 32 products (a forecast
 * run's chunk, an import, a big spread) only marks them stale, and a sort reads every stale
 * product whole: after a forecast run of 20,000 products, every figure-sorted page would sort all
 * records again until planners had paged through it 16 products at a time. Each pass refreshes
 * small batches, each its own statement, so requests interleave with it (on PGlite they share one
 * connection); any server process may run it, since the refresh skips rows another one holds.
 *
 * A refresh costs some milliseconds of database CPU a product, and an import of 100,000 rows
 * marks some 10,000 products stale while it runs: refreshed back to back, they took a core of a
 * small machine from the planners' requests for much of the import. While requests arrive the
 * refresher therefore waits between batches, in proportion to how long the last one took (a loaded
 * machine makes batches longer, and the waits with them); an idle server drains the set at full
 * speed. A figure-sorted page still refreshes the stale products it had to read.
 */
export class SortExtremesRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private lastRequestAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SortExtremesRefresherOptions,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.refreshPass(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** A request arrived: for the next second, batches leave most of the time to requests. */
  noteRequest(): void {
    this.lastRequestAt = performance.now();
  }

  private isBusy(): boolean {
    return performance.now() - this.lastRequestAt < (this.options.busyMs ?? BUSY_MS);
  }

  /** One pass: batches until none are stale or the pass has run its time; overlapping passes are skipped. */
  async refreshPass(): Promise<number> {
    if (this.running) return 0;
    this.running = (async () => {
      const deadline = performance.now() + this.options.passMs;
      let refreshed = 0;
      try {
        for (;;) {
          const started = performance.now();
          const batch = await refreshStaleExtremes(this.db, this.options.batch);
          refreshed += batch;
          if (batch < this.options.batch || performance.now() > deadline) break;
          const spent = performance.now() - started;
          if (this.isBusy() && this.options.busyShare < 1) {
            const wait = Math.min(spent * (1 / this.options.busyShare - 1), LONGEST_WAIT_MS);
            await (this.options.wait ?? sleep)(wait);
            if (performance.now() > deadline) break;
          }
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
