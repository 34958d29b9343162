import { EDITABLE_FIELDS, PLAN_OUTPUT_FIELDS, type ClientId } from '@ps/domain';
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { AUDIT_LOG_COLUMNS } from '../../db/audit-log';
import { insertByUnnest, updateByUnnestReturning, type ColumnSpec } from '../../db/bulk';
import {
  RECORD_KEY_COLUMNS,
  recordColumnSpecs,
  recordsFrom,
  selectRecords,
  withRecordJson,
  type DemandRecordRow,
} from '../../db/demand-record-row';
import type { AuditLogTable, Database, DemandRecordsTable, ProductsTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export type DemandRecordFilters = {
  clientIds: readonly ClientId[];
  bu?: string[] | undefined;
  pf?: string[] | undefined;
  region?: string[] | undefined;
  site?: string[] | undefined;
  class?: string[] | undefined;
  pid?: string[] | undefined;
  /** Inclusive week range as yyyy-mm-dd. */
  fromWeek?: string | undefined;
  toWeek?: string | undefined;
  search?: string | undefined;
};

export type RecordCursor = { pid: string; weekStart: string };

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A record of a list page: its key and the record as JSON (withRecordJson). */
export type RecordJsonRow = { pid: string; week_start: string; json: string };

/**
 * One page in key order (PID, week), each record as PostgreSQL serializes it (withRecordJson).
 * Keyset pagination: the cursor is the last key returned, so a page never repeats or skips rows
 * when others insert meanwhile, and deep pages cost as much as the first (the primary key index
 * serves the order).
 */
export async function listDemandRecords(
  db: Db,
  options: { filters: DemandRecordFilters; after?: RecordCursor | undefined; limit: number },
): Promise<RecordJsonRow[]> {
  const { filters, after, limit } = options;
  const search = filters.search ? `%${escapeLike(filters.search)}%` : undefined;
  const page = recordsFrom(db)
    .where('p.client_id', 'in', [...filters.clientIds])
    .$if(!!filters.bu?.length, (q) => q.where('p.bu', 'in', filters.bu!))
    .$if(!!filters.pf?.length, (q) => q.where('p.pf', 'in', filters.pf!))
    .$if(!!filters.region?.length, (q) => q.where('p.region', 'in', filters.region!))
    .$if(!!filters.site?.length, (q) => q.where('p.site', 'in', filters.site!))
    .$if(!!filters.class?.length, (q) => q.where('p.class', 'in', filters.class!))
    .$if(!!filters.pid?.length, (q) => q.where('r.pid', 'in', filters.pid!))
    .$if(!!filters.fromWeek, (q) => q.where('r.week_start', '>=', filters.fromWeek!))
    .$if(!!filters.toWeek, (q) => q.where('r.week_start', '<=', filters.toWeek!))
    .$if(!!search, (q) =>
      q.where((eb) =>
        eb.or(
          (['p.pid', 'p.bu', 'p.pf', 'p.class', 'p.region', 'p.site'] as const).map((column) =>
            eb(column, 'ilike', search!),
          ),
        ),
      ),
    )
    .$if(!!after, (q) =>
      q.where(sql<boolean>`(r.pid, r.week_start) > (${after!.pid}, ${after!.weekStart}::date)`),
    )
    .orderBy('r.pid')
    .orderBy('r.week_start')
    .limit(limit);
  return withRecordJson(page).execute();
}

export async function findDemandRecord(
  db: Db,
  key: { pid: string; weekStart: string },
  options: { clientIds: readonly ClientId[]; forUpdate?: boolean },
): Promise<DemandRecordRow | undefined> {
  return selectRecords(db)
    .where('r.pid', '=', key.pid)
    .where('r.week_start', '=', key.weekStart)
    .where('p.client_id', 'in', [...options.clientIds])
    .$if(!!options.forUpdate, (q) => q.forUpdate('r'))
    .executeTakeFirst();
}

/**
 * Locks and reads several records at once, in key order so that concurrent batches cannot
 * deadlock. The keys travel as two arrays joined through `unnest`: one primary-key probe per key
 * whatever the batch size. An IN-list of row constructors was planned as a scan whose estimated
 * cost crossed PostgreSQL's JIT thresholds from about 4,000 keys, and then never finished.
 */
export async function findDemandRecordsForUpdate(
  trx: Transaction<Database>,
  keys: Array<{ pid: string; weekStart: string }>,
  clientIds: readonly ClientId[],
): Promise<DemandRecordRow[]> {
  if (keys.length === 0) return [];
  const wanted = sql<{
    pid: string;
    week_start: string;
  }>`unnest(${keys.map((k) => k.pid)}::text[], ${keys.map((k) => k.weekStart)}::date[])`;
  return selectRecords(trx)
    .innerJoin(wanted.as<'k'>(sql`k(pid, week_start)`), (join) =>
      join.onRef('k.pid', '=', 'r.pid').onRef('k.week_start', '=', 'r.week_start'),
    )
    .where('p.client_id', 'in', [...clientIds])
    .orderBy('r.pid')
    .orderBy('r.week_start')
    .forUpdate('r')
    .execute();
}

/** The columns a batch save writes: the editable fields and the plan chain that follows from them. */
export const BATCH_COLUMNS = recordColumnSpecs([...EDITABLE_FIELDS, ...PLAN_OUTPUT_FIELDS]);
export type BatchValues = { [C in (typeof BATCH_COLUMNS)[number]['name']]: DemandRecordsTable[C] };

/**
 * Writes many records in one statement (each column travels as one array): one round trip and
 * one run of the roll-up triggers for the whole batch instead of one per record. Answers each
 * written record's new version: every other column holds what the caller sent (the input is
 * checked against the column types and the plan chain is rounded as stored), so returning whole
 * rows only made 5,000-record batches parse them a second time.
 */
export async function updateDemandRecordsBulk(
  trx: Transaction<Database>,
  rows: Array<{ pid: string; weekStart: string; values: BatchValues }>,
  change: { at: Date; by: string },
): Promise<Array<{ pid: string; week_start: string; version: number }>> {
  return updateByUnnestReturning(
    trx,
    'demand_records',
    {
      keys: RECORD_KEY_COLUMNS,
      columns: BATCH_COLUMNS,
      also: {
        last_updated_at: sql`${change.at}`,
        last_updated_by: sql`${change.by}`,
        version: sql`t.version + 1`,
      },
    },
    rows.map((r) => ({ pid: r.pid, week_start: r.weekStart, ...r.values })),
    sql`t.pid, t.week_start, t.version`,
  );
}

/** Whether the key exists at all, whoever owns it (creating it again must fail either way). */
export async function demandRecordExists(db: Db, key: { pid: string; weekStart: string }): Promise<boolean> {
  const row = await db
    .selectFrom('demand_records')
    .select('pid')
    .where('pid', '=', key.pid)
    .where('week_start', '=', key.weekStart)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertDemandRecord(
  trx: Transaction<Database>,
  values: Insertable<DemandRecordsTable>,
): Promise<void> {
  await trx.insertInto('demand_records').values(values).execute();
}

export async function deleteDemandRecord(
  trx: Transaction<Database>,
  key: { pid: string; weekStart: string },
): Promise<void> {
  await trx
    .deleteFrom('demand_records')
    .where('pid', '=', key.pid)
    .where('week_start', '=', key.weekStart)
    .execute();
}

/** The audit columns a record write fills (changed_at takes the transaction's time). */
const AUDIT_COLUMNS: Array<ColumnSpec<Insertable<AuditLogTable>>> = [
  ...AUDIT_LOG_COLUMNS,
  { name: 'import_id', type: 'int4' },
  { name: 'cause', type: 'text' },
];

/**
 * One statement whatever the count: each column travels as one array, so a 5,000-record batch
 * binds 10 parameters instead of 50,000 that the driver and the server would each have to parse.
 */
export async function insertAuditRows(
  trx: Transaction<Database>,
  rows: Array<Insertable<AuditLogTable>>,
): Promise<void> {
  await insertByUnnest(trx, 'audit_log', AUDIT_COLUMNS, rows);
}

export async function findProduct(db: Db, pid: string): Promise<Selectable<ProductsTable> | undefined> {
  return db.selectFrom('products').selectAll().where('pid', '=', pid).executeTakeFirst();
}

export async function insertProduct(
  trx: Transaction<Database>,
  product: Omit<ProductsTable, 'created_at'>,
): Promise<void> {
  await trx.insertInto('products').values(product).execute();
}
