import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import {
  OVERRIDDEN_RECORDS,
  PRODUCT_TOTALS,
  WEEK_TOTALS,
  columnsOf,
  keptTable,
  rowsParts,
  type GroupedTable,
  type KeptTable,
} from './registry';

/**
 * The set-based writers' way to keep the read model: `bulkWrite(trx, write)`.
 *
 * `write` writes demand_records in as many statements as it likes while the records' kept-table
 * triggers stand aside (the session switch `planning.bulk_write`, which each of those triggers
 * checks in its WHEN clause, migration 0057: no trigger function runs, no pairing of old and new
 * rows). It returns the keys it wrote; bulkWrite then brings every kept table up to date for those
 * keys by rebuilding them from the records, one set-based statement per table, in the writer's
 * transaction. A history load of millions of rows costs one grouped pass per table, not one
 * trigger run per statement; a write of a few products rebuilds just their slices.
 *
 * Concurrent writers: bulkWrite takes the locks the triggers take, in the order the triggers take
 * them (week-total rows in key order), and first locks the products of the slices it rebuilds FOR
 * UPDATE, which holds back any other transaction's new records in those slices (an insert locks
 * its product's key) until this one commits. Rebuilt rows are read
 * after the locks are held, so they include every write committed before; a trigger of a writer
 * that comes later waits for them and adds its differences on top.
 */

/** What a bulk write wrote. */
export type BulkKeys = {
  /** Every product whose records the write inserted, updated or deleted. */
  readonly pids: readonly string[];
  /** The weeks written, when the write kept to some (each rebuild then reads those weeks only). */
  readonly weeks?: { readonly first: string; readonly last: string } | undefined;
  /**
   * The record columns the write set, when it only updated (or, with `inserts`, the columns it
   * gave the records it inserted, every other one left null): only the kept tables that read one
   * of them are rebuilt. Leave out for a write that deleted records, or inserted and updated.
   */
  readonly columns?: readonly string[] | undefined;
  /**
   * The write only inserted records, with only `columns` given: every kept table that counts the
   * records is rebuilt, but not one that holds only records with a note, an override or an actual
   * (the registry's `recordsWith`) when the inserted records have none of them.
   */
  readonly inserts?: boolean | undefined;
  /**
   * When the write only inserted and updated records: the name of a table (the writer's temporary
   * one) holding every record it wrote, with columns pid, week_start, was_present (false for a
   * record it inserted) and had_data (the record's has_data before the write, read with the row
   * locked; false for one it inserted). The product totals then take the differences of these
   * product-weeks instead of recounting every week of each product, and the accuracy sums are
   * recounted for the lags these weeks reach.
   */
  readonly written?: string | undefined;
  /**
   * The writer has noted the products' sort extremes itself (refreshed, or marked stale with the
   * bounds of what it moved): the unbounded marks of a write whose changes are unknown are skipped.
   */
  readonly isExtremesNoted?: boolean | undefined;
};

type Trx = Transaction<Database>;

/** The switch the records' kept-table triggers check (migration 0057). */
const SWITCH = 'planning.bulk_write';

/**
 * Runs `write` with the records' kept-table triggers standing aside, then rebuilds every kept
 * table for the keys it returns. Must run inside the writer's transaction.
 */
export async function bulkWrite(trx: Trx, write: () => Promise<BulkKeys>): Promise<void> {
  // Local to the transaction: a write that fails rolls back with the switch.
  await sql`select set_config(${SWITCH}, 'on', true)`.execute(trx);
  const keys = await write();
  await sql`select set_config(${SWITCH}, 'off', true)`.execute(trx);
  await applyBulkWrite(trx, keys);
}

/** Whether the write can change `table`'s rows (any write can when its columns are not known). */
function touches(keys: BulkKeys, table: KeptTable): boolean {
  if (keys.columns === undefined) return true;
  const sets = (columns: readonly string[]) => keys.columns!.some((c) => columns.includes(c));
  if (keys.inserts) return table.recordsWith === undefined || sets(table.recordsWith);
  return sets(table.reads);
}

/**
 * Brings every kept table up to date for `keys` after records were written with the triggers
 * standing aside (bulkWrite calls it; exported for a writer whose write is a single statement it
 * runs itself between the switch's on and off).
 */
export async function applyBulkWrite(trx: Trx, keys: BulkKeys): Promise<void> {
  const pids = [...new Set(keys.pids)].sort();
  if (pids.length === 0) return;
  const k = keyFilters(pids, keys.weeks);
  // The products of the rebuilt slices, locked first (an insert's key share waits behind it).
  await sql`select 1 from products p where (${sql.raw(SLICE_OF('p'))}) in (${k.slices})
    order by p.pid for update of p`.execute(trx);
  // In the order the records' triggers run (their names sort so): accuracy, the overridden
  // records, the extremes, the week totals with the product totals.
  if (touches(keys, keptTable('accuracy_sums')) && keys.written !== undefined) {
    // Only the lags the written weeks reach (migration 0088), not every snapshot of each product.
    await sql`select refresh_accuracy_weeks(array_agg(x.pid), array_agg(x.week_start))
      from ${sql.table(keys.written)} x having count(*) > 0`.execute(trx);
  } else if (touches(keys, keptTable('accuracy_sums'))) {
    await sql`select refresh_accuracy(${pids}::text[])`.execute(trx);
  }
  if (touches(keys, OVERRIDDEN_RECORDS)) {
    await replaceRows(trx, OVERRIDDEN_RECORDS, {
      kept: sql`t.pid in (${k.products}) and ${k.weeksOf('t')}`,
      source: sql`r.pid in (${k.products}) and ${k.weeksOf('r')}`,
    });
  }
  if (!keys.isExtremesNoted && touches(keys, keptTable('demand_product_extremes'))) {
    // Refreshed now when few, else marked stale (unbounded) for the refresher, as the trigger does.
    await sql`select note_product_extremes(${pids}::text[])`.execute(trx);
  }
  if (touches(keys, WEEK_TOTALS)) {
    await replaceRows(trx, WEEK_TOTALS, {
      kept: sql`(${sql.raw(SLICE_OF('t'))}) in (${k.slices}) and ${k.weeksOf('t')}`,
      source: sql`(${sql.raw(SLICE_OF('p'))}) in (${k.slices}) and ${k.weeksOf('r')}`,
    });
  }
  if (touches(keys, PRODUCT_TOTALS) && keys.written !== undefined) {
    await addProductTotalsDifferences(trx, keys.written);
  } else if (touches(keys, PRODUCT_TOTALS)) {
    await replaceRows(trx, PRODUCT_TOTALS, {
      kept: sql`t.pid in (${k.products})`,
      source: sql`r.pid in (${k.products})`,
    });
  }
}

const SLICE_OF = (alias: string) =>
  ['client_id', 'bu', 'pf', 'region'].map((c) => `${alias}.${c}`).join(', ');

/** The key set as SQL: the products (hashed, not `= any`), their slices, the week range. */
function keyFilters(pids: readonly string[], weeks: BulkKeys['weeks']) {
  const products = sql`select unnest(${pids}::text[])`;
  return {
    products,
    slices: sql`select distinct client_id, bu, pf, region from products where pid in (${products})`,
    weeksOf: (alias: string): RawBuilder<boolean> =>
      weeks
        ? sql<boolean>`${sql.ref(`${alias}.week_start`)} between ${weeks.first}::date and ${weeks.last}::date`
        : sql<boolean>`true`,
  };
}

/**
 * Makes the rows of `table` within `kept` equal to its rows rebuilt from the source within
 * `source`: the kept rows are locked in key order (as the triggers' upserts lock them), the
 * rebuilt rows are computed once after that, rows that changed are updated, new ones inserted
 * and rows whose key has no source rows left deleted. Unchanged rows are not written, so the
 * triggers on the table (the slice totals, the slice product counts) see only real changes.
 */
async function replaceRows(
  trx: Trx,
  table: GroupedTable,
  where: { kept: RawBuilder<boolean>; source: RawBuilder<boolean> },
): Promise<void> {
  const name = sql.table(table.name);
  const key = table.grain.map((g) => g.column);
  const measures = table.measures.map((m) => m.column);
  const columns = sql.raw(columnsOf(table).join(', '));
  const keyList = sql.raw(key.join(', '));
  const keyOf = (alias: string) => sql.raw(key.map((c) => `${alias}.${c}`).join(', '));
  await sql`select 1 from ${name} t where ${where.kept} order by ${keyOf('t')} for update of t`.execute(trx);
  await sql`drop table if exists read_model_rebuilt`.execute(trx);
  const rows = rowsParts(table);
  await sql`create temp table read_model_rebuilt on commit drop as
    select ${sql.raw(rows.select)} from ${sql.raw(rows.from)}
    where ${sql.raw(rows.where)} and ${where.source}
    group by ${sql.raw(rows.groupBy)}`.execute(trx);
  const set = sql.raw(measures.map((c) => `${c} = excluded.${c}`).join(', '));
  const changed = sql.raw(
    `(${measures.map((c) => `t.${c}`).join(', ')}) is distinct from (${measures.map((c) => `excluded.${c}`).join(', ')})`,
  );
  await sql`insert into ${name} as t (${columns})
    select ${columns} from read_model_rebuilt order by ${keyList}
    on conflict (${keyList}) do update set ${set} where ${changed}`.execute(trx);
  await sql`delete from ${name} t where ${where.kept}
    and not exists (select 1 from read_model_rebuilt n where (${keyOf('n')}) = (${keyOf('t')}))`.execute(trx);
  await sql`drop table read_model_rebuilt`.execute(trx);
}

/** The product totals' time buckets: the `<unit>_groups` and `<unit>_data_groups` columns. */
const BUCKET_UNITS = ['month', 'quarter', 'year'] as const;
const BUCKET_LENGTH = { month: '1 month', quarter: '3 months', year: '1 year' } as const;

/**
 * Adds to demand_product_totals what the records in `written` changed, equal to a recount of the
 * written products (the rebuild). Record and data counts change by the written records' own
 * differences; a time bucket (month, quarter, year) of a product is counted when it holds any
 * record (any record with data), and only the buckets the written weeks fall in can change: each
 * is probed before and after the write by key lookups (the written records' earlier state, and
 * whether any other record of the product in that bucket exists), never by reading every week.
 */
async function addProductTotalsDifferences(trx: Trx, written: string): Promise<void> {
  const w = sql.table(written);
  // The totals rows locked in key order first, as the records' triggers lock them.
  await sql`select 1 from demand_product_totals t where t.pid in (select distinct pid from ${w})
    order by t.pid for update of t`.execute(trx);
  const buckets = BUCKET_UNITS.map((unit) => {
    const inBucket = `r.pid = g.pid and r.week_start >= g.lo and r.week_start < g.hi`;
    const other = `not exists (select 1 from ${written} o where o.pid = r.pid and o.week_start = r.week_start)`;
    return sql.raw(`
      select g.pid, '${unit}' as unit,
        -- Every written record is there after the write; before, those that were there, and others.
        (g.was_present or exists (select 1 from demand_records r where ${inBucket} and ${other})) as had_any,
        (g.had_data or exists (select 1 from demand_records r where ${inBucket} and r.has_data and ${other}))
          as had_data,
        exists (select 1 from demand_records r where ${inBucket} and r.has_data) as has_data
      from (
        -- Each bucket a written week falls in: its first date and the first date after it.
        select x.pid, date_trunc('${unit}', x.week_start)::date as lo,
          (date_trunc('${unit}', x.week_start) + interval '${BUCKET_LENGTH[unit]}')::date as hi,
          bool_or(x.was_present) as was_present, bool_or(x.had_data) as had_data
        from ${written} x group by 1, 2, 3) g`);
  });
  const groups = (unit: string) =>
    sql.raw(`coalesce(sum(case when b.unit = '${unit}' then 1 - b.had_any::int end), 0) as ${unit}_groups,
      coalesce(sum(case when b.unit = '${unit}' then b.has_data::int - b.had_data::int end), 0) as ${unit}_data_groups`);
  const columns = [
    'record_count',
    'data_count',
    ...BUCKET_UNITS.flatMap((u) => [`${u}_groups`, `${u}_data_groups`]),
  ];
  const set = sql.raw(columns.map((c) => `${c} = t.${c} + excluded.${c}`).join(', '));
  const changed = sql.raw(columns.map((c) => `excluded.${c} <> 0`).join(' or '));
  await sql`
    insert into demand_product_totals as t (pid, ${sql.raw(columns.join(', '))})
    select r.pid, r.record_count, r.data_count, ${sql.join(BUCKET_UNITS.map((u) => sql.raw(`coalesce(b.${u}_groups, 0), coalesce(b.${u}_data_groups, 0)`)))}
    from (
      select x.pid, count(*) filter (where not x.was_present) as record_count,
        count(*) filter (where r.has_data) - count(*) filter (where x.had_data) as data_count
      from ${w} x join demand_records r on r.pid = x.pid and r.week_start = x.week_start
      group by x.pid) r
    left join (
      select b.pid, ${sql.join(BUCKET_UNITS.map(groups))}
      from (${sql.join(buckets, sql` union all `)}) b
      group by b.pid) b on b.pid = r.pid
    order by r.pid
    on conflict (pid) do update set ${set} where ${changed}`.execute(trx);
}
