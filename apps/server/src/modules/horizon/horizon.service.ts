import { horizonRangeOf, toIsoDate } from '@ps/domain';
import type { Kysely } from 'kysely';
import { planColumns } from '../../db/demand-record-row';
import { runInBackground } from '../../db/pglite-dialect';
import type { Database } from '../../db/schema';
import { writeTransaction } from '../../db/write-transaction';
import { currentWeekOf, type Clock } from '../../lib/clock';
import {
  claimRoll,
  finishRoll,
  insertRolledRecords,
  missingWeeks,
  productIds,
  readHorizon,
  releaseRoll,
} from './horizon.repository';

/** Products read and written per transaction: small enough that requests get in between. */
const PRODUCTS_PER_CHUNK = 500;
/** Rows per insert statement. */
const ROWS_PER_INSERT = 2000;

export type RollOutcome =
  | { rolled: false; week: string; reason: 'up to date' | 'another process is rolling' }
  | {
      rolled: true;
      week: string;
      firstWeek: string;
      lastWeek: string;
      recordsAdded: number;
      seconds: number;
    };

export type RollProgress = { week: string; doneProducts: number; totalProducts: number };

export type RollOptions = {
  horizonWeeks: number;
  log?: { info: (msg: string) => void } | undefined;
  onProgress?: ((progress: RollProgress) => void) | undefined;
};

/** The weeks the plan covers when the clock is in `week`: it and the horizonWeeks − 1 after it. */
export function horizonWeeksOf(week: Date, horizonWeeks: number): { first: string; last: string } {
  const { from, to } = horizonRangeOf({ currentWeek: toIsoDate(week), horizonWeeks });
  return { first: from, last: to };
}

/**
 * Rolls the plan to the clock's week: every product gets a record for each week of the horizon
 * (the current week and the PLAN_HORIZON_WEEKS − 1 after it) it has none for, carrying its
 * forecast (missingWeeks) with the plan chain that follows from it, until the next forecast run
 * writes its own. Nothing existing is written: the week that became past keeps its plan and waits
 * for its actuals, overrides stay, published plans (P1/P2, plan versions) and snapshots are not
 * touched. It rolls when the clock's week is newer than the last rolled week (a changed horizon
 * takes effect then too). Idempotent: a second call in the same week answers 'up to date'; a
 * second process that checks meanwhile answers 'another process is rolling'. The scheduled cycle calls this as its
 * first step; a server process calls it at start and whenever the week changes (HorizonRoller).
 */
export async function rollHorizon(
  db: Kysely<Database>,
  clock: Clock,
  options: RollOptions,
): Promise<RollOutcome> {
  const weekDate = currentWeekOf(clock);
  const week = toIsoDate(weekDate);
  const state = await readHorizon(db);
  if (state && state.last_rolled_week >= week) {
    return { rolled: false, week, reason: 'up to date' };
  }
  if (!(await claimRoll(db, week, options.horizonWeeks))) {
    const now = await readHorizon(db);
    const isDone = now !== undefined && now.last_rolled_week >= week;
    return { rolled: false, week, reason: isDone ? 'up to date' : 'another process is rolling' };
  }
  const started = performance.now();
  const { first, last } = horizonWeeksOf(weekDate, options.horizonWeeks);
  try {
    const pids = await productIds(db);
    let added = 0;
    for (let start = 0; start < pids.length; start += PRODUCTS_PER_CHUNK) {
      const chunk = pids.slice(start, start + PRODUCTS_PER_CHUNK);
      // The write settings: without them each chunk's statements and their triggers were JIT-compiled.
      added += await writeTransaction(db, async (trx) => {
        const rows = await missingWeeks(trx, chunk, first, last);
        const records = rows.map((row) => {
          const source = {
            ensemble_fcst_units: row.ensemble_fcst_units,
            rev_pln_ovrd_percent: null,
            rev_pln_ovrd_units: null,
            sop_pln_ovrd_percent: null,
            sop_pln_ovrd_units: null,
          };
          return {
            pid: row.pid,
            week_start: row.week_start,
            naive_fcst_units: row.naive_fcst_units,
            ensemble_fcst_units: row.ensemble_fcst_units,
            ...planColumns(source, row),
          };
        });
        let inserted = 0;
        for (let at = 0; at < records.length; at += ROWS_PER_INSERT) {
          inserted += await insertRolledRecords(trx, records.slice(at, at + ROWS_PER_INSERT));
        }
        return inserted;
      });
      const done = Math.min(pids.length, start + PRODUCTS_PER_CHUNK);
      options.onProgress?.({ week, doneProducts: done, totalProducts: pids.length });
    }
    await finishRoll(db, week, options.horizonWeeks, added);
    const seconds = (performance.now() - started) / 1000;
    options.log?.info(
      `Rolled the plan horizon to the week of ${week} (${first} to ${last}): ${added} records added for ${pids.length} products in ${seconds.toFixed(1)} s`,
    );
    return { rolled: true, week, firstWeek: first, lastWeek: last, recordsAdded: added, seconds };
  } catch (error) {
    await releaseRoll(db).catch(() => undefined);
    throw error;
  }
}

export type HorizonStatus = {
  horizonWeeks: number;
  lastRolledWeek: string | null;
  rolledAt: string | null;
  recordsAdded: number | null;
  rolling: RollProgress | null;
};

/**
 * Keeps a server process's plan rolled: checks at start and every `checkMs` (a cheap read of one
 * row) whether the clock's week is newer than the last rolled one, and rolls it in the background,
 * never in a request. The embedded database lets requests go first meanwhile (runInBackground).
 */
export class HorizonRoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private progress: RollProgress | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly options: {
      horizonWeeks: number;
      log: { info: (msg: string) => void; error: (obj: unknown, msg: string) => void };
    },
  ) {}

  start(checkMs: number): void {
    void this.check();
    if (checkMs > 0) {
      this.timer = setInterval(() => void this.check(), checkMs);
      this.timer.unref();
    }
  }

  /** One check (and roll when due); a check while one runs waits for that one. */
  check(): Promise<void> {
    this.running ??= runInBackground(() =>
      rollHorizon(this.db, this.clock, {
        horizonWeeks: this.options.horizonWeeks,
        log: this.options.log,
        onProgress: (progress) => {
          this.progress = progress;
        },
      }),
    )
      .then(() => undefined)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'plan horizon roll failed'))
      .finally(() => {
        this.progress = null;
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async status(): Promise<HorizonStatus> {
    const row = await readHorizon(this.db);
    return {
      horizonWeeks: this.options.horizonWeeks,
      lastRolledWeek: row?.last_rolled_week ?? null,
      rolledAt: row ? new Date(row.rolled_at).toISOString() : null,
      recordsAdded: row?.records_added ?? null,
      rolling: this.progress,
    };
  }
}
