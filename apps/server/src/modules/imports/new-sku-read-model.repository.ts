import { PERCENT_FIELDS } from '@ps/domain';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { bulkWrite, EXTREMES_REFRESHED_AT_ONCE, KEPT_TABLES, keptTable } from '../../read-model';
import { columnsOf, rowsParts, type GroupedTable, type Measure } from '../../read-model/registry';
import { recordColumn } from '../../read-model/rules-sql';

/**
 * The read model of records an import inserts for products that had none (its new SKUs), kept by
 * the insert's own statement instead of by the records' triggers.
 *
 * The records' kept-table triggers pair every inserted row with its (absent) old row and compute
 * some sixty differences per row, then recount each product; a slice of an import pays that, and a
 * per-statement cost, for rows whose contribution is simply their sums. bulkWrite's rebuild does
 * not fit either: it recounts every record of the product groups the new products join, which an
 * import keeps growing. So the insert runs with the triggers standing aside (the read model's bulk
 * switch, through bulkWrite with no keys to rebuild), and the same statement gives every kept
 * table what those records add, from the insert's RETURNING and the registry's own definitions:
 * - a table grouped from the records joined to products (the week totals) gets the new records'
 *   groups added to its rows (sums and counts added, latest times kept), in key order as the
 *   trigger locks them;
 * - a table of one row per product or per record (the product totals, the overridden records)
 *   gets the new products' rows: they had no records, so their rows are exactly their records';
 * - the sort extremes are refreshed for a few products, else marked stale with the bounds of what
 *   was inserted, as the trigger does for a large statement;
 * - the tables built from those (slice totals, slice product counts) follow by their own triggers;
 * - a table that holds only records with columns none of these records sets (the accuracy sums
 *   hold records with actuals; the overridden records, records with an override) is untouched.
 * Only the importing transaction can see these products, so nobody else writes their records
 * meanwhile: what the insert returns is every record they have.
 */

/** How each kept table is kept for new products' records (every kept table must be listed). */
const KEEPING: Record<string, 'add groups' | 'own rows' | 'extremes' | 'follows' | 'untouched'> = {
  accuracy_sums: 'untouched',
  accuracy_product_sums: 'untouched',
  exception_sums: 'untouched',
  demand_overridden_records: 'own rows',
  demand_product_extremes: 'extremes',
  demand_week_totals: 'add groups',
  demand_slice_totals: 'follows',
  demand_product_totals: 'own rows',
  demand_slice_product_counts: 'follows',
};

/**
 * How each kept table is kept for inserted records whose only non-null columns are `given`:
 * throws when the registry holds a table this path does not know, or a table it leaves untouched
 * could hold such records. A table that holds only records with one of some columns set (an
 * override, an actual) is untouched when the records set none of them.
 */
export function newRecordsKeeping(given: readonly string[]): Array<{
  table: string;
  how: (typeof KEEPING)[string];
}> {
  return KEPT_TABLES.map((table) => {
    const how = KEEPING[table.name];
    if (how === undefined) throw new Error(`${table.name}: no way to keep it for new products' records`);
    const holdsNone = table.recordsWith?.every((c) => !given.includes(c)) ?? false;
    if (how === 'untouched' && !holdsNone)
      throw new Error(`${table.name} may hold the records an import inserts`);
    return { table: table.name, how: holdsNone ? 'untouched' : how };
  });
}

/** The inserted records (`inserted`, the insert's RETURNING) as the source of `table` reads them. */
function fromInserted(table: GroupedTable): string {
  const parts = rowsParts(table);
  if (!parts.from.startsWith('demand_records r'))
    throw new Error(`${table.name} is not built from the records as \`demand_records r\``);
  return `select ${parts.select} from inserted r${parts.from.slice('demand_records r'.length)}
    where (${parts.where}) group by ${parts.groupBy}`;
}

/** How a measure of an existing row takes the new records' value. */
function added(m: Measure): string {
  switch (m.combine) {
    case 'count':
    case 'count of values':
    case 'sum':
      return `${m.column} = t.${m.column} + excluded.${m.column}`;
    case 'max':
      return `${m.column} = greatest(t.${m.column}, excluded.${m.column})`;
    case 'min':
      return `${m.column} = least(t.${m.column}, excluded.${m.column})`;
    case 'distinct count':
    case 'own':
      throw new Error(`${m.column}: a ${m.combine} cannot be added to`);
  }
}

/**
 * The upsert of `table`'s rows of the inserted records: added to the rows there (the key's other
 * records), or replacing them (rows of the new products' own).
 */
function upsertSql(table: GroupedTable, how: 'add groups' | 'own rows'): string {
  const keyList = table.grain.map((g) => g.column).join(', ');
  const set =
    how === 'add groups'
      ? table.measures.map(added)
      : table.measures.map((m) => `${m.column} = excluded.${m.column}`);
  return `insert into ${table.name} as t (${columnsOf(table).join(', ')})
    ${fromInserted(table)}
    order by ${keyList}
    on conflict (${keyList}) do update set ${set.join(', ')}`;
}

const PERCENTS = PERCENT_FIELDS.map(recordColumn);

/** A stale mark per new product, bounded by its inserted values, as the trigger marks many. */
function staleMarksSql(reads: readonly string[]): string {
  const bounds = reads.flatMap((c) =>
    PERCENTS.includes(c) || c === 'last_updated_at'
      ? [
          { column: `${c}_hi`, value: `max(r.${c})`, merge: 'greatest' },
          { column: `${c}_lo`, value: `min(r.${c})`, merge: 'least' },
        ]
      : [
          { column: `${c}_up`, value: `sum(r.${c}::numeric) filter (where r.${c} > 0)`, merge: 'add' },
          { column: `${c}_down`, value: `sum(r.${c}::numeric) filter (where r.${c} < 0)`, merge: 'add' },
        ],
  );
  const merged = bounds.map((b) =>
    b.merge === 'add'
      ? `${b.column} = nullif(coalesce(s.${b.column}, 0) + coalesce(excluded.${b.column}, 0), 0)`
      : `${b.column} = ${b.merge}(s.${b.column}, excluded.${b.column})`,
  );
  return `insert into demand_product_extremes_stale as s (pid, mark, bounded, ${bounds.map((b) => b.column).join(', ')})
    select r.pid, txid_current(), true, ${bounds.map((b) => b.value).join(', ')}
    from inserted r group by r.pid order by r.pid
    on conflict (pid) do update set mark = excluded.mark, bounded = s.bounded and excluded.bounded,
      ${merged.join(', ')}`;
}

/**
 * Inserts new products' records with the records' kept-table triggers aside (bulkWrite, no key to
 * rebuild) and keeps the read model in the same statement, from the insert's RETURNING: no record
 * is read back. `insert` is the insert into demand_records (`returning *`), `alongside` a further
 * data-modifying statement over `inserted` (the audit rows); `pids` are the products, none of
 * which had records before; `given` the columns some of the records set (not null). The sort
 * extremes of a few products are refreshed after the statement, which they read the records of.
 */
export async function insertNewProductsRecords(
  trx: Transaction<Database>,
  write: {
    insert: RawBuilder<unknown>;
    alongside: RawBuilder<unknown>;
    pids: readonly string[];
    given: readonly string[];
  },
): Promise<void> {
  const keeping = newRecordsKeeping(write.given);
  const refreshExtremes = write.pids.length <= EXTREMES_REFRESHED_AT_ONCE;
  // In the registry's order, which is the order the triggers lock the kept rows in.
  const kept = keeping.flatMap(({ table, how }) => {
    const declared = keptTable(table);
    if (how === 'add groups' || how === 'own rows') return [upsertSql(declared as GroupedTable, how)];
    if (how === 'extremes' && !refreshExtremes) return [staleMarksSql(declared.reads)];
    return [];
  });
  const ctes = kept.map((statement, i) => sql`, kept_${sql.raw(String(i))} as (${sql.raw(statement)})`);
  await bulkWrite(trx, async () => {
    await sql`with inserted as (${write.insert}), alongside as (${write.alongside})${sql.join(ctes, sql``)}
      select 1`.execute(trx);
    return { pids: [] };
  });
  if (refreshExtremes && keeping.some((k) => k.how === 'extremes'))
    await sql`select note_product_extremes(${[...write.pids]}::text[])`.execute(trx);
}
