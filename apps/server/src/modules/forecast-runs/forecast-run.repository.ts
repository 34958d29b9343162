import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { FORECAST_FIELDS, PLAN_OUTPUT_FIELDS, type ClientId } from '@ps/domain';
import { insertByUnnest, updateByUnnestReturningKeys } from '../../db/bulk';
import { RECORD_KEY_COLUMNS, recordColumnSpecs } from '../../db/demand-record-row';
import type { Database, DemandRecordsTable, ForecastAccuracyTable, ForecastRunsTable } from '../../db/schema';

export type ForecastRunRow = Selectable<ForecastRunsTable>;

const UNIQUE_VIOLATION = '23505';

/** Starts a run; undefined when another run is already going (the partial unique index refuses it). */
export async function insertRunningRun(
  db: Kysely<Database>,
  run: { requestedBy: string; clientIds: readonly ClientId[] },
): Promise<ForecastRunRow | undefined> {
  try {
    return await db
      .insertInto('forecast_runs')
      .values({
        status: 'running',
        requested_by: run.requestedBy,
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
      'status' | 'total_products' | 'processed_products' | 'updated_records' | 'error' | 'finished_at'
    >
  >,
): Promise<void> {
  await db.updateTable('forecast_runs').set(values).where('id', '=', id).execute();
}

/** A run left 'running' by a server that stopped mid-way can never finish; mark it failed. */
export async function failInterruptedRuns(db: Kysely<Database>): Promise<number> {
  const result = await db
    .updateTable('forecast_runs')
    .set({
      status: 'failed',
      error: 'Interrupted: the server stopped before the run finished',
      finished_at: new Date(),
    })
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type ProductToForecast = { pid: string; unit_cost: number; unit_price: number };

export async function listProductsToForecast(
  db: Kysely<Database>,
  clientIds: readonly ClientId[],
): Promise<ProductToForecast[]> {
  return db
    .selectFrom('products')
    .select(['pid', 'unit_cost', 'unit_price'])
    .where('client_id', 'in', [...clientIds])
    .orderBy('pid')
    .execute();
}

/** Weekly history of some products, oldest week first per product. */
export async function loadSalesHistory(
  db: Kysely<Database>,
  pids: readonly string[],
): Promise<Map<string, { weeks: string[]; units: number[] }>> {
  const rows = await db
    .selectFrom('sales_history')
    .select(['pid', 'week_start', 'units'])
    .where('pid', 'in', [...pids])
    .orderBy('pid')
    .orderBy('week_start')
    .execute();
  const byPid = new Map<string, { weeks: string[]; units: number[] }>();
  for (const row of rows) {
    const series = byPid.get(row.pid) ?? { weeks: [], units: [] };
    series.weeks.push(row.week_start);
    series.units.push(row.units);
    byPid.set(row.pid, series);
  }
  return byPid;
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
      .where('r.pid', 'in', [...pids])
      // The sales_history primary key (pid, week_start) answers max() per product from the index.
      .where(sql<boolean>`r.week_start > (select max(s.week_start) from sales_history s where s.pid = r.pid)`)
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
 * Writes forecasts and plans in one statement, each record only if its version is still the one
 * the plan was computed from; answers the keys written, so the caller can retry the others with
 * the planner's new overrides instead of overwriting them.
 */
export async function writeForecasts(
  db: Kysely<Database>,
  rows: readonly ForecastWrite[],
  user: string,
): Promise<Set<string>> {
  const written = await updateByUnnestReturningKeys(
    db,
    'demand_records',
    {
      keys: WRITE_GUARD,
      columns: FORECAST_COLUMNS,
      also: { version: sql`t.version + 1`, last_updated_at: sql`now()`, last_updated_by: sql`${user}` },
    },
    rows,
  );
  return new Set(written.map((row) => recordKey(row as { pid: string; week_start: string })));
}

export const recordKey = (record: { pid: string; week_start: string }): string =>
  `${record.pid}|${record.week_start}`;

export async function upsertAccuracy(
  db: Kysely<Database>,
  rows: ReadonlyArray<Insertable<ForecastAccuracyTable>>,
): Promise<void> {
  if (rows.length === 0) return;
  const pids = rows.map((r) => r.pid);
  await db.deleteFrom('forecast_accuracy').where('pid', 'in', pids).execute();
  await insertByUnnest(
    db,
    'forecast_accuracy',
    [
      { name: 'pid', type: 'text' },
      { name: 'run_id', type: 'int4' },
      { name: 'model', type: 'text' },
      { name: 'demand_class', type: 'text' },
      { name: 'backtest_model', type: 'text' },
      { name: 'mape', type: 'float8' },
      { name: 'bias', type: 'float8' },
      { name: 'history_weeks', type: 'int4' },
    ],
    rows,
  );
}
