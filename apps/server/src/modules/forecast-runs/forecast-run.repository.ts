import { CompiledQuery, sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import {
  FORECAST_FIELDS,
  PLAN_OUTPUT_FIELDS,
  type ClientId,
  type ForecastField,
  type ForecastMemberWeight,
  type ForecastQuantiles,
  type PlanOutputField,
} from '@ps/domain';
import { unnestUpdate } from '../../db/bulk';
import { writeTransaction } from '../../db/write-transaction';
import { RECORD_KEY_COLUMNS, recordColumnSpecs } from '../../db/demand-record-row';
import type {
  Database,
  DemandRecordsTable,
  ForecastAccuracyTable,
  ForecastRunChunksTable,
  ForecastRunsTable,
} from '../../db/schema';

export type ForecastRunRow = Selectable<ForecastRunsTable>;

const UNIQUE_VIOLATION = '23505';

/** Starts a run; undefined when another run is already going (the partial unique index refuses it). */
export async function insertRunningRun(
  db: Kysely<Database>,
  run: { id?: number; requestedBy: string; requestedById: string; clientIds: readonly ClientId[] },
): Promise<ForecastRunRow | undefined> {
  try {
    return await db
      .insertInto('forecast_runs')
      .values({
        ...(run.id === undefined ? {} : { id: run.id }),
        status: 'running',
        requested_by: run.requestedBy,
        requested_by_id: run.requestedById,
        client_ids: [...run.clientIds],
        error: null,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
    throw error;
  }
}

export async function findRunningRun(db: Kysely<Database>): Promise<ForecastRunRow | undefined> {
  return db.selectFrom('forecast_runs').selectAll().where('status', '=', 'running').executeTakeFirst();
}

export async function findRun(db: Kysely<Database>, id: number): Promise<ForecastRunRow | undefined> {
  return db.selectFrom('forecast_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listRecentRuns(db: Kysely<Database>, limit: number): Promise<ForecastRunRow[]> {
  return db.selectFrom('forecast_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export async function updateRun(
  db: Kysely<Database>,
  id: number,
  values: Partial<
    Pick<
      ForecastRunRow,
      | 'status'
      | 'total_products'
      | 'processed_products'
      | 'updated_records'
      | 'error'
      | 'finished_at'
      | 'horizon'
      | 'training_steps'
      | 'trained_steps'
    >
  >,
): Promise<void> {
  await db.updateTable('forecast_runs').set(values).where('id', '=', id).execute();
}

/** Advisory-lock class of forecast runs: (class, run id) is held by the process running it. */
const RUN_LOCK_CLASS = 7_301;
/**
 * Starts a run on a shared PostgreSQL: on one pooled connection kept for the whole run, takes the
 * next run id, locks it (advisory lock (class, id)) and only then inserts the row, so no other
 * process ever sees the run without its lock. When the process dies, PostgreSQL closes the
 * session and the lock goes with it: that is how other processes tell an orphaned run from one
 * still going. Answers once the row is in (undefined when another run is going); `work` then goes
 * on in the background and the lock is released when it ends.
 */
export function startLockedRun(
  db: Kysely<Database>,
  run: { requestedBy: string; requestedById: string; clientIds: readonly ClientId[] },
  work: (row: ForecastRunRow) => Promise<void>,
): Promise<{ row: ForecastRunRow | undefined; finished: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const finished = db.connection().execute(async (connection) => {
      const { rows } = await sql<{ id: number }>`
        select nextval(pg_get_serial_sequence('forecast_runs', 'id'))::int4 as id`.execute(connection);
      const id = rows[0]!.id;
      await sql`select pg_advisory_lock(${RUN_LOCK_CLASS}, ${id})`.execute(connection);
      try {
        const row = await insertRunningRun(connection, { ...run, id });
        answered = true;
        resolve({ row, finished });
        if (row) await work(row);
      } finally {
        await sql`select pg_advisory_unlock(${RUN_LOCK_CLASS}, ${id})`.execute(connection);
      }
    });
    finished.catch((error: unknown) => {
      if (!answered) reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

const INTERRUPTED = {
  status: 'failed',
  error: 'Interrupted: the server stopped before the run finished',
  finished_at: new Date(),
} as const;

/**
 * Marks failed the runs left 'running' by a process that is gone: on a shared PostgreSQL, those
 * whose advisory lock nobody holds (tried inside this transaction, so it is released at once).
 * A queued run is left alone: its chunks are jobs the queue retries when a worker dies, and a
 * chunk that gives up fails the run itself.
 */
export async function failOrphanedRuns(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('forecast_runs')
      .set({ ...INTERRUPTED, finished_at: new Date() })
      .where('status', '=', 'running')
      .where('queued', '=', false)
      .where(sql<boolean>`pg_try_advisory_xact_lock(${RUN_LOCK_CLASS}, id)`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/**
 * Marks failed every run left 'running' except the given ones: for the embedded database, which
 * only this process can open, so any other running run was left by a stopped server.
 */
export async function failRunsExcept(db: Kysely<Database>, ownRunIds: readonly number[]): Promise<number> {
  const result = await db
    .updateTable('forecast_runs')
    .set({ ...INTERRUPTED, finished_at: new Date() })
    .where('status', '=', 'running')
    .$if(ownRunIds.length > 0, (q) => q.where('id', 'not in', [...ownRunIds]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A product as a run forecasts it: its place in the hierarchy (client, unit, family) and its cost and price. */
export type ProductToForecast = {
  pid: string;
  client_id: string;
  bu: string;
  pf: string;
  unit_cost: number;
  unit_price: number;
};
const PRODUCT_TO_FORECAST = ['pid', 'client_id', 'bu', 'pf', 'unit_cost', 'unit_price'] as const;

export async function listProductsToForecast(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<ProductToForecast[]> {
  return db
    .selectFrom('products')
    .select(PRODUCT_TO_FORECAST)
    .where('client_id', 'in', [...clientIds])
    .orderBy('pid')
    .execute();
}

export async function listProductsByPids(
  db: Kysely<Database>,
  pids: readonly string[],
): Promise<ProductToForecast[]> {
  if (pids.length === 0) return [];
  return db
    .selectFrom('products')
    .select(PRODUCT_TO_FORECAST)
    .where('pid', 'in', [...pids])
    .orderBy('pid')
    .execute();
}

export type ChunkRow = Selectable<ForecastRunChunksTable>;

/** A run's chunks, numbered from 0; `queued` marks the run as handed to the job queue. */
export async function insertChunks(
  db: Kysely<Database>,
  run: { id: number; totalProducts: number; queued: boolean },
  chunks: readonly (readonly string[])[],
): Promise<void> {
  if (chunks.length > 0) {
    await db
      .insertInto('forecast_run_chunks')
      .values(chunks.map((pids, chunk) => ({ run_id: run.id, chunk, pids: [...pids] })))
      .execute();
  }
  await db
    .updateTable('forecast_runs')
    .set({ total_products: run.totalProducts, queued: run.queued })
    .where('id', '=', run.id)
    .execute();
}

/** Starts an attempt at a chunk: counts it and restarts its progress. Undefined for no such chunk. */
export async function startChunkAttempt(
  db: Kysely<Database>,
  runId: number,
  chunk: number,
): Promise<ChunkRow | undefined> {
  return db
    .updateTable('forecast_run_chunks')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      processed: sql`case when done_at is null then 0 else processed end`,
    }))
    .where('run_id', '=', runId)
    .where('chunk', '=', chunk)
    .returningAll()
    .executeTakeFirst();
}

/** The run's progress is the sum of its chunks' (a retried chunk restarts its own share). */
async function sumChunksIntoRun(db: Kysely<Database>, runId: number): Promise<void> {
  await sql`update forecast_runs r
    set processed_products = t.processed, updated_records = t.updated
    from (select coalesce(sum(processed), 0)::int4 as processed, coalesce(sum(updated_records), 0)::int4 as updated
          from forecast_run_chunks where run_id = ${runId}) t
    where r.id = ${runId}`.execute(db);
}

export async function recordChunkProgress(
  db: Kysely<Database>,
  runId: number,
  chunk: number,
  processed: number,
): Promise<void> {
  await db
    .updateTable('forecast_run_chunks')
    .set({ processed })
    .where('run_id', '=', runId)
    .where('chunk', '=', chunk)
    .where('done_at', 'is', null)
    .execute();
  await sumChunksIntoRun(db, runId);
}

/** Marks a chunk done once: a second attempt that also gets here (a worker thought dead) changes nothing. */
export async function completeChunk(
  db: Kysely<Database>,
  runId: number,
  chunk: number,
  done: { processed: number; updatedRecords: number },
): Promise<void> {
  await db
    .updateTable('forecast_run_chunks')
    .set({
      processed: done.processed,
      updated_records: done.updatedRecords,
      done_at: new Date(),
      error: null,
    })
    .where('run_id', '=', runId)
    .where('chunk', '=', chunk)
    .where('done_at', 'is', null)
    .execute();
  await sumChunksIntoRun(db, runId);
}

export async function recordChunkError(
  db: Kysely<Database>,
  runId: number,
  chunk: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('forecast_run_chunks')
    .set({ error })
    .where('run_id', '=', runId)
    .where('chunk', '=', chunk)
    .execute();
}

export async function findChunk(
  db: Kysely<Database>,
  runId: number,
  chunk: number,
): Promise<ChunkRow | undefined> {
  return db
    .selectFrom('forecast_run_chunks')
    .selectAll()
    .where('run_id', '=', runId)
    .where('chunk', '=', chunk)
    .executeTakeFirst();
}

/**
 * In the caller's transaction: locks the run when it is still running and every chunk is done,
 * so exactly one process goes on to finish it (a second waits on the lock, then finds it ended).
 */
export async function lockRunReadyToFinish(
  trx: Kysely<Database>,
  runId: number,
): Promise<ForecastRunRow | undefined> {
  return trx
    .selectFrom('forecast_runs')
    .selectAll()
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('forecast_run_chunks')
            .select('chunk')
            .where('run_id', '=', runId)
            .where('done_at', 'is', null),
        ),
      ),
    )
    .forUpdate()
    .executeTakeFirst();
}

/** Ends a run that is still running; true when this call ended it (so the caller notifies once). */
export async function endRun(
  db: Kysely<Database>,
  runId: number,
  values: { status: 'succeeded' | 'failed'; error: string | null },
): Promise<boolean> {
  if (values.status === 'succeeded') await sumChunksIntoRun(db, runId);
  const result = await db
    .updateTable('forecast_runs')
    .set({ ...values, finished_at: new Date() })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Weekly history of some products, oldest week first per product. One row per product with its
 * weeks and units as arrays: handing over a chunk's history row by row blocks the embedded
 * database, and every request with it, several times longer than a few hundred rows of arrays.
 */
export async function loadSalesHistory(
  db: Kysely<Database>,
  pids: readonly string[],
): Promise<Map<string, { weeks: string[]; units: number[] }>> {
  const { rows } = await sql<{ pid: string; weeks: string[]; units: number[] }>`
    select pid, array_agg(to_char(week_start, 'YYYY-MM-DD') order by week_start) as weeks,
      array_agg(units::float8 order by week_start) as units
    from sales_history where pid = any(${[...pids]}::text[])
    group by pid`.execute(db);
  return new Map(rows.map((row) => [row.pid, { weeks: row.weeks, units: row.units }]));
}

/**
 * Weeks from each product's last week of history to its furthest record after it, the most over
 * the products (at least 1): the horizon a run forecasts all its products to, so every chunk
 * forecasts the same steps the run's global member was trained for.
 */
export async function loadRunHorizon(db: Kysely<Database>, pids: readonly string[]): Promise<number> {
  const { rows } = await sql<{ days: number | null }>`
    select max(r.week_start - h.last_week)::int4 as days
    from demand_records r
    join (select pid, max(week_start) as last_week from sales_history
          where pid = any(${[...pids]}::text[]) group by pid) h
      on h.pid = r.pid and r.week_start > h.last_week`.execute(db);
  return Math.max(1, Math.round((rows[0]?.days ?? 0) / 7));
}

/** Step models of the run's global member trained so far (never back: writes may land out of order). */
export async function recordTrainingProgress(
  db: Kysely<Database>,
  runId: number,
  progress: { done: number; total: number },
): Promise<void> {
  await db
    .updateTable('forecast_runs')
    .set((eb) => ({
      training_steps: progress.total,
      trained_steps: sql<number>`greatest(${eb.ref('trained_steps')}, ${progress.done})`,
    }))
    .where('id', '=', runId)
    .execute();
}

/** The run's trained global member, stored once before its chunks are queued. */
export async function saveGlobalModels(db: Kysely<Database>, runId: number, models: unknown): Promise<void> {
  await db
    .insertInto('forecast_run_global_models')
    .values({ run_id: runId, models: JSON.stringify(models) })
    .onConflict((oc) => oc.column('run_id').doNothing())
    .execute();
}

/** The run's global member as stored; undefined when the run trained none. */
export async function loadGlobalModels(db: Kysely<Database>, runId: number): Promise<unknown> {
  const row = await db
    .selectFrom('forecast_run_global_models')
    .select('models')
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return row?.models;
}

/** Each product's weekly sales units in week order, without the weeks (a run's training reads only these). */
export async function loadSalesUnits(
  db: Kysely<Database>,
  pids: readonly string[],
): Promise<Map<string, number[]>> {
  const { rows } = await sql<{ pid: string; units: number[] }>`
    select pid, array_agg(units::float8 order by week_start) as units
    from sales_history where pid = any(${[...pids]}::text[])
    group by pid`.execute(db);
  return new Map(rows.map((row) => [row.pid, row.units]));
}

export type FutureRecord = {
  pid: string;
  week_start: string;
  /** The version read: a forecast write applies only while the record still has it. */
  version: number;
  rev_pln_ovrd_percent: number | null;
  rev_pln_ovrd_units: number | null;
  sop_pln_ovrd_percent: number | null;
  sop_pln_ovrd_units: number | null;
};

/** Records after each product's last week of history: the weeks a run forecasts. */
export async function loadFutureRecords(
  db: Kysely<Database>,
  pids: readonly string[],
): Promise<FutureRecord[]> {
  return (
    db
      .selectFrom('demand_records as r')
      .select([
        'r.pid',
        'r.week_start',
        'r.version',
        'r.rev_pln_ovrd_percent',
        'r.rev_pln_ovrd_units',
        'r.sop_pln_ovrd_percent',
        'r.sop_pln_ovrd_units',
      ])
      // Each product's last week of history once, joined: a subquery per record ran an index
      // probe per record of the chunk, on the embedded database while nothing else could run.
      .innerJoin(
        (eb) =>
          eb
            .selectFrom('sales_history')
            .select((s) => ['pid', s.fn.max('week_start').as('last_week')])
            .where('pid', 'in', [...pids])
            .groupBy('pid')
            .as('h'),
        (join) => join.onRef('h.pid', '=', 'r.pid').onRef('r.week_start', '>', 'h.last_week'),
      )
      .where('r.pid', 'in', [...pids])
      .orderBy('r.pid')
      .orderBy('r.week_start')
      .execute()
  );
}

/** The records of these keys as a run reads them, fresh (after an edit made the write stale). */
export async function loadRecordsByKeys(
  db: Kysely<Database>,
  keys: ReadonlyArray<{ pid: string; week_start: string }>,
): Promise<FutureRecord[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<FutureRecord>`
    select r.pid, r.week_start, r.version, r.rev_pln_ovrd_percent, r.rev_pln_ovrd_units,
           r.sop_pln_ovrd_percent, r.sop_pln_ovrd_units
    from unnest(${keys.map((k) => k.pid)}::text[], ${keys.map((k) => k.week_start)}::date[]) as k(pid, week_start)
    join demand_records r on r.pid = k.pid and r.week_start = k.week_start`.execute(db);
  return rows;
}

/** What a run writes per record: the forecasts and the plan chain that follows from them. */
const FORECAST_COLUMNS = recordColumnSpecs([...FORECAST_FIELDS, ...PLAN_OUTPUT_FIELDS]);
/** Matched with the key: a record a planner changed since the run read it is left for a retry. */
const WRITE_GUARD = [...RECORD_KEY_COLUMNS, { name: 'version', type: 'int4' } as const];

export type ForecastWrite = Pick<DemandRecordsTable, 'pid' | 'week_start'> & {
  version: number;
} & {
  [C in (typeof FORECAST_COLUMNS)[number]['name']]: DemandRecordsTable[C];
};

/**
 * The fields whose rewrite a run audits: the forecasts and the units of the two plan stages. The
 * plan's cost, revenue and deltas are those units at the product's fixed cost and price, so
 * auditing them too would triple the rows a run writes without telling a planner anything more.
 */
const AUDITED_FIELDS = [
  ...FORECAST_FIELDS,
  'Prelim_Pln_Units',
  'Final_Pln_Units',
] as const satisfies ReadonlyArray<ForecastField | PlanOutputField>;
const AUDITED_COLUMNS = AUDITED_FIELDS.map((field) => recordColumnSpecs([field])[0]!.name);

/**
 * Writes forecasts and plans in one statement, each record only if its version is still the one
 * the plan was computed from, and in the same statement audits every audited field whose value
 * changed (source 'forecast', so cell history shows the run and 'Last Overridden By' keeps the
 * planner). Answers the keys written, so the caller can retry the others with the planner's new
 * overrides instead of overwriting them.
 */
export async function writeForecasts(
  db: Kysely<Database>,
  rows: readonly ForecastWrite[],
  run: { user: string; cause: string },
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const update = unnestUpdate(
    'demand_records',
    {
      keys: WRITE_GUARD,
      columns: FORECAST_COLUMNS,
      also: { version: sql`t.version + 1`, last_updated_at: sql`now()`, last_updated_by: sql`${run.user}` },
    },
    rows,
    sql.join([sql`t.pid`, sql`t.week_start`, ...AUDITED_COLUMNS.map((c) => sql`t.${sql.ref(c)}`)]),
  );
  // The update and the audit insert see the table as it was before the statement, so `o` holds
  // each record's old values and `w` its new ones.
  const changes = AUDITED_FIELDS.map(
    (field, i) =>
      sql`(${field}, o.${sql.ref(AUDITED_COLUMNS[i]!)}::text, w.${sql.ref(AUDITED_COLUMNS[i]!)}::text)`,
  );
  const statement = sql<{ pid: string; week_start: string }>`
    with w as (${update}),
    audit as (
      insert into audit_log (client_id, pid, week_start, field, old_value, new_value, changed_by, source, cause)
      select p.client_id, w.pid, w.week_start, f.field, f.old_value, f.new_value, ${run.user}, 'forecast', ${run.cause}
      from w
      join demand_records o on o.pid = w.pid and o.week_start = w.week_start
      join products p on p.pid = w.pid
      cross join lateral (values ${sql.join(changes)}) as f(field, old_value, new_value)
      where f.old_value is distinct from f.new_value)
    select w.pid, to_char(w.week_start, 'YYYY-MM-DD') as week_start from w`;
  // A transaction of its own for the write settings: the statement and the triggers it fires
  // (roll-up, live updates) run without JIT, whose compiling alone took seconds per statement.
  const { rows: written } = await writeTransaction(db, (trx) => statement.execute(trx));
  return new Set(written.map(recordKey));
}

export const recordKey = (record: { pid: string; week_start: string }): string =>
  `${record.pid}|${record.week_start}`;

export type AccuracyWrite = Omit<
  Insertable<ForecastAccuracyTable>,
  'members' | 'computed_at' | 'quantiles'
> & {
  members: readonly ForecastMemberWeight[];
  quantiles: ForecastQuantiles | null;
};

/**
 * Replaces the products' accuracy rows. One statement for all rows, as insertByUnnest does; the
 * members travel as JSON text and are cast to jsonb in the statement.
 */
export async function upsertAccuracy(db: Kysely<Database>, rows: readonly AccuracyWrite[]): Promise<void> {
  if (rows.length === 0) return;
  const pids = rows.map((r) => r.pid);
  await db.deleteFrom('forecast_accuracy').where('pid', 'in', pids).execute();
  const column = <T>(pick: (row: AccuracyWrite) => T): T[] => rows.map(pick);
  await sql`insert into forecast_accuracy
      (pid, run_id, model, demand_class, backtest_model, mape, bias, history_weeks, members, quantiles)
    select t.pid, t.run_id, t.model, t.demand_class, t.backtest_model, t.mape, t.bias, t.history_weeks,
      t.members::jsonb, t.quantiles::jsonb
    from unnest(${column((r) => r.pid)}::text[], ${column((r) => r.run_id)}::int4[],
      ${column((r) => r.model)}::text[], ${column((r) => r.demand_class)}::text[],
      ${column((r) => r.backtest_model)}::text[], ${column((r) => r.mape ?? null)}::float8[],
      ${column((r) => r.bias ?? null)}::float8[], ${column((r) => r.history_weeks)}::int4[],
      ${column((r) => JSON.stringify(r.members))}::text[],
      ${column((r) => (r.quantiles ? JSON.stringify(r.quantiles) : null))}::text[])
      as t(pid, run_id, model, demand_class, backtest_model, mape, bias, history_weeks, members, quantiles)`.execute(
    db,
  );
}

/** A product's accuracy row, only when the product belongs to one of the caller's clients. */
export async function findAccuracy(
  db: Kysely<Database>,
  pid: string,
  clientIds: readonly ClientId[],
): Promise<Selectable<ForecastAccuracyTable> | undefined> {
  if (clientIds.length === 0) return undefined;
  return db
    .selectFrom('forecast_accuracy as a')
    .innerJoin('products as p', 'p.pid', 'a.pid')
    .selectAll('a')
    .where('a.pid', '=', pid)
    .where('p.client_id', 'in', [...clientIds])
    .executeTakeFirst();
}

/** The schema the app's tables are in (the search path's first). */
export async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}

/**
 * Runs the job queue's own statements (text and parameters as pg-boss writes them) on the app's
 * pool, or inside a transaction of the caller.
 */
export function queueStatementRunner(db: Kysely<Database>): {
  executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
} {
  return {
    executeSql: async (text, values) => {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows };
    },
  };
}

/**
 * What a run over these clients would rewrite: the products with sales history (the others have
 * nothing to forecast from) and their records after their last week of history, counted as
 * forecastStep picks them.
 */
export async function countForecastScope(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<{ products: number; records: number }> {
  const row = await db
    .selectFrom('demand_records as r')
    .innerJoin(
      (eb) =>
        eb
          .selectFrom('sales_history as s')
          .innerJoin('products as p', 'p.pid', 's.pid')
          .select((s) => ['s.pid', s.fn.max('s.week_start').as('last_week')])
          .where('p.client_id', 'in', [...clientIds])
          .groupBy('s.pid')
          .as('h'),
      (join) => join.onRef('h.pid', '=', 'r.pid').onRef('r.week_start', '>', 'h.last_week'),
    )
    .select((eb) => [
      eb.fn.count<string>('r.pid').as('records'),
      eb.fn.count<string>('r.pid').distinct().as('products'),
    ])
    .executeTakeFirstOrThrow();
  return { products: Number(row.products), records: Number(row.records) };
}
