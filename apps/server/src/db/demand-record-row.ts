import {
  DEMAND_RECORD_FIELDS,
  EDITABLE_FIELDS,
  PLAN_OUTPUT_FIELD_OF,
  derivePlan,
  fieldSpecOf,
  parseTimeSeriesSk,
  timeFieldsOf,
  toIsoDate,
  type ColumnOf,
  type ColumnsIn,
  type DemandRecord,
  type EditableField,
  type PlanOutputField,
  type SqlArrayType,
} from '@ps/domain';
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Database, DemandRecordsTable, ProductsTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The product columns a record carries: the catalogue's, the owner, and the price money is valued at. */
type RecordProductColumn = Extract<ColumnsIn<'products'>, keyof ProductsTable> | 'client_id' | 'unit_price';
const RECORD_PRODUCT_COLUMNS: ReadonlyArray<`p.${RecordProductColumn}`> = [
  ...DEMAND_RECORD_FIELDS.filter((s) => s.table === 'products').map(
    (s) => `p.${s.column as Extract<ColumnsIn<'products'>, keyof ProductsTable>}` as const,
  ),
  'p.client_id',
  'p.unit_price',
];

export type DemandRecordRow = Selectable<DemandRecordsTable> &
  Pick<Selectable<ProductsTable>, RecordProductColumn>;

/** Records joined with their products, before anything of them is selected. */
export function recordsFrom(db: Db) {
  return db.selectFrom('demand_records as r').innerJoin('products as p', 'p.pid', 'r.pid');
}

/** A query over records r joined to their products p (recordsFrom), filters and order included. */
export type RecordsQuery = ReturnType<typeof recordsFrom>;

/** Records joined with their product's attributes: the flat shape the API returns. */
export function selectRecords(db: Db) {
  return withRecordColumns(recordsFrom(db));
}

/** Every column a DemandRecordRow holds, of a query over records and products. */
export function withRecordColumns(query: RecordsQuery) {
  return query.selectAll('r').select(RECORD_PRODUCT_COLUMNS);
}

/** The stored columns a record write changes or derives from: editable fields, plan chain inputs and outputs. */
type WrittenColumn =
  (typeof EDITABLE_COLUMNS)[EditableField] | RecordColumn<PlanOutputField> | 'ensemble_fcst_units';

/**
 * What a write needs of a record (prepareWrite): its key and owner, the columns it may change, the
 * plan chain's inputs, the actual money it checks, and its product's prices.
 */
export type WritableRecordRow = Pick<
  DemandRecordRow,
  | 'pid'
  | 'week_start'
  | 'client_id'
  | 'unit_cost'
  | 'unit_price'
  | 'act_bkg_cost'
  | 'act_rev_dlrs'
  | WrittenColumn
>;

/**
 * Records with what a write needs of them and of their product, and nothing else: 23 columns of
 * the 42 selectRecords reads, since a spread reads thousands of records and the database formats,
 * and Node parses and copies, every column it is given.
 */
export function selectWritableRecords(db: Db) {
  return db
    .selectFrom('demand_records as r')
    .innerJoin('products as p', 'p.pid', 'r.pid')
    .select([
      'r.pid',
      'r.week_start',
      'r.act_bkg_cost',
      'r.act_rev_dlrs',
      ...WRITTEN_COLUMNS.map((c) => `r.${c}` as const),
    ])
    .select(['p.client_id', 'p.unit_cost', 'p.unit_price']);
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/**
 * Compile-time guard: every demand_records column of schema.ts is in the field catalogue (or is
 * the week key or the generated has_data flag), and every catalogued column is in schema.ts.
 */
export type RecordColumnsCatalogued = Assert<
  Same<keyof DemandRecordsTable, ColumnsIn<'demand_records'> | 'week_start' | 'has_data'>
>;
/** Every product column the catalogue names exists in schema.ts. */
export type ProductColumnsCatalogued = Assert<
  ColumnsIn<'products'> extends keyof ProductsTable ? true : false
>;

type RecordColumn<F extends keyof DemandRecord> = Extract<ColumnOf<F>, keyof DemandRecordsTable>;

/** The stored column of a demand_records field. */
function columnOf<F extends keyof DemandRecord>(field: F): RecordColumn<F> {
  const spec = fieldSpecOf(field);
  if (spec?.table !== 'demand_records') throw new Error(`${field} is not a demand_records column`);
  return spec.column as RecordColumn<F>;
}

/** Column specs (name and SQL array type) of demand_records fields, for the unnest writers. */
export function recordColumnSpecs<F extends keyof DemandRecord>(
  fields: readonly F[],
): Array<{ name: RecordColumn<F>; type: SqlArrayType }> {
  return fields.map((field) => ({ name: columnOf(field), type: fieldSpecOf(field)!.sqlType! }));
}

/** The key of a demand record as unnest writers match or insert it. */
export const RECORD_KEY_COLUMNS: Array<{ name: 'pid' | 'week_start'; type: SqlArrayType }> = [
  { name: 'pid', type: 'text' },
  { name: 'week_start', type: 'date' },
];

/** API field → column, for the fields a planner edits. */
export const EDITABLE_COLUMNS = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, columnOf(f)])) as {
  [F in EditableField]: RecordColumn<F>;
};

/** The plan chain's stored columns, every one present (null when the chain leaves it empty). */
export type PlanColumns = { [F in PlanOutputField as RecordColumn<F>]: number | null };

/** The fields read from a stored column (the week fields are computed from week_start instead). */
const STORED_FIELDS = DEMAND_RECORD_FIELDS.filter((spec) => spec.table !== 'week');

/** yyyymmdd → yyyy-mm-dd; callers validate the key first. */
export function weekStartOf(timeSeriesSk: string): string {
  const date = parseTimeSeriesSk(timeSeriesSk);
  if (!date) throw new Error(`Unvalidated Time_Series_sk ${timeSeriesSk}`);
  return toIsoDate(date);
}

/**
 * The week fields of each week seen, computed once: every page maps thousands of records over a
 * few hundred weeks, and formatting the same dates again dominated the mapping. Bounded, since
 * weeks are few; derived from the key alone, so no process needs another's copy.
 */
const weekFieldsCache = new Map<string, ReturnType<typeof timeFieldsOf>>();
function weekFieldsOf(weekStart: string): ReturnType<typeof timeFieldsOf> {
  let fields = weekFieldsCache.get(weekStart);
  if (!fields) {
    fields = timeFieldsOf(new Date(`${weekStart}T00:00:00Z`));
    if (weekFieldsCache.size < 10_000) weekFieldsCache.set(weekStart, fields);
  }
  return fields;
}

export function toDemandRecord(row: DemandRecordRow): DemandRecord {
  const record: Record<string, unknown> = {};
  for (const spec of STORED_FIELDS) record[spec.field] = row[spec.column as keyof DemandRecordRow];
  Object.assign(record, weekFieldsOf(row.week_start));
  record.last_updated_at = row.last_updated_at ? new Date(row.last_updated_at).toISOString() : null;
  return record as DemandRecord;
}

/**
 * A stored field's value as JSON text in SQL: strings (and the change time, in toDemandRecord's ISO
 * form to the millisecond) escaped by to_json, numbers in their own text form, and what JSON has
 * no number for (a float's NaN or infinities, a numeric's NaN) as null, as JSON.stringify writes it.
 */
function jsonValue(spec: (typeof STORED_FIELDS)[number]): RawBuilder<string> {
  const column = sql.ref(`${spec.table === 'products' ? 'p' : 'r'}.${spec.column}`);
  switch (spec.sqlType) {
    case 'timestamptz':
      return sql`to_json(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;
    case 'float8':
      return sql`case when ${column} > '-Infinity'::float8 and ${column} < 'Infinity'::float8 then ${column}::text end`;
    case 'numeric':
      return sql`case when ${column} <> 'NaN'::numeric then ${column}::text end`;
    case 'int4':
      return sql`${column}::text`;
    case 'text':
    case null:
      return sql`to_json(${column})::text`;
  }
}

/**
 * Each record's stored fields as one JSON object under their API names, written by PostgreSQL,
 * with its key: a long page of records then costs the single-threaded server a string per record
 * instead of parsing some forty columns, shaping an object and serializing it again. Concatenated
 * rather than row_to_json, which builds a row and looks up each column's JSON category for every
 * record, several times the work. The week fields follow from the key (recordJsonOf).
 */
export function withRecordJson(query: RecordsQuery) {
  const members = STORED_FIELDS.map(
    (spec, i) =>
      sql`${sql.lit(`${i === 0 ? '{' : ','}${JSON.stringify(spec.field)}:`)} || coalesce(${jsonValue(spec)}, 'null')`,
  );
  return query.select([
    'r.pid',
    'r.week_start',
    sql<string>`${sql.join(members, sql` || `)} || '}'`.as('json'),
  ]);
}

/** The week fields of each week seen as JSON members, written once per week like weekFieldsOf. */
const weekJsonCache = new Map<string, string>();

/** A record's JSON (withRecordJson) with its week fields: the text JSON.stringify(toDemandRecord(row)) parses back to. */
export function recordJsonOf(row: { week_start: string; json: string }): string {
  let week = weekJsonCache.get(row.week_start);
  if (week === undefined) {
    week = JSON.stringify(weekFieldsOf(row.week_start)).slice(1, -1);
    if (weekJsonCache.size < 10_000) weekJsonCache.set(row.week_start, week);
  }
  return `${row.json.slice(0, -1)},${week}}`;
}

type PlanSource = Pick<
  DemandRecordsTable,
  | 'ensemble_fcst_units'
  | 'rev_pln_ovrd_percent'
  | 'rev_pln_ovrd_units'
  | 'sop_pln_ovrd_percent'
  | 'sop_pln_ovrd_units'
>;

/** Each plan chain output with its stored column, looked up once: a spread maps thousands of records. */
const PLAN_OUTPUT_COLUMNS = (
  Object.keys(PLAN_OUTPUT_FIELD_OF) as Array<keyof typeof PLAN_OUTPUT_FIELD_OF>
).map((output) => [output, columnOf(PLAN_OUTPUT_FIELD_OF[output])] as const);

const WRITTEN_COLUMNS: WrittenColumn[] = [
  ...Object.values(EDITABLE_COLUMNS),
  ...PLAN_OUTPUT_COLUMNS.map(([, column]) => column),
  'ensemble_fcst_units',
];

/** The stored plan columns that follow from a record's forecast and overrides (the plan chain). */
export function planColumns(
  source: PlanSource,
  product: { unit_cost: number; unit_price: number },
): PlanColumns {
  const plan = derivePlan({
    ensembleUnits: source.ensemble_fcst_units,
    revOverridePercent: source.rev_pln_ovrd_percent,
    revOverrideUnits: source.rev_pln_ovrd_units,
    sopOverridePercent: source.sop_pln_ovrd_percent,
    sopOverrideUnits: source.sop_pln_ovrd_units,
    unitCost: product.unit_cost,
    unitPrice: product.unit_price,
  });
  const columns: Record<string, number | null> = {};
  for (const [output, column] of PLAN_OUTPUT_COLUMNS) columns[column] = plan[output];
  return columns as PlanColumns;
}
