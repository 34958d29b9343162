import {
  chunkBySubtree,
  forecastMany,
  parseGlobalModels,
  serializeGlobalModels,
  trainGlobalMember,
  type SeriesForecast,
} from '@ps/forecast';
import {
  STORED_QUANTILE_LEVELS,
  STORED_QUANTILE_WEEKS,
  roundToCents,
  toIsoDate,
  weekStartSunday,
  type ForecastAccuracy,
  type ForecastMemberWeight,
  type ForecastQuantiles,
  type ForecastRun,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import type { AccessScope } from '../../lib/access';
import {
  completeChunk,
  countForecastScope,
  endRun,
  failOrphanedRuns,
  findAccuracy,
  failRunsExcept,
  findChunk,
  findRun,
  findRunningRun,
  insertChunks,
  insertRunningRun,
  loadGlobalModels,
  loadRunHorizon,
  loadSalesUnits,
  recordTrainingProgress,
  saveGlobalModels,
  updateRun,
  listProductsByPids,
  listProductsToForecast,
  listRecentRuns,
  loadFutureRecords,
  loadSalesHistory,
  lockRunReadyToFinish,
  recordChunkError,
  recordChunkProgress,
  startChunkAttempt,
  upsertAccuracy,
  startLockedRun,
  writeForecasts,
  type ForecastRunRow,
  loadRecordsByKeys,
  recordKey,
  type ForecastWrite,
  type FutureRecord,
  type ProductToForecast,
} from './forecast-run.repository';
import type { DatabaseKind } from '../../db/database';
import { runInBackground } from '../../db/pglite-dialect';
import type { Database } from '../../db/schema';
import { systemClock, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { Notifier } from '../notifications';
import { planColumns } from '../../db/demand-record-row';
import { recomputeInventoryAfterForecast } from '../inventory';
import { notifyNewExceptions, snapshotForecasts } from '../control-tower';
import type { ChunkJob, ForecastQueue } from './forecast-queue';

/**
 * Products per chunk (FORECAST_CHUNK_PRODUCTS): one history read, one job in the queue. A few
 * hundred spread a large run over many workers and bound what a retry redoes. A chunk holds whole
 * business units, so a unit larger than this is a chunk of its own: a unit's families change in
 * one process's pass (the chunks were cut so for reconciliation per unit, which runs no longer do;
 * see docs/forecasting.md).
 */
export const DEFAULT_CHUNK_PRODUCTS = 250;
/**
 * Records per write statement, each committed on its own. A write locks its records until it
 * commits, so this bounds how long an edit to one of them waits: 500 records take well under a
 * second (one step of 26,000 in one transaction held edits for many seconds).
 */
const RECORDS_PER_WRITE = 500;
/**
 * Products a chunk fits and writes at a time (FORECAST_SLICE_PRODUCTS): the next slice is fitted
 * while this one is written. Small enough that the first write starts soon, large enough to keep
 * every engine thread busy.
 */
const DEFAULT_SLICE_PRODUCTS = 250;
/** A record edited again and again during a run is left after this many tries. */
const MAX_WRITE_ATTEMPTS = 5;
/** Weeks in a year (365.25 / 7): the engine's Fourier seasonal component keeps its phase across years. */
const SEASON_LENGTH = 52.18;
/** Progress is written at most this often while the engine works. */
const PROGRESS_INTERVAL_MS = 500;
/**
 * Share of a run's progress that training its global member counts for, when it trains one. The
 * step models are trained before any chunk starts; on the demo data set training costs several
 * times the products' statistical fits, and writing the records and their plans the rest of a
 * run, so each part is counted as about half.
 */
const TRAINING_SHARE = 0.5;
/** last_updated_by on records a run rewrites. */
const FORECAST_USER = 'Forecast engine';

/** The configurations that carry weight, heaviest first; weights rounded to 4 decimals. */
/**
 * The quantiles the product keeps: STORED_QUANTILE_LEVELS over its first STORED_QUANTILE_WEEKS
 * weeks, to cents, with the point forecast they surround.
 */
export function storedQuantiles(forecast: SeriesForecast): ForecastQuantiles {
  const weeks = Math.min(STORED_QUANTILE_WEEKS, forecast.ensemble.length);
  const cents = (values: readonly number[]): number[] =>
    values.slice(0, weeks).map((v) => Math.round(v * 100) / 100);
  const levels = STORED_QUANTILE_LEVELS.filter((level) =>
    forecast.quantiles.some((q) => Math.abs(q.level - level) < 1e-9),
  );
  return {
    levels: [...levels],
    mean: cents(forecast.ensemble),
    values: levels.map((level) =>
      cents(forecast.quantiles.find((q) => Math.abs(q.level - level) < 1e-9)!.values),
    ),
  };
}

function ensembleMembers(members: SeriesForecast['members']): ForecastMemberWeight[] {
  return members
    .filter((m) => m.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((m) => ({ model: m.model, window: m.window, weight: Math.round(m.weight * 10_000) / 10_000 }));
}

function toForecastRun(row: ForecastRunRow): ForecastRun {
  return {
    id: row.id,
    status: row.status,
    requestedBy: row.requested_by,
    totalProducts: row.total_products,
    processedProducts: row.processed_products,
    updatedRecords: row.updated_records,
    progressPercent: runProgressPercent(row),
    error: row.error,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

/** Training the global member first (when the run trains one), then forecasting the products. */
export function runProgressPercent(
  row: Pick<
    ForecastRunRow,
    'status' | 'total_products' | 'processed_products' | 'training_steps' | 'trained_steps'
  >,
): number {
  if (row.total_products === 0) return row.status === 'running' ? 0 : 100;
  const forecasting = row.processed_products / row.total_products;
  const share =
    row.training_steps === 0
      ? forecasting
      : TRAINING_SHARE * (row.trained_steps / row.training_steps) + (1 - TRAINING_SHARE) * forecasting;
  return Math.floor(100 * share);
}

/** A business unit's key in a run: units of the same name under two clients are two subtrees. */
const unitKey = (product: { client_id: string; bu: string }): string => `${product.client_id}/${product.bu}`;

const weeksBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (7 * 86_400_000));

/**
 * Forecast runs: fit every product's sales history with the forecasting engine and write the two
 * statistical fields for the weeks after the history, then the plan chain that follows from them.
 * A run is a background job: the request that starts it answers at once; progress is in the
 * forecast_runs row. The products are split into chunks (forecast_run_chunks). With a job queue
 * (PostgreSQL) each chunk is a job that any server process or `npm run worker` takes; without one
 * (the embedded database, which only this process can open) this process does them in turn. The
 * engine works on worker threads either way, so requests stay fast meanwhile. Whoever completes
 * the last chunk finishes the run, exactly once (lockRunReadyToFinish).
 */
export class ForecastRunService {
  /** Runs this process is executing (the embedded database has no other process to ask). */
  private readonly ownRuns = new Set<number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void },
    /** 'postgres': other server processes may share the database and run forecasts too. */
    private readonly databaseKind: DatabaseKind,
    private readonly notifier?: Notifier,
    private readonly options: {
      queue?: ForecastQueue;
      chunkProducts?: number;
      /** FORECAST_SLICE_PRODUCTS: products fitted and written at a time within a chunk. */
      sliceProducts?: number;
      clock?: Clock;
    } = {},
  ) {}

  /**
   * A run left 'running' by a stopped server would block every future run: mark it failed. On a
   * shared PostgreSQL only runs whose process is gone (no advisory lock) and that are not in the
   * job queue are touched, so a restarting process never fails a run others are doing.
   */
  async recoverInterruptedRuns(): Promise<void> {
    const count =
      this.databaseKind === 'postgres'
        ? await failOrphanedRuns(this.db)
        : await failRunsExcept(this.db, [...this.ownRuns]);
    if (count > 0) this.log.info(`Marked ${count} interrupted forecast run(s) as failed`);
  }

  async start(scope: AccessScope): Promise<ForecastRun> {
    const request = { requestedBy: scope.userName, requestedById: scope.userId, clientIds: scope.clientIds };
    let run = await this.claim(request);
    if (!run) {
      // The run in the way may belong to a process that died; then it must not block this one.
      await this.recoverInterruptedRuns();
      run = await this.claim(request);
    }
    if (!run) {
      const running = await findRunningRun(this.db);
      const detail = running
        ? ` (run ${running.id}, started by ${running.requested_by} at ${new Date(running.started_at).toISOString()})`
        : '';
      throw new AppError(
        'BUSY',
        `A forecast run is already in progress${detail}. Wait for it to finish before starting another.`,
      );
    }
    return toForecastRun(run);
  }

  /**
   * Inserts the run and sets it going in the background (not awaited: the run goes on after the
   * response; its outcome is recorded in its row). Undefined when another run is going. On
   * PostgreSQL the run's advisory lock is held until its chunks are queued (with a queue) or done.
   */
  private async claim(request: {
    requestedBy: string;
    requestedById: string;
    clientIds: AccessScope['clientIds'];
  }): Promise<ForecastRunRow | undefined> {
    const { queue } = this.options;
    const work = async (run: ForecastRunRow): Promise<void> => {
      this.ownRuns.add(run.id);
      try {
        const chunks = await this.splitIntoChunks(run);
        if (queue) return;
        for (let chunk = 0; chunk < chunks; chunk++) await this.forecastChunk({ runId: run.id, chunk });
        // A run with no products has no chunk to finish it.
        if (chunks === 0) await this.finishIfComplete(run.id);
      } catch (error) {
        this.log.error({ err: error, runId: run.id }, 'forecast run failed');
        await this.failRun(run.id, error instanceof Error ? error.message : 'Unknown error');
      } finally {
        this.ownRuns.delete(run.id);
      }
    };
    if (this.databaseKind === 'postgres') {
      const { row, finished } = await startLockedRun(this.db, request, work);
      finished.catch((error: unknown) => this.log.error({ err: error }, 'forecast run lock failed'));
      return row;
    }
    const row = await insertRunningRun(this.db, request);
    // Background work for the embedded database's queue: requests waiting for its one connection
    // (edits, progress polls) go before the run's next statement.
    if (row) void runInBackground(() => work(row));
    return row;
  }

  /**
   * Writes the run's chunks and, with a queue, enqueues them in the same transaction: the run is
   * queued whole or not at all. Answers the number of chunks.
   */
  private async splitIntoChunks(run: ForecastRunRow): Promise<number> {
    const products = await listProductsToForecast(this.db, run.client_ids as AccessScope['clientIds']);
    await this.trainGlobalMember(
      run.id,
      products.map((p) => p.pid),
    );
    const units = new Map<string, string[]>();
    for (const p of products) {
      const key = unitKey(p);
      const pids = units.get(key);
      if (pids) pids.push(p.pid);
      else units.set(key, [p.pid]);
    }
    const chunks = chunkBySubtree(
      [...units].map(([key, pids]) => ({ key, products: pids })),
      this.options.chunkProducts ?? DEFAULT_CHUNK_PRODUCTS,
    );
    const { queue } = this.options;
    await this.db.transaction().execute(async (trx) => {
      await insertChunks(trx, { id: run.id, totalProducts: products.length, queued: Boolean(queue) }, chunks);
      await queue?.enqueue(
        trx,
        chunks.map((_, chunk) => ({ runId: run.id, chunk })),
      );
    });
    if (queue && chunks.length === 0) await this.finishIfComplete(run.id);
    return chunks.length;
  }

  /**
   * Sets the run's horizon and trains the learned global member once on all its products' sales
   * histories, before any chunk: every chunk then forecasts with the same models, learned from
   * every product rather than a chunk's few hundred. The training runs on the engine's worker
   * threads (requests go on meanwhile) and is seeded, so a run's forecasts do not depend on how
   * it is chunked or on which process takes a chunk. No model is stored when too few products
   * have the history to train one; the chunks then forecast without the member.
   */
  private async trainGlobalMember(runId: number, pids: readonly string[]): Promise<void> {
    const horizon = await loadRunHorizon(this.db, pids);
    await updateRun(this.db, runId, { horizon, total_products: pids.length });
    // Read a chunk's worth of products at a time: a large run's histories arrive in pieces
    // the server's heap holds easily, and only the units are kept.
    const series: number[][] = [];
    const batch = this.options.chunkProducts ?? DEFAULT_CHUNK_PRODUCTS;
    for (let start = 0; start < pids.length; start += batch) {
      const slice = pids.slice(start, start + batch);
      const units = await loadSalesUnits(this.db, slice);
      for (const pid of slice) {
        const values = units.get(pid);
        if (values && values.length > 0) series.push(values);
      }
    }
    const models = await trainGlobalMember(series, {
      horizon,
      seasonLength: SEASON_LENGTH,
      onProgress: (done, total) => {
        recordTrainingProgress(this.db, runId, { done, total }).catch((error: unknown) =>
          this.log.error({ err: error, runId }, 'could not record training progress'),
        );
      },
    });
    if (models) await saveGlobalModels(this.db, runId, serializeGlobalModels(models));
  }

  /** Takes this process's share of queued chunks until the queue is stopped. */
  async work(): Promise<void> {
    const { queue } = this.options;
    if (!queue) throw new Error('Forecast chunks are worked from a job queue; this service has none');
    await queue.work({
      onChunk: (job) => this.forecastChunk(job),
      onGaveUp: async (job) => {
        const chunk = await findChunk(this.db, job.runId, job.chunk);
        const reason = chunk?.error ?? 'its worker stopped each time';
        await this.failRun(
          job.runId,
          `Forecasting products ${chunk?.pids[0] ?? ''}–${chunk?.pids.at(-1) ?? ''} failed after ${chunk?.attempts ?? 0} attempts: ${reason}`,
        );
      },
    });
  }

  /**
   * One attempt at one chunk: forecast its products, write their records and accuracy, mark it
   * done, and finish the run when it was the last. A chunk of a run that has ended (failed) is
   * skipped; a chunk already done (its first worker was thought dead) only tries to finish.
   */
  private async forecastChunk(job: ChunkJob): Promise<void> {
    const run = await findRun(this.db, job.runId);
    if (!run || run.status !== 'running') return;
    const chunk = await startChunkAttempt(this.db, job.runId, job.chunk);
    if (!chunk) return;
    if (!chunk.done_at) {
      try {
        const products = await listProductsByPids(this.db, chunk.pids);
        let lastReport = 0;
        const onProgress = (done: number): void => {
          const now = Date.now();
          if (now - lastReport < PROGRESS_INTERVAL_MS) return;
          lastReport = now;
          recordChunkProgress(this.db, job.runId, job.chunk, done).catch((error: unknown) =>
            this.log.error({ err: error, runId: job.runId }, 'could not record forecast progress'),
          );
        };
        const updatedRecords = await this.forecastStep(run, products, onProgress);
        await completeChunk(this.db, job.runId, job.chunk, { processed: chunk.pids.length, updatedRecords });
      } catch (error) {
        await recordChunkError(
          this.db,
          job.runId,
          job.chunk,
          error instanceof Error ? error.message : String(error),
        ).catch(() => undefined);
        throw error;
      }
    }
    await this.finishIfComplete(job.runId);
  }

  /**
   * The run's last step, once every chunk is done: inventory and control-tower snapshots follow
   * the new forecasts, then the run succeeds. In one transaction that locks the run, so only one
   * process does it even when two complete the last chunks at once; a process that dies here
   * leaves the run running and its chunk's job retried, which finishes it.
   */
  private async finishIfComplete(runId: number): Promise<void> {
    const finished = await this.db.transaction().execute(async (trx) => {
      const run = await lockRunReadyToFinish(trx, runId);
      if (!run) return undefined;
      const today = (this.options.clock ?? systemClock).now();
      await recomputeInventoryAfterForecast(trx, this.log, today);
      await snapshotForecasts(
        trx,
        run.client_ids as AccessScope['clientIds'],
        'forecast',
        toIsoDate(weekStartSunday(today)),
      );
      if (!(await endRun(trx, runId, { status: 'succeeded', error: null }))) return undefined;
      return findRun(trx, runId);
    });
    if (!finished) return;
    this.log.info(
      `Forecast run ${runId} finished: ${finished.total_products} products, ${finished.updated_records} records`,
    );
    await this.notify(finished.requested_by_id, {
      kind: 'forecast-run-succeeded',
      content: { runId, products: finished.total_products, records: finished.updated_records },
    });
    if (this.notifier)
      await notifyNewExceptions(this.db, finished.client_ids as AccessScope['clientIds'], this.notifier);
  }

  private async failRun(runId: number, message: string): Promise<void> {
    const ended = await endRun(this.db, runId, { status: 'failed', error: message }).catch(() => false);
    if (!ended) return;
    const run = await findRun(this.db, runId);
    await this.notify(run?.requested_by_id ?? null, {
      kind: 'forecast-run-failed',
      content: { runId, error: message },
    });
  }

  private async notify(
    userId: string | null,
    message:
      | { kind: 'forecast-run-succeeded'; content: { runId: number; products: number; records: number } }
      | { kind: 'forecast-run-failed'; content: { runId: number; error: string } },
  ): Promise<void> {
    if (!userId || !this.notifier) return;
    await this.notifier.notify({ recipients: { userIds: [userId] }, ...message });
  }

  async get(id: number): Promise<ForecastRun> {
    const run = await findRun(this.db, id);
    if (!run) throw AppError.notFound(`Forecast run ${id} was not found`);
    return toForecastRun(run);
  }

  /** A product's accuracy and ensemble members; 404 alike for no row and another client's product. */
  async accuracy(scope: AccessScope, pid: string): Promise<ForecastAccuracy> {
    const row = await findAccuracy(this.db, pid, scope.clientIds);
    if (!row) throw AppError.notFound(`No forecast accuracy for product ${pid}`);
    return {
      pid: row.pid,
      runId: row.run_id,
      model: row.model,
      demandClass: row.demand_class,
      backtestModel: row.backtest_model,
      mape: row.mape,
      bias: row.bias,
      historyWeeks: row.history_weeks,
      computedAt: new Date(row.computed_at).toISOString(),
      members: row.members,
      quantiles: row.quantiles ?? null,
    };
  }

  /** What a run started now would rewrite, for the confirmation before it starts. */
  async preview(scope: AccessScope): Promise<{ products: number; records: number }> {
    return countForecastScope(this.db, scope.clientIds);
  }

  async listRecent(limit: number): Promise<ForecastRun[]> {
    return (await listRecentRuns(this.db, limit)).map(toForecastRun);
  }

  /**
   * Forecasts a chunk's products and writes their records and accuracy a slice at a time
   * (FORECAST_SLICE_PRODUCTS): the engine fits the next slice on its threads while this one's
   * records are written, so the cores fit while the database writes. Each product's forecast depends only on its own
   * history and the run's stored member, so slicing changes no figure. The families' and units'
   * forecasts are the sums of their products' (bottom-up at both levels: the method the
   * reconciliation rule kept, docs/forecasting.md), so no aggregate is forecast here.
   */
  private async forecastStep(
    run: ForecastRunRow,
    products: readonly ProductToForecast[],
    onProgress: (done: number) => void,
  ): Promise<number> {
    const runId = run.id;
    const pids = products.map((p) => p.pid);
    const [history, future, storedModels] = await Promise.all([
      loadSalesHistory(this.db, pids),
      loadFutureRecords(this.db, pids),
      loadGlobalModels(this.db, runId),
    ]);
    const withHistory = products.filter((p) => (history.get(p.pid)?.units.length ?? 0) > 0);
    if (withHistory.length === 0) return 0;

    const lastWeek = new Map(withHistory.map((p) => [p.pid, history.get(p.pid)!.weeks.at(-1)!]));
    // A run queued before runs kept their horizon has none: its chunk's own products give it.
    const horizon = run.horizon ?? (await loadRunHorizon(this.db, pids));
    // The member trained on the whole run; a chunk never trains one on its own few products.
    const member =
      storedModels === undefined
        ? { tuning: { globalMember: null } }
        : { globalModels: parseGlobalModels(storedModels) };
    const options = { horizon, seasonLength: SEASON_LENGTH, ...member };
    const futureOf = new Map<string, FutureRecord[]>();
    for (const record of future) {
      const records = futureOf.get(record.pid);
      if (records) records.push(record);
      else futureOf.set(record.pid, [record]);
    }

    const sliceProducts = this.options.sliceProducts ?? DEFAULT_SLICE_PRODUCTS;
    const slices: ProductToForecast[][] = [];
    for (let start = 0; start < withHistory.length; start += sliceProducts)
      slices.push(withHistory.slice(start, start + sliceProducts));
    const forecastSlice = (k: number): Promise<SeriesForecast[]> => {
      const before = k * sliceProducts;
      const forecasts = forecastMany(
        slices[k]!.map((p) => history.get(p.pid)!.units),
        { ...options, onProgress: (done) => onProgress(before + done) },
      );
      // Awaited in turn below; a write failing meanwhile must not leave it unheard.
      forecasts.catch(() => undefined);
      return forecasts;
    };
    const started = performance.now();
    let waited = 0;
    let writing = 0;
    let count = 0;
    let next = forecastSlice(0);
    for (let k = 0; k < slices.length; k++) {
      const waitFrom = performance.now();
      const forecasts = await next;
      const writeFrom = performance.now();
      waited += writeFrom - waitFrom;
      if (k + 1 < slices.length) next = forecastSlice(k + 1);
      count += await this.writeSlice(runId, slices[k]!, forecasts, { history, lastWeek, futureOf });
      writing += performance.now() - writeFrom;
    }
    const seconds = (value: number): string => `${(value / 1000).toFixed(1)} s`;
    this.log.info(
      `Forecast run ${runId}: ${withHistory.length} products, ${count} records in ` +
        `${seconds(performance.now() - started)} (waiting for the engine ${seconds(waited)}, writing ${seconds(writing)})`,
    );
    return count;
  }

  /** One slice's records (forecast and plan) and accuracy rows; answers the records written. */
  private async writeSlice(
    runId: number,
    products: readonly ProductToForecast[],
    forecasts: readonly SeriesForecast[],
    read: {
      history: ReadonlyMap<string, { units: number[] }>;
      lastWeek: ReadonlyMap<string, string>;
      futureOf: ReadonlyMap<string, FutureRecord[]>;
    },
  ): Promise<number> {
    const byPid = new Map(products.map((p, i) => [p.pid, { product: p, forecast: forecasts[i]! }]));
    const forecastOf = (record: FutureRecord): ForecastWrite | null => {
      const entry = byPid.get(record.pid);
      if (!entry) return null;
      const step = weeksBetween(read.lastWeek.get(record.pid)!, record.week_start);
      const ensemble = roundToCents(Math.max(0, entry.forecast.ensemble[step - 1] ?? 0));
      const naive = roundToCents(Math.max(0, entry.forecast.naive[step - 1] ?? 0));
      return {
        pid: record.pid,
        week_start: record.week_start,
        version: record.version,
        naive_fcst_units: naive,
        ensemble_fcst_units: ensemble,
        ...planColumns({ ensemble_fcst_units: ensemble, ...record }, entry.product),
      };
    };
    const records = products.flatMap((p) => read.futureOf.get(p.pid) ?? []);
    let count = 0;
    for (let start = 0; start < records.length; start += RECORDS_PER_WRITE) {
      count += await this.writeChunk(runId, records.slice(start, start + RECORDS_PER_WRITE), forecastOf);
    }
    const finite = (value: number): number | null =>
      Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
    await this.db.transaction().execute((trx) =>
      upsertAccuracy(
        trx,
        products.map((p) => {
          const { forecast } = byPid.get(p.pid)!;
          return {
            pid: p.pid,
            run_id: runId,
            model: forecast.model,
            demand_class: forecast.demandClass,
            backtest_model: forecast.backtest.model,
            mape: finite(forecast.backtest.mape),
            bias: finite(forecast.backtest.bias),
            history_weeks: read.history.get(p.pid)!.units.length,
            members: ensembleMembers(forecast.members),
            quantiles: storedQuantiles(forecast),
          };
        }),
      ),
    );
    return count;
  }

  /**
   * Writes one chunk as single statements, each atomic: a record holds either its old or its new
   * forecast and plan. A record a planner edited since it was read is re-read and its plan
   * recomputed from the new overrides, so an edit made during a run is never overwritten.
   */
  private async writeChunk(
    runId: number,
    records: readonly FutureRecord[],
    forecastOf: (record: FutureRecord) => ForecastWrite | null,
  ): Promise<number> {
    let count = 0;
    let pending = records;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const writes = pending.map(forecastOf).filter((w): w is ForecastWrite => w !== null);
      const written = await writeForecasts(this.db, writes, {
        user: FORECAST_USER,
        cause: `Forecast run ${runId}`,
      });
      count += written.size;
      const stale = writes.filter((w) => !written.has(recordKey(w)));
      if (stale.length === 0) break;
      if (attempt === MAX_WRITE_ATTEMPTS) {
        this.log.info(
          `Forecast run left ${stale.length} record(s) that kept changing; the next run covers them`,
        );
        break;
      }
      pending = await loadRecordsByKeys(this.db, stale);
    }
    return count;
  }
}
