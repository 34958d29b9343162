import { EDITABLE_FIELDS, PLAN_OUTPUT_FIELDS, type ClientId } from '@ps/domain';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { AUDIT_LOG_COLUMNS } from '../../db/audit-log';
import { insertByUnnest, updateByUnnest, type ColumnSpec } from '../../db/bulk';
import {
  RECORD_KEY_COLUMNS,
  recordColumnSpecs,
  selectRecords,
  type DemandRecordRow,
} from '../../db/demand-record-row';
import type { Database, DemandRecordsTable } from '../../db/schema';
import { JOB_LOCK_CLASS, jobLockFree, lockJob, ORPHAN_GRACE } from '../../db/job-locks';
import { bulkWrite } from '../../read-model';

type Db = Kysely<Database> | Transaction<Database>;

/** Rows per statement: keeps each array parameter to a few MB however large the import. */
const CHUNK = 50_000;

async function inChunks<T>(
  rows: readonly T[],
  write: (chunk: readonly T[]) => Promise<unknown>,
): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) await write(rows.slice(start, start + CHUNK));
}

export type ImportedProduct = {
  pid: string;
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  site: string;
  unit_cost: number;
  unit_price: number;
  planner_name: string | null;
  notes: string | null;
};

/** The products among these SKUs, whoever owns them (a SKU is unique across clients). */
/**
 * The products of these SKUs, of every client (`ownedBy` 'any') or only of the given clients, so
 * that another client's SKU is as unknown as one that does not exist.
 */
export async function findProducts(
  db: Db,
  skus: readonly string[],
  lock: boolean,
  ownedBy: readonly ClientId[] | 'any',
): Promise<ImportedProduct[]> {
  if (skus.length === 0) return [];
  let query = db
    .selectFrom('products as p')
    .leftJoin('product_details as d', 'd.pid', 'p.pid')
    .select([
      'p.pid',
      'p.client_id',
      'p.bu',
      'p.pf',
      'p.region',
      'p.site',
      'p.unit_cost',
      'p.unit_price',
      'd.planner_name',
      'd.notes',
    ])
    .where('p.pid', '=', sql<string>`any(${[...skus]}::text[])`)
    .orderBy('p.pid');
  if (ownedBy !== 'any') query = query.where('p.client_id', 'in', [...ownedBy]);
  return lock ? query.forUpdate('p').execute() : query.execute();
}

/** The records of these products in [first, last] weeks within the caller's clients, locked, in key order. */
export async function lockRecords(
  trx: Transaction<Database>,
  pids: readonly string[],
  weeks: { first: string; last: string },
  clientIds: readonly ClientId[],
): Promise<DemandRecordRow[]> {
  if (pids.length === 0) return [];
  return selectRecords(trx)
    .where('r.pid', '=', sql<string>`any(${[...pids]}::text[])`)
    .where('r.week_start', '>=', weeks.first)
    .where('r.week_start', '<=', weeks.last)
    .where('p.client_id', 'in', [...clientIds])
    .orderBy('r.pid')
    .orderBy('r.week_start')
    .forUpdate('r')
    .execute();
}

/** Final plan units of the products' weeks in the range, of the given clients (the preview's "before"). */
export async function findFinalPlans(
  db: Kysely<Database>,
  pids: readonly string[],
  weeks: { first: string; last: string },
  clientIds: readonly ClientId[],
): Promise<Array<{ pid: string; week_start: string; final_pln_units: number | null }>> {
  if (pids.length === 0) return [];
  return db
    .selectFrom('demand_records as r')
    .innerJoin('products as p', 'p.pid', 'r.pid')
    .select(['r.pid', 'r.week_start', 'r.final_pln_units'])
    .where('r.pid', '=', sql<string>`any(${[...pids]}::text[])`)
    .where('r.week_start', '>=', weeks.first)
    .where('r.week_start', '<=', weeks.last)
    .where('p.client_id', 'in', [...clientIds])
    .execute();
}

/**
 * A large file creates millions of records in one statement (100,000 new SKUs × 52 weeks), longer
 * than the pool's per-statement limit that protects interactive requests; an import gets its own.
 */
export async function allowLongImport(trx: Transaction<Database>): Promise<void> {
  await sql`set local statement_timeout = '600s'`.execute(trx);
}

export type ImportRow = Selectable<Database['imports']>;

/** The import's row, 'running', committed before its transaction starts so it can be polled. */
export async function insertRunningImport(
  db: Db,
  row: { fileName: string; by: string; byId: string; rows: number },
): Promise<ImportRow> {
  return db
    .insertInto('imports')
    .values({
      file_name: row.fileName,
      imported_by: row.by,
      imported_by_id: row.byId,
      row_count: row.rows,
      created_count: 0,
      updated_count: 0,
      failed_count: 0,
      status: 'running',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks the import as its transaction's: see lockJob. */
export async function lockImport(trx: Transaction<Database>, id: number): Promise<void> {
  await lockJob(trx, JOB_LOCK_CLASS.import, id);
}

/** Progress, written from outside the import's transaction so a poll sees it at once. */
export async function recordImportProgress(db: Db, id: number, processed: number): Promise<void> {
  await db
    .updateTable('imports')
    .set({ processed_rows: processed })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** Inside the import's transaction: it succeeded exactly when its writes commit. */
export async function finishImport(
  trx: Transaction<Database>,
  id: number,
  result: {
    counts: { created: number; updated: number; unchanged: number; failed: number };
    outcome: unknown;
    steps: Record<string, number>;
  },
): Promise<void> {
  const { counts } = result;
  await trx
    .updateTable('imports')
    .set({
      status: 'succeeded',
      created_count: counts.created,
      updated_count: counts.updated,
      unchanged_count: counts.unchanged,
      failed_count: counts.failed,
      processed_rows: sql<number>`row_count`,
      outcome: JSON.stringify(result.outcome),
      steps: JSON.stringify(result.steps),
      finished_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function failImport(
  db: Db,
  id: number,
  error: string,
  steps: Record<string, number>,
): Promise<void> {
  await db
    .updateTable('imports')
    .set({
      status: 'failed',
      error: error.slice(0, 2000),
      steps: JSON.stringify(steps),
      finished_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export async function findImport(db: Db, id: number): Promise<ImportRow | undefined> {
  return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
}

export const INTERRUPTED_IMPORT =
  'Interrupted: the server stopped before the import finished; nothing of it was written';

/**
 * Marks failed the imports left 'running' by a process that is gone (PostgreSQL): those whose
 * transaction's lock nobody holds. The few seconds' grace covers the moment between an import's
 * row and its transaction's first statement.
 */
export async function failOrphanedImports(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('imports')
      .set({ status: 'failed', error: INTERRUPTED_IMPORT, finished_at: new Date() })
      .where('status', '=', 'running')
      .where('imported_at', '<', ORPHAN_GRACE)
      .where(jobLockFree(JOB_LOCK_CLASS.import))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/** The embedded database has one process: every running import but its own was interrupted. */
export async function failImportsExcept(db: Kysely<Database>, own: readonly number[]): Promise<number> {
  const result = await db
    .updateTable('imports')
    .set({ status: 'failed', error: INTERRUPTED_IMPORT, finished_at: new Date() })
    .where('status', '=', 'running')
    .$if(own.length > 0, (q) => q.where('id', 'not in', [...own]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

type NewProduct = {
  pid: string;
  client_id: string;
  bu: string;
  pf: string;
  class: string;
  region: string;
  site: string;
  entity_type: string;
  unit_cost: number;
  unit_price: number;
};
const PRODUCT_COLUMNS: ColumnSpec<NewProduct>[] = [
  { name: 'pid', type: 'text' },
  { name: 'client_id', type: 'text' },
  { name: 'bu', type: 'text' },
  { name: 'pf', type: 'text' },
  { name: 'class', type: 'text' },
  { name: 'region', type: 'text' },
  { name: 'site', type: 'text' },
  { name: 'entity_type', type: 'text' },
  { name: 'unit_cost', type: 'numeric' },
  { name: 'unit_price', type: 'numeric' },
];

export async function insertProducts(trx: Transaction<Database>, rows: readonly NewProduct[]): Promise<void> {
  await inChunks(rows, (chunk) => insertByUnnest(trx, 'products', PRODUCT_COLUMNS, chunk));
}

export type ProductPlaceUpdate = { pid: string; region: string; site: string };

export async function updateProductPlaces(
  trx: Transaction<Database>,
  rows: readonly ProductPlaceUpdate[],
): Promise<void> {
  const columns: ColumnSpec<ProductPlaceUpdate>[] = [
    { name: 'region', type: 'text' },
    { name: 'site', type: 'text' },
  ];
  await inChunks(rows, (chunk) =>
    updateByUnnest(trx, 'products', { keys: [{ name: 'pid', type: 'text' }], columns }, chunk),
  );
}

export type ProductDetails = { pid: string; planner_name: string | null; notes: string | null };

export async function upsertProductDetails(
  trx: Transaction<Database>,
  rows: readonly ProductDetails[],
): Promise<void> {
  await inChunks(rows, (chunk) =>
    sql`insert into product_details (pid, planner_name, notes)
      select * from unnest(${chunk.map((r) => r.pid)}::text[], ${chunk.map((r) => r.planner_name)}::text[],
        ${chunk.map((r) => r.notes)}::text[])
      on conflict (pid) do update set planner_name = excluded.planner_name, notes = excluded.notes`.execute(
      trx,
    ),
  );
}

/** The record columns an import writes: its forecast and override inputs and the plan chain. */
const WRITTEN_FIELDS = ['Ensemble_Fcst_Units', ...EDITABLE_FIELDS, ...PLAN_OUTPUT_FIELDS] as const;
const WRITTEN_COLUMNS = recordColumnSpecs([...WRITTEN_FIELDS]);
export type WrittenColumn = (typeof WRITTEN_COLUMNS)[number]['name'];
export type RecordWrite = { pid: string; week_start: string } & Pick<DemandRecordsTable, WrittenColumn>;

/**
 * The weekly records of new SKUs, set-based: every SKU gets one record per horizon week, and each
 * record's values are one of a few distinct "shapes" (forecast, overrides and the plan chain that
 * follows from them, computed by the caller with the domain's rules). So the statement carries the
 * SKUs, the weeks, the shapes and one small integer per record instead of a row object per record,
 * and PostgreSQL builds the rows with one insert, as a bulk write: the kept tables are rebuilt
 * for these SKUs and weeks once, after it. The S&OP overrides it writes are audited in the same
 * statement.
 */
export type NewWeeks = {
  pids: readonly string[];
  weeks: readonly string[];
  /**
   * Distinct record values; `shapeOf[i * weeks.length + w]` is the index of SKU i's week w, or -1
   * for no record (a quarter the file gives the SKU no value for).
   */
  shapes: ReadonlyArray<Omit<RecordWrite, 'pid' | 'week_start'>>;
  shapeOf: readonly number[];
};

export async function insertNewSkuWeeks(
  trx: Transaction<Database>,
  batch: NewWeeks,
  change: { at: Date; by: string },
  audit: { clientId: string; source: string; importId: number },
): Promise<void> {
  if (batch.pids.length === 0) return;
  const columns = WRITTEN_COLUMNS;
  const shapeArrays = sql.join(
    columns.map((c) => sql`${batch.shapes.map((shape) => shape[c.name])}::${sql.raw(c.type)}[]`),
  );
  const shapeNames = sql.join(columns.map((c) => sql.ref(c.name)));
  const selected = sql.join(columns.map((c) => sql`s.${sql.ref(c.name)}`));
  // An int4 array without nulls is indexed in constant time; the literal is built once, not by
  // the driver's per-element conversion. A week of shape -1 joins no shape: it gets no record.
  const shapeOf = `{${batch.shapeOf.join(',')}}`;
  const rowsOf = sql`
      from unnest(${[...batch.pids]}::text[]) with ordinality as p(pid, n)
      cross join unnest(${[...batch.weeks]}::date[]) with ordinality as w(week_start, k)
      join unnest(${shapeArrays}) with ordinality as s(${shapeNames}, shape)
        on s.shape = (${shapeOf}::int4[])[(p.n - 1) * ${batch.weeks.length} + w.k] + 1`;
  // One insert for the whole batch, the kept tables rebuilt for its SKUs and weeks after it.
  await bulkWrite(trx, async () => {
    await sql`
      with inserted as (
        insert into demand_records (pid, week_start, ${shapeNames}, last_updated_at, last_updated_by)
        select p.pid, w.week_start, ${selected}, ${change.at}::timestamptz, ${change.by}
        ${rowsOf}
        returning pid, week_start, sop_pln_ovrd_units)
      insert into audit_log (client_id, pid, week_start, field, old_value, new_value, changed_by, source, import_id)
      select ${audit.clientId}, i.pid, i.week_start, 'SOP_Pln_Ovrd_Units', null, i.sop_pln_ovrd_units::text,
        ${change.by}, ${audit.source}, ${audit.importId}::int4
      from inserted i where i.sop_pln_ovrd_units is not null`.execute(trx);
    const weeks = [...batch.weeks].sort();
    return { pids: batch.pids, weeks: { first: weeks[0]!, last: weeks[weeks.length - 1]! } };
  });
}

export async function updateRecords(
  trx: Transaction<Database>,
  rows: readonly RecordWrite[],
  change: { at: Date; by: string },
): Promise<void> {
  await inChunks(rows, (chunk) =>
    updateByUnnest(
      trx,
      'demand_records',
      {
        keys: RECORD_KEY_COLUMNS,
        columns: WRITTEN_COLUMNS,
        also: {
          last_updated_at: sql`${change.at}`,
          last_updated_by: sql`${change.by}`,
          version: sql`t.version + 1`,
        },
      },
      chunk,
    ),
  );
}

export type AuditWrite = {
  client_id: string;
  pid: string;
  week_start: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  source: string;
  import_id: number;
};

export async function insertAudit(trx: Transaction<Database>, rows: readonly AuditWrite[]): Promise<void> {
  const columns: ColumnSpec<AuditWrite>[] = [...AUDIT_LOG_COLUMNS, { name: 'import_id', type: 'int4' }];
  await inChunks(rows, (chunk) => insertByUnnest(trx, 'audit_log', columns, chunk));
}

export type ProductAuditWrite = Omit<AuditWrite, 'week_start'>;

export async function insertProductAudit(
  trx: Transaction<Database>,
  rows: readonly ProductAuditWrite[],
): Promise<void> {
  const columns: ColumnSpec<ProductAuditWrite>[] = [
    { name: 'client_id', type: 'text' },
    { name: 'pid', type: 'text' },
    { name: 'field', type: 'text' },
    { name: 'old_value', type: 'text' },
    { name: 'new_value', type: 'text' },
    { name: 'changed_by', type: 'text' },
    { name: 'source', type: 'text' },
    { name: 'import_id', type: 'int4' },
  ];
  await inChunks(rows, (chunk) => insertByUnnest(trx, 'product_audit_log', columns, chunk));
}
