import { EDITABLE_FIELDS, PLAN_OUTPUT_FIELDS, type ClientId } from '@ps/domain';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AUDIT_LOG_COLUMNS } from '../../db/audit-log';
import { insertByUnnest, updateByUnnest, type ColumnSpec } from '../../db/bulk';
import {
  RECORD_KEY_COLUMNS,
  recordColumnSpecs,
  selectRecords,
  type DemandRecordRow,
} from '../../db/demand-record-row';
import type { Database, DemandRecordsTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Rows per statement: keeps each array parameter to a few MB however large the import. */
const CHUNK = 20_000;

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
export async function findProducts(
  db: Db,
  skus: readonly string[],
  lock: boolean,
): Promise<ImportedProduct[]> {
  if (skus.length === 0) return [];
  const query = db
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

export async function insertImport(
  trx: Transaction<Database>,
  row: { fileName: string; by: string; rows: number },
): Promise<number> {
  const inserted = await trx
    .insertInto('imports')
    .values({
      file_name: row.fileName,
      imported_by: row.by,
      row_count: row.rows,
      created_count: 0,
      updated_count: 0,
      failed_count: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function recordImportCounts(
  trx: Transaction<Database>,
  id: number,
  counts: { created: number; updated: number; failed: number },
): Promise<void> {
  await trx
    .updateTable('imports')
    .set({ created_count: counts.created, updated_count: counts.updated, failed_count: counts.failed })
    .where('id', '=', id)
    .execute();
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

export async function insertRecords(
  trx: Transaction<Database>,
  rows: readonly RecordWrite[],
  change: { at: Date; by: string },
): Promise<void> {
  type Row = RecordWrite & { last_updated_at: Date; last_updated_by: string };
  const columns: ColumnSpec<Row>[] = [
    ...RECORD_KEY_COLUMNS,
    ...WRITTEN_COLUMNS,
    { name: 'last_updated_at', type: 'timestamptz' },
    { name: 'last_updated_by', type: 'text' },
  ];
  await inChunks(rows, (chunk) =>
    insertByUnnest<Row>(
      trx,
      'demand_records',
      columns,
      chunk.map((row) => ({ ...row, last_updated_at: change.at, last_updated_by: change.by })),
    ),
  );
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
