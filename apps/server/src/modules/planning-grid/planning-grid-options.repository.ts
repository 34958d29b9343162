import type { ClientId, FilterOption, RollupItem, RollupViewLevel } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import {
  attributeFilter,
  businessUnitName,
  familyName,
  groupName,
  type GridFilters,
} from './planning-grid.sql';
import type { Database } from '../../db/schema';

type FilterDimension = 'bu' | 'pf' | 'region';

/**
 * Distinct values of each filter with their record counts, from demand_week_totals (a few
 * thousand rows). Each list is narrowed by the other filters, never by its own selection. One
 * statement for the three lists: under load every query waits its turn for a pool connection.
 */
export async function filterOptionCounts(
  db: Kysely<Database>,
  filters: GridFilters,
): Promise<Record<FilterDimension, FilterOption[]>> {
  const valueOf = (dimension: FilterDimension) =>
    dimension === 'bu' ? businessUnitName('t') : dimension === 'pf' ? familyName('t') : sql<string>`t.region`;
  const counts = (['bu', 'pf', 'region'] as const).map(
    (dimension) => sql`
      select ${dimension}::text as dimension, ${valueOf(dimension)} as value, sum(t.record_count)::int as count
      from demand_week_totals t where ${attributeFilter({ ...filters, [dimension]: undefined }, 't')} group by 2`,
  );
  const { rows } = await sql<FilterOption & { dimension: FilterDimension }>`
    select * from (${sql.join(counts, sql` union all `)}) o
    order by value collate "C"`.execute(db);
  const options: Record<FilterDimension, FilterOption[]> = { bu: [], pf: [], region: [] };
  for (const { dimension, value, count } of rows) options[dimension].push({ value, count });
  return options;
}

/** Products, families or business units in scope, with their product and record counts. */
export async function rollupItems(
  db: Kysely<Database>,
  q: { viewLevel: RollupViewLevel; clientIds: readonly ClientId[]; offset: number; limit: number },
): Promise<RollupItem[]> {
  const prefix = q.viewLevel === 'sku' ? 'pid' : q.viewLevel === 'category' ? 'pf' : 'bu';
  const common = (column: string) =>
    sql.raw(`case when min(${column}) = max(${column}) then min(${column}) end`);
  const { rows } = await sql<RollupItem>`
    with items as (
      select p.pid, ${groupName(q.viewLevel, 'p')} as name, ${businessUnitName('p')} as bu,
        ${familyName('p')} as pf, coalesce(t.record_count, 0) as records
      from products p left join demand_product_totals t on t.pid = p.pid
      where p.client_id = any(${[...q.clientIds]}::text[]))
    select ${`${prefix}:`}::text || name as id, name,
      ${q.viewLevel === 'sku' ? sql`min(pid)` : sql`null`} as sku,
      ${common('bu')} as "businessUnit",
      ${q.viewLevel === 'business_unit' ? sql`null` : common('pf')} as "productFamily",
      count(*)::int as "skuCount", sum(records)::int as "recordCount"
    from items
    group by name
    order by name collate "C"
    limit ${q.limit} offset ${q.offset}`.execute(db);
  return rows;
}
