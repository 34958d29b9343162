import { forecastMany } from '@ps/forecast';
import { roundToCents, type ForecastRun } from '@ps/domain';
import type { Kysely } from 'kysely';
import type { AccessScope } from '../../lib/access';
import {
  failOrphanedRuns,
  failRunsExcept,
  findRun,
  findRunningRun,
  insertRunningRun,
  listProductsToForecast,
  listRecentRuns,
  loadFutureRecords,
  loadSalesHistory,
  updateRun,
  upsertAccuracy,
  startLockedRun,
  writeForecasts,
  type ForecastRunRow,
  loadRecordsByKeys,
  recordKey,
  type ForecastWrite,
  type FutureRecord,
} from './forecast-run.repository';
import type { DatabaseKind } from '../../db/database';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { planColumns } from '../../db/demand-record-row';
import { snapshotForecasts } from '../control-tower';

/**
 * Products per step: one history read and one worker-pool call. Large enough that starting the
 * pool's threads is a small share of a step, small enough to bound memory.
 */
const PRODUCTS_PER_STEP = 1000;
/**
 * Records per write statement, each committed on its own. A write locks its records until it
 * commits, so this bounds how long an edit to one of them waits: 500 records take well under a
 * second (one step of 26,000 in one transaction held edits for many seconds).
 */
const RECORDS_PER_WRITE = 500;
/** A record edited again and again during a run is left after this many tries. */
const MAX_WRITE_ATTEMPTS = 5;
/** Weekly data: the engine handles the 52.18-week year from this (see docs/forecasting.md). */
const SEASON_LENGTH = 52;
/** Progress is written at most this often while the engine works. */
const PROGRESS_INTERVAL_MS = 500;
/** last_updated_by on records a run rewrites. */
const FORECAST_USER = 'Forecast engine';

function toForecastRun(row: ForecastRunRow): ForecastRun {
  return {
    id: row.id,
    status: row.status,
    requestedBy: row.requested_by,
    totalProducts: row.total_products,
    processedProducts: row.processed_products,
    updatedRecords: row.updated_records,
    progressPercent:
      row.total_products === 0
        ? row.status === 'running'
          ? 0
          : 100
        : Math.floor((100 * row.processed_products) / row.total_products),
    error: row.error,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

const weeksBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (7 * 86_400_000));

/**
 * Forecast runs: fit every product's sales history with the forecasting engine and write the two
 * statistical fields for the weeks after the history, then the plan chain that follows from them.
 * A run is a background job: the request that starts it answers at once; progress is in the
 * forecast_runs row; the engine works on worker threads so requests stay fast meanwhile.
 */
export class ForecastRunService {
  /** Runs this process is executing (the embedded database has no other process to ask). */
  private readonly ownRuns = new Set<number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void },
    /** 'postgres': other server processes may share the database and run forecasts too. */
    private readonly databaseKind: DatabaseKind,
  ) {}

  /**
   * A run left 'running' by a stopped server would block every future run: mark it failed. On a
   * shared PostgreSQL only runs whose process is gone (no advisory lock) are touched, so a
   * restarting process never fails the run another process is doing.
   */
  async recoverInterruptedRuns(): Promise<void> {
    const count =
      this.databaseKind === 'postgres'
        ? await failOrphanedRuns(this.db)
        : await failRunsExcept(this.db, [...this.ownRuns]);
    if (count > 0) this.log.info(`Marked ${count} interrupted forecast run(s) as failed`);
  }

  async start(scope: AccessScope): Promise<ForecastRun> {
    const request = { requestedBy: scope.userName, clientIds: scope.clientIds };
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
   * response; its outcome is recorded in its row). Undefined when another run is going.
   */
  private async claim(request: {
    requestedBy: string;
    clientIds: AccessScope['clientIds'];
  }): Promise<ForecastRunRow | undefined> {
    const work = async (run: ForecastRunRow): Promise<void> => {
      this.ownRuns.add(run.id);
      try {
        await this.execute(run);
      } catch (error) {
        this.log.error({ err: error, runId: run.id }, 'forecast run failed');
        await updateRun(this.db, run.id, {
          status: 'failed',
          error: error instanceof Error ? error.message : 'Unknown error',
          finished_at: new Date(),
        }).catch(() => undefined);
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
    if (row) void work(row);
    return row;
  }

  async get(id: number): Promise<ForecastRun> {
    const run = await findRun(this.db, id);
    if (!run) throw AppError.notFound(`Forecast run ${id} was not found`);
    return toForecastRun(run);
  }

  async listRecent(limit: number): Promise<ForecastRun[]> {
    return (await listRecentRuns(this.db, limit)).map(toForecastRun);
  }

  private async execute(run: ForecastRunRow): Promise<void> {
    const products = await listProductsToForecast(this.db, run.client_ids as AccessScope['clientIds']);
    await updateRun(this.db, run.id, { total_products: products.length });
    let processed = 0;
    let updated = 0;
    let lastReport = 0;
    const reportProgress = (done: number): void => {
      const now = Date.now();
      if (now - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = now;
      updateRun(this.db, run.id, { processed_products: processed + done }).catch((error: unknown) =>
        this.log.error({ err: error, runId: run.id }, 'could not record forecast progress'),
      );
    };
    for (let start = 0; start < products.length; start += PRODUCTS_PER_STEP) {
      const step = products.slice(start, start + PRODUCTS_PER_STEP);
      updated += await this.forecastStep(run.id, step, reportProgress);
      processed += step.length;
      await updateRun(this.db, run.id, { processed_products: processed, updated_records: updated });
    }
    await snapshotForecasts(this.db, run.client_ids as AccessScope['clientIds'], 'forecast');
    await updateRun(this.db, run.id, { status: 'succeeded', finished_at: new Date() });
    this.log.info(`Forecast run ${run.id} finished: ${products.length} products, ${updated} records`);
  }

  private async forecastStep(
    runId: number,
    products: ReadonlyArray<{ pid: string; unit_cost: number; unit_price: number }>,
    onProgress: (done: number) => void,
  ): Promise<number> {
    const pids = products.map((p) => p.pid);
    const [history, future] = await Promise.all([
      loadSalesHistory(this.db, pids),
      loadFutureRecords(this.db, pids),
    ]);
    const withHistory = products.filter((p) => (history.get(p.pid)?.units.length ?? 0) > 0);
    if (withHistory.length === 0) return 0;

    // Each product's horizon reaches its furthest future record; one horizon for the step keeps one pool call.
    const lastWeek = new Map(withHistory.map((p) => [p.pid, history.get(p.pid)!.weeks.at(-1)!]));
    const horizon = Math.max(
      1,
      ...future.map((r) => weeksBetween(lastWeek.get(r.pid) ?? r.week_start, r.week_start)),
    );
    const forecasts = await forecastMany(
      withHistory.map((p) => history.get(p.pid)!.units),
      { horizon, seasonLength: SEASON_LENGTH, onProgress },
    );
    const byPid = new Map(withHistory.map((p, i) => [p.pid, { product: p, forecast: forecasts[i]! }]));

    const forecastOf = (record: FutureRecord): ForecastWrite | null => {
      const entry = byPid.get(record.pid);
      if (!entry) return null;
      const step = weeksBetween(lastWeek.get(record.pid)!, record.week_start);
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
    let count = 0;
    for (let start = 0; start < future.length; start += RECORDS_PER_WRITE) {
      count += await this.writeChunk(future.slice(start, start + RECORDS_PER_WRITE), forecastOf);
    }
    const finite = (value: number): number | null =>
      Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
    await this.db.transaction().execute((trx) =>
      upsertAccuracy(
        trx,
        withHistory.map((p) => {
          const { forecast } = byPid.get(p.pid)!;
          return {
            pid: p.pid,
            run_id: runId,
            model: forecast.model,
            demand_class: forecast.demandClass,
            backtest_model: forecast.backtest.model,
            mape: finite(forecast.backtest.mape),
            bias: finite(forecast.backtest.bias),
            history_weeks: history.get(p.pid)!.units.length,
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
    records: readonly FutureRecord[],
    forecastOf: (record: FutureRecord) => ForecastWrite | null,
  ): Promise<number> {
    let count = 0;
    let pending = records;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const writes = pending.map(forecastOf).filter((w): w is ForecastWrite => w !== null);
      const written = await writeForecasts(this.db, writes, FORECAST_USER);
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
