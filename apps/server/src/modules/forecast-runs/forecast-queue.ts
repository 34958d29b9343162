import type { Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../../db/schema';
import { currentSchema, queueStatementRunner } from './forecast-run.repository';

/** A chunk of a run as a queue job carries it; the products themselves are in forecast_run_chunks. */
export type ChunkJob = { runId: number; chunk: number };

const CHUNK_QUEUE = 'forecast-chunk';
/** A chunk that failed every attempt lands here, so the run is failed (and its requester told). */
const FAILED_QUEUE = 'forecast-chunk-failed';
/** Attempts after the first: a chunk whose worker died or that threw is tried this many more times. */
const RETRY_LIMIT = 2;
/** How often an idle worker asks for the next chunk. */
const POLLING_SECONDS = 1;

export type ForecastQueueOptions = {
  /**
   * Longest a chunk may take. A chunk still active after it (its worker died, or hangs) is
   * retried; a worker also gives a chunk up at this time, so it must exceed a slow chunk's time.
   */
  chunkTimeoutSeconds: number;
};

/**
 * The PostgreSQL job queue of forecast runs (pg-boss 10). Its tables live in a schema of their
 * own beside the app's (`pgboss`, or `<schema>_pgboss` for a database in another schema, as the
 * tests use), and its statements go through the app's connection pool, so a run's chunks are
 * enqueued in the same transaction as the run's chunk rows: a run is queued whole or not at all.
 */
export class ForecastQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly options: ForecastQueueOptions,
  ) {}

  static async open(
    db: Kysely<Database>,
    options: ForecastQueueOptions,
    log: { error: (obj: unknown, msg: string) => void },
  ): Promise<ForecastQueue> {
    const boss = new PgBoss({
      db: queueStatementRunner(db),
      schema: ForecastQueue.schemaFor(await currentSchema(db)),
      // Expired chunks are found by this sweep: keep it well inside the chunk timeout.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.chunkTimeoutSeconds / 4))),
      // No cron schedules here; the clock monitor would only poll for them.
      schedule: false,
    });
    // pg-boss reports failed polls and sweeps as 'error' events; unheard, one would end the process.
    boss.on('error', (error) => log.error({ err: error }, 'forecast queue error'));
    await boss.start();
    await boss.createQueue(FAILED_QUEUE);
    await boss.createQueue(CHUNK_QUEUE, { name: CHUNK_QUEUE, deadLetter: FAILED_QUEUE });
    return new ForecastQueue(boss, options);
  }

  /** The queue's schema beside the app's schema (tests drop it with theirs). */
  static schemaFor(appSchema: string): string {
    return appSchema === 'public' ? 'pgboss' : `${appSchema}_pgboss`;
  }

  /** Enqueues the chunks inside the caller's transaction (with the rows that describe them). */
  async enqueue(trx: Kysely<Database>, chunks: readonly ChunkJob[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.boss.insert(
      chunks.map((data) => ({
        name: CHUNK_QUEUE,
        data,
        retryLimit: RETRY_LIMIT,
        expireInSeconds: this.options.chunkTimeoutSeconds,
      })),
      { db: queueStatementRunner(trx) },
    );
  }

  /**
   * Takes chunks one at a time in this process. `onChunk` throwing fails the attempt (retried);
   * `onGaveUp` hears of a chunk that failed its last attempt or whose workers kept dying.
   */
  async work(handlers: {
    onChunk: (job: ChunkJob, attempt: number) => Promise<void>;
    onGaveUp: (job: ChunkJob) => Promise<void>;
  }): Promise<void> {
    await this.boss.work<ChunkJob>(
      CHUNK_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS, includeMetadata: true },
      async ([job]) => {
        if (job) await handlers.onChunk(job.data, job.retryCount + 1);
      },
    );
    await this.boss.work<ChunkJob>(
      FAILED_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS },
      async ([job]) => {
        if (job) await handlers.onGaveUp(job.data);
      },
    );
  }

  /** Stops taking chunks; a chunk under way is finished first (up to the timeout), else retried elsewhere. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: 30_000 });
  }
}
