import type { CycleSchedule, CycleStepName, CycleStepStatus, CycleTrigger } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export type CycleScheduleRow = {
  schedule: CycleSchedule;
  updatedBy: string;
  updatedById: string;
  updatedAt: Date;
};

export async function findSchedule(db: Kysely<Database>): Promise<CycleScheduleRow | undefined> {
  const row = await db.selectFrom('cycle_schedule').selectAll().executeTakeFirst();
  if (!row) return undefined;
  return {
    schedule: {
      isEnabled: row.is_enabled,
      frequency: row.frequency as CycleSchedule['frequency'],
      weekday: row.weekday,
      time: row.run_time,
      timeZone: row.time_zone,
    },
    updatedBy: row.updated_by,
    updatedById: row.updated_by_id,
    updatedAt: new Date(row.updated_at),
  };
}

export async function saveSchedule(
  db: Kysely<Database>,
  schedule: CycleSchedule,
  by: { userName: string; userId: string },
): Promise<void> {
  const values = {
    is_enabled: schedule.isEnabled,
    frequency: schedule.frequency,
    weekday: schedule.weekday,
    run_time: schedule.time,
    time_zone: schedule.timeZone,
    updated_by: by.userName,
    updated_by_id: by.userId,
    updated_at: new Date(),
  };
  await db
    .insertInto('cycle_schedule')
    .values(values)
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export type CycleRunRow = {
  id: number;
  trigger: string;
  requested_by: string;
  requested_by_id: string | null;
  status: string;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
};

export type CycleStepRow = {
  id: string;
  run_id: number;
  step: string;
  status: string;
  started_at: Date;
  finished_at: Date | null;
  progress: number | null;
  message: string | null;
  counts: Record<string, number>;
};

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === UNIQUE_VIOLATION;

/**
 * Inserts a running run; undefined when another run is running (the unique index on the running
 * row decides, on any number of processes).
 */
export async function insertRunningRun(
  db: Kysely<Database>,
  run: { id?: number; trigger: CycleTrigger; requestedBy: string; requestedById: string | null },
): Promise<CycleRunRow | undefined> {
  try {
    return await db
      .insertInto('cycle_runs')
      .values({
        ...(run.id === undefined ? {} : { id: run.id }),
        trigger: run.trigger,
        requested_by: run.requestedBy,
        requested_by_id: run.requestedById,
        status: 'running',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** A failed run goes back to running for its rerun; undefined when another run is running. */
export async function reopenFailedRun(
  db: Kysely<Database>,
  runId: number,
  requester: { requestedBy: string; requestedById: string },
): Promise<CycleRunRow | undefined> {
  try {
    return await db
      .updateTable('cycle_runs')
      .set({
        status: 'running',
        finished_at: null,
        error: null,
        trigger: 'manual',
        requested_by: requester.requestedBy,
        requested_by_id: requester.requestedById,
      })
      .where('id', '=', runId)
      .where('status', '=', 'failed')
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function endRun(
  db: Kysely<Database>,
  runId: number,
  outcome: { status: 'succeeded' | 'failed'; error: string | null },
): Promise<void> {
  await db
    .updateTable('cycle_runs')
    .set({ status: outcome.status, error: outcome.error, finished_at: new Date() })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute();
}

export async function findRunningRun(db: Kysely<Database>): Promise<CycleRunRow | undefined> {
  return db.selectFrom('cycle_runs').selectAll().where('status', '=', 'running').executeTakeFirst();
}

export async function findRun(db: Kysely<Database>, runId: number): Promise<CycleRunRow | undefined> {
  return db.selectFrom('cycle_runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

export async function latestRunId(db: Kysely<Database>): Promise<number | undefined> {
  const row = await db
    .selectFrom('cycle_runs')
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function listRecentRuns(db: Kysely<Database>, limit: number): Promise<CycleRunRow[]> {
  return db.selectFrom('cycle_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export async function listSteps(db: Kysely<Database>, runIds: readonly number[]): Promise<CycleStepRow[]> {
  if (runIds.length === 0) return [];
  return db
    .selectFrom('cycle_steps')
    .selectAll()
    .where('run_id', 'in', [...runIds])
    .orderBy('run_id')
    .orderBy('id')
    .execute();
}

export async function startStep(db: Kysely<Database>, runId: number, step: CycleStepName): Promise<string> {
  const row = await db
    .insertInto('cycle_steps')
    .values({ run_id: runId, step, status: 'running' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function recordStepProgress(
  db: Kysely<Database>,
  stepId: string,
  percent: number,
): Promise<void> {
  await db
    .updateTable('cycle_steps')
    .set({ progress: percent })
    .where('id', '=', stepId)
    .where('status', '=', 'running')
    .execute();
}

export async function endStep(
  db: Kysely<Database>,
  stepId: string,
  outcome: {
    status: Exclude<CycleStepStatus, 'running'>;
    message: string | null;
    counts: Record<string, number>;
  },
): Promise<void> {
  await db
    .updateTable('cycle_steps')
    .set({
      status: outcome.status,
      message: outcome.message,
      counts: JSON.stringify(outcome.counts),
      finished_at: new Date(),
      progress: outcome.status === 'succeeded' ? 100 : sql<number | null>`progress`,
    })
    .where('id', '=', stepId)
    .execute();
}

const INTERRUPTED = 'Interrupted: the server stopped before the run finished';

/**
 * Fails runs (and their running steps) left 'running' by a stopped server: every one but `keep`
 * on the embedded database, which only this process opens; on PostgreSQL only those whose run
 * lock nobody holds (tried inside this transaction, so it is let go at once).
 */
export async function failInterruptedRuns(
  db: Kysely<Database>,
  options: { lockClass: number; isShared: boolean; keep: readonly number[] },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const runs = await trx
      .updateTable('cycle_runs')
      .set({ status: 'failed', error: INTERRUPTED, finished_at: new Date() })
      .where('status', '=', 'running')
      .$if(options.keep.length > 0, (q) => q.where('id', 'not in', [...options.keep]))
      .$if(options.isShared, (q) =>
        q.where(sql<boolean>`pg_try_advisory_xact_lock(${options.lockClass}, id)`),
      )
      .returning('id')
      .execute();
    if (runs.length === 0) return 0;
    await trx
      .updateTable('cycle_steps')
      .set({ status: 'failed', message: INTERRUPTED, finished_at: new Date() })
      .where('status', '=', 'running')
      .where(
        'run_id',
        'in',
        runs.map((run) => run.id),
      )
      .execute();
    return runs.length;
  });
}

/** A new run's id, for taking its lock before its row exists. */
export async function nextRunId(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    select nextval(pg_get_serial_sequence('cycle_runs', 'id'))::int4 as id`.execute(db);
  return rows[0]!.id;
}

/**
 * PostgreSQL: takes the run's advisory lock on a connection of its own, then `claim` writes the
 * running row, then `work` goes on in the background while the lock is held. No process ever sees
 * the run running without its lock, and when the process dies the lock goes with its session:
 * that is how other processes tell an orphaned run from one still going. Answers once the row is
 * in (undefined when another run is going).
 */
export function startLockedRun(
  db: Kysely<Database>,
  lockClass: number,
  runId: number,
  claim: (connection: Kysely<Database>) => Promise<CycleRunRow | undefined>,
  work: (row: CycleRunRow) => Promise<void>,
): Promise<{ row: CycleRunRow | undefined; finished: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let isAnswered = false;
    const finished = db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${lockClass}, ${runId})`.execute(connection);
      try {
        const row = await claim(connection);
        isAnswered = true;
        resolve({ row, finished });
        if (row) await work(row);
      } finally {
        await sql`select pg_advisory_unlock(${lockClass}, ${runId})`.execute(connection);
      }
    });
    finished.catch((error: unknown) => {
      if (!isAnswered) reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Sales history rows as the actuals feed brings them: one product's units in one week. */
export type ActualsRow = { pid: string; weekStart: string; units: number };

/** PIDs among `pids` that are products (any client: the feed is an admin's load). */
export async function knownPids(db: Kysely<Database>, pids: readonly string[]): Promise<Set<string>> {
  if (pids.length === 0) return new Set();
  const rows = await db
    .selectFrom('products')
    .select('pid')
    .where('pid', 'in', [...pids])
    .execute();
  return new Set(rows.map((row) => row.pid));
}

/**
 * Upserts the rows in one statement: a re-sent week replaces the earlier units. Answers how many
 * were new and how many changed.
 */
export async function upsertSalesHistory(
  db: Kysely<Database>,
  rows: readonly ActualsRow[],
): Promise<{ inserted: number; updated: number }> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  const { rows: result } = await sql<{ inserted: boolean }>`
    insert into sales_history (pid, week_start, units)
    select * from unnest(${rows.map((r) => r.pid)}::text[], ${rows.map((r) => r.weekStart)}::date[],
      ${rows.map((r) => r.units)}::float8[])
    on conflict (pid, week_start) do update set units = excluded.units
      where sales_history.units is distinct from excluded.units
    returning (xmax = 0) as inserted`.execute(db);
  const inserted = result.filter((row) => row.inserted).length;
  return { inserted, updated: result.length - inserted };
}
