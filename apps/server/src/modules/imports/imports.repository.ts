import { EDITABLE_FIELDS, PLAN_OUTPUT_FIELDS, type ClientId } from '@ps/domain';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { AUDIT_LOG_COLUMNS } from '../../db/audit-log';
import { bulkLoaderOf, updateByUnnest, type BulkLoader, type ColumnSpec } from '../../db/bulk';
import {
  RECORD_KEY_COLUMNS,
  recordColumnSpecs,
  selectRecords,
  type DemandRecordRow,
} from '../../db/demand-record-row';
import type { Database, DemandRecordsTable } from '../../db/schema';
import { JOB_LOCK_CLASS, jobLockFree, ORPHAN_GRACE } from '../../db/job-locks';
import { insertNewProductsRecords } from './new-sku-read-model.repository';

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
 * lock nobody holds, and undoes the slices they committed, in one transaction that keeps their
 * locks (so no other process undoes them too). The few seconds' grace covers the moment between
 * an import's row and its first lock.
 */
export async function failOrphanedImports(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable('imports')
      .set({ status: 'failed', error: INTERRUPTED_IMPORT, finished_at: new Date() })
      .where('status', '=', 'running')
      .where('imported_at', '<', ORPHAN_GRACE)
      .where(jobLockFree(JOB_LOCK_CLASS.import))
      .returning('id')
      .execute();
    for (const { id } of failed) await undoImport(trx, id);
    return failed.length;
  });
}

/** The embedded database has one process: every running import but its own was interrupted. */
export async function failImportsExcept(db: Kysely<Database>, own: readonly number[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable('imports')
      .set({ status: 'failed', error: INTERRUPTED_IMPORT, finished_at: new Date() })
      .where('status', '=', 'running')
      .$if(own.length > 0, (q) => q.where('id', 'not in', [...own]))
      .returning('id')
      .execute();
    for (const { id } of failed) await undoImport(trx, id);
    return failed.length;
  });
}

/** The records a slice is about to update, noted as they are (the first note of a record wins). */
export async function noteUndoRecords(
  trx: Transaction<Database>,
  importId: number,
  keys: ReadonlyArray<{ pid: string; week_start: string }>,
): Promise<void> {
  await inChunks(keys, (chunk) =>
    sql`insert into import_undo_records (import_id, pid, week_start, previous)
      select ${importId}::int8, r.pid, r.week_start, to_jsonb(r)
      from unnest(${chunk.map((k) => k.pid)}::text[], ${chunk.map((k) => k.week_start)}::date[]) k(pid, week_start)
      join demand_records r on r.pid = k.pid and r.week_start = k.week_start
      on conflict do nothing`.execute(trx),
  );
}

export type ProductUndo = Omit<Selectable<Database['import_undo_products']>, 'import_id'>;

/** A product's audit row when an import creates it: also how undoing the import finds it. */
export const PRODUCT_CREATED = { field: 'product', value: 'created' } as const;

/** Products whose place or details a slice changes, with their values before. */
export async function noteUndoProducts(
  trx: Transaction<Database>,
  importId: number,
  rows: readonly ProductUndo[],
): Promise<void> {
  await inChunks(rows, (chunk) =>
    sql`insert into import_undo_products (import_id, pid, region, site, planner_name, notes)
      select ${importId}::int8, * from unnest(${chunk.map((r) => r.pid)}::text[],
        ${chunk.map((r) => r.region)}::text[],
        ${chunk.map((r) => r.site)}::text[], ${chunk.map((r) => r.planner_name)}::text[],
        ${chunk.map((r) => r.notes)}::text[])
      on conflict do nothing`.execute(trx),
  );
}

/** The import succeeded: what would undo it is no longer needed. */
export async function forgetUndo(trx: Transaction<Database>, importId: number): Promise<void> {
  await trx.deleteFrom('import_undo_records').where('import_id', '=', importId).execute();
  await trx.deleteFrom('import_undo_products').where('import_id', '=', importId).execute();
}

/** The record columns an undo puts back: what the import wrote, and the record's stamps. */
const RESTORED_COLUMNS = () => [
  ...WRITTEN_COLUMNS.map((c) => c.name),
  'version',
  'last_updated_at',
  'last_updated_by',
];

/**
 * Undoes every slice an import committed, by the notes of migration 0077: the records it updated
 * get their earlier values back, the products it created go (with their records; found by their 'created' audit rows), the products it
 * moved or whose details it changed get theirs back, and its audit rows go. A record someone saved
 * after the import wrote it (its version moved on further than the import's writes) keeps that
 * save, which was made on top of the import's values and is audited as such. The records' own
 * triggers keep the read model, as for any save.
 */
export async function undoImport(trx: Transaction<Database>, importId: number): Promise<void> {
  const columns = RESTORED_COLUMNS();
  const list = sql.raw(columns.join(', '));
  const fromPrevious = sql.raw(columns.map((c) => `b.${c}`).join(', '));
  await sql`
    with writes as (
      select a.pid, a.week_start, count(*)::int4 as n from audit_log a
      where a.import_id = ${importId}::int8 and a.field = 'SOP_Pln_Ovrd_Units'
      group by a.pid, a.week_start),
    previous as (
      select b.*, w.n from import_undo_records u
      join writes w on w.pid = u.pid and w.week_start = u.week_start
      cross join lateral jsonb_populate_record(null::demand_records, u.previous) b
      where u.import_id = ${importId}::int8)
    update demand_records r set (${list}) = (select ${fromPrevious} from previous b
      where b.pid = r.pid and b.week_start = r.week_start)
    from previous p
    where r.pid = p.pid and r.week_start = p.week_start and r.version = p.version + p.n`.execute(trx);
  await sql`
    delete from products p using product_audit_log a
    where a.import_id = ${importId}::int8 and a.field = ${PRODUCT_CREATED.field} and a.old_value is null
      and a.new_value = ${PRODUCT_CREATED.value} and p.pid = a.pid`.execute(trx);
  await sql`
    update products p set region = u.region, site = u.site
    from import_undo_products u
    where u.import_id = ${importId}::int8 and p.pid = u.pid
      and (p.region, p.site) is distinct from (u.region, u.site)`.execute(trx);
  // A product without planner or notes has no details row (a row of nulls reads the same).
  await sql`
    delete from product_details d using import_undo_products u
    where u.import_id = ${importId}::int8 and d.pid = u.pid
      and u.planner_name is null and u.notes is null`.execute(trx);
  await sql`
    insert into product_details (pid, planner_name, notes)
    select u.pid, u.planner_name, u.notes from import_undo_products u
    where u.import_id = ${importId}::int8
      and (u.planner_name is not null or u.notes is not null)
    on conflict (pid) do update set planner_name = excluded.planner_name, notes = excluded.notes
    where (product_details.planner_name, product_details.notes)
      is distinct from (excluded.planner_name, excluded.notes)`.execute(trx);
  await trx.deleteFrom('audit_log').where('import_id', '=', importId).execute();
  await trx.deleteFrom('product_audit_log').where('import_id', '=', importId).execute();
  await forgetUndo(trx, importId);
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

/**
 * How a slice writes the rows it only inserts (products, their details and audit rows): COPY on
 * PostgreSQL, which parses text rows without planning a statement or unnesting one array per
 * column; an unnest insert on PGlite. Bound to the slice's transaction.
 */
export const sliceLoader = (trx: Transaction<Database>, usesCopy: boolean): BulkLoader =>
  bulkLoaderOf(trx, usesCopy);

export async function insertProducts(loader: BulkLoader, rows: readonly NewProduct[]): Promise<void> {
  await inChunks(rows, (chunk) => loader.load('products', PRODUCT_COLUMNS, chunk));
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

const DETAILS_COLUMNS: ColumnSpec<ProductDetails>[] = [
  { name: 'pid', type: 'text' },
  { name: 'planner_name', type: 'text' },
  { name: 'notes', type: 'text' },
];

/** The details of products created in the same transaction: none has a details row yet. */
export async function insertNewProductDetails(
  loader: BulkLoader,
  rows: readonly ProductDetails[],
): Promise<void> {
  await inChunks(rows, (chunk) => loader.load('product_details', DETAILS_COLUMNS, chunk));
}

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
 * The weekly records of new SKUs, set-based: each record's values are one of a few distinct
 * "shapes" (forecast, overrides and the plan chain that follows from them, computed by the caller
 * with the domain's rules). So the statement carries the SKUs, the weeks, the shapes and three
 * small integers per record (its SKU, week and shape) instead of a row object per record, and
 * PostgreSQL builds the rows with one insert. Only records are sent: a SKU the file gives no
 * quarter value (a catalogue row) costs the statement nothing. The S&OP overrides it writes are
 * audited in the same statement. The records' triggers stand aside (the read model's bulk switch)
 * and the kept tables get what these records add in a few set-based statements
 * (insertNewProductsRecords): the products had no records, so their rows are sums of their records,
 * which a trigger computes as sixty differences per row and a rebuild of the key set (bulkWrite's)
 * would recount with every record of the product groups they join.
 */
export type NewWeeks = {
  /** The SKUs that get records. */
  pids: readonly string[];
  weeks: readonly string[];
  /** Distinct record values. */
  shapes: ReadonlyArray<Omit<RecordWrite, 'pid' | 'week_start'>>;
  /** One entry per record, in SKU then week order: indexes into `pids`, `weeks` and `shapes`. */
  records: {
    readonly sku: readonly number[];
    readonly week: readonly number[];
    readonly shape: readonly number[];
  };
};

/** An int4 array literal, built once instead of by the driver's per-element conversion. */
const intArray = (values: readonly number[]): string => `{${values.join(',')}}`;

export async function insertNewSkuWeeks(
  trx: Transaction<Database>,
  batch: NewWeeks,
  change: { at: Date; by: string },
  audit: { clientId: string; source: string; importId: number },
): Promise<void> {
  if (batch.records.sku.length === 0) return;
  const columns = WRITTEN_COLUMNS;
  const shapeArrays = sql.join(
    columns.map((c) => sql`${batch.shapes.map((shape) => shape[c.name])}::${sql.raw(c.type)}[]`),
  );
  const shapeNames = sql.join(columns.map((c) => sql.ref(c.name)));
  const selected = sql.join(columns.map((c) => sql`s.${sql.ref(c.name)}`));
  // Indexes are 0-based; ordinality counts from 1. SKUs and shapes are joined by hash (indexing a
  // text array walks it), weeks by subscript (a date array is indexed in constant time).
  const rowsOf = sql`
      from unnest(${intArray(batch.records.sku)}::int4[], ${intArray(batch.records.week)}::int4[],
        ${intArray(batch.records.shape)}::int4[]) as x(sku, week, shape)
      join unnest(${[...batch.pids]}::text[]) with ordinality as p(pid, n) on p.n = x.sku + 1
      join unnest(${shapeArrays}) with ordinality as s(${shapeNames}, shape) on s.shape = x.shape + 1`;
  // The columns some inserted record sets: every other one is null in all of them.
  const given = [
    ...columns
      .filter((c) => batch.shapes.some((shape) => (shape[c.name] ?? null) !== null))
      .map((c) => c.name),
    'last_updated_at',
    'last_updated_by',
  ];
  await insertNewProductsRecords(trx, {
    insert: sql`
      insert into demand_records (pid, week_start, ${shapeNames}, last_updated_at, last_updated_by)
      select p.pid, (${[...batch.weeks]}::date[])[x.week + 1], ${selected}, ${change.at}::timestamptz, ${change.by}
      ${rowsOf}
      order by x.sku, x.week
      returning *`,
    alongside: sql`
      insert into audit_log (client_id, pid, week_start, field, old_value, new_value, changed_by, source, import_id)
      select ${audit.clientId}, i.pid, i.week_start, 'SOP_Pln_Ovrd_Units', null, i.sop_pln_ovrd_units::text,
        ${change.by}, ${audit.source}, ${audit.importId}::int4
      from inserted i where i.sop_pln_ovrd_units is not null`,
    pids: batch.pids,
    given,
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

export async function insertAudit(loader: BulkLoader, rows: readonly AuditWrite[]): Promise<void> {
  const columns: ColumnSpec<AuditWrite>[] = [...AUDIT_LOG_COLUMNS, { name: 'import_id', type: 'int4' }];
  await inChunks(rows, (chunk) => loader.load('audit_log', columns, chunk));
}

export type ProductAuditWrite = Omit<AuditWrite, 'week_start'>;

export async function insertProductAudit(
  loader: BulkLoader,
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
  await inChunks(rows, (chunk) => loader.load('product_audit_log', columns, chunk));
}
