import {
  isBoundedRange,
  type ClientId,
  type FilterOption,
  type RollupItem,
  type RollupViewLevel,
  type WeekRange,
} from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import { businessUnitName, familyName, groupName, weekFilter, type GridFilters } from './planning-grid.sql';
import type { Database } from '../../db/schema';

type FilterDimension = 'bu' | 'pf' | 'region';

/**
 * Distinct values of each filter with their record counts, from the per-slice counts
 * (demand_slice_product_counts, migration 0036: one row per client, business unit, family and
 * region, a few dozen whatever the number of products or weeks; the week totals it read before
 * hold one row per slice and week, 4,524 on the default data set and 13,728 at 20,000 × 156).
 * Each list is narrowed by the other filters, never by its own selection. One
 * statement and one pass over the rows for the three lists (grouping sets): a row counts in a
 * list when it passes the other two filters, and a value no row counts for is left out, as if
 * each list had its own WHERE (three statements of one list each cost PostgreSQL about 1.5 times
 * as much CPU on the default data set).
 */
export async function filterOptionCounts(
  db: Kysely<Database>,
  filters: GridFilters,
): Promise<Record<FilterDimension, FilterOption[]>> {
  const valueOf = (dimension: FilterDimension) =>
    dimension === 'bu' ? businessUnitName('t') : dimension === 'pf' ? familyName('t') : sql<string>`t.region`;
  const selected = (['bu', 'pf', 'region'] as const).filter((dimension) => filters[dimension]?.length);
  const passes = (dimension: FilterDimension) =>
    selected.includes(dimension) ? sql.ref(`t.passes_${dimension}`) : sql`true`;
  const countFor = (dimension: FilterDimension) => {
    const others = (['bu', 'pf', 'region'] as const).filter((other) => other !== dimension);
    return sql`sum(t.record_count) filter (where ${sql.join(others.map(passes), sql` and `)})`;
  };
  const { rows } = await sql<FilterOption & { dimension: FilterDimension }>`
    select dimension, value, count::int as count from (
      select case when grouping(t.bu) = 0 then 'bu' when grouping(t.pf) = 0 then 'pf' else 'region' end as dimension,
        coalesce(t.bu, t.pf, t.region) as value,
        case when grouping(t.bu) = 0 then ${countFor('bu')} when grouping(t.pf) = 0 then ${countFor('pf')}
          else ${countFor('region')} end as count
      from (
        select ${valueOf('bu')} as bu, ${valueOf('pf')} as pf, t.region, t.record_count
          ${sql.join(
            selected.map(
              (dimension) =>
                sql`, ${valueOf(dimension)} = any(${filters[dimension]}::text[]) as ${sql.id(`passes_${dimension}`)}`,
            ),
            sql``,
          )}
        from demand_slice_product_counts t
        where t.client_id = any(${[...filters.clientIds]}::text[]) and t.record_count > 0) t
      group by grouping sets ((t.bu), (t.pf), (t.region))) o
    where count is not null
    order by value collate "C"`.execute(db);
  const options: Record<FilterDimension, FilterOption[]> = { bu: [], pf: [], region: [] };
  for (const { dimension, value, count } of rows) options[dimension].push({ value, count });
  return options;
}

/** Products, families or business units in scope, with their product and record counts (records of the view's weeks). */
export async function rollupItems(
  db: Kysely<Database>,
  q: {
    viewLevel: RollupViewLevel;
    clientIds: readonly ClientId[];
    weeks: WeekRange;
    offset: number;
    limit: number;
  },
): Promise<RollupItem[]> {
  const prefix = q.viewLevel === 'sku' ? 'pid' : q.viewLevel === 'category' ? 'pf' : 'bu';
  const common = (column: string) =>
    sql.raw(`case when min(${column}) = max(${column}) then min(${column}) end`);
  const { rows } = await sql<RollupItem>`
    with items as (
      select p.pid, ${groupName(q.viewLevel, 'p')} as name, ${businessUnitName('p')} as bu,
        ${familyName('p')} as pf, ${
          isBoundedRange(q.weeks)
            ? sql`(select count(*) from demand_records r
                where r.pid = p.pid${weekFilter(q, 'r.week_start')})`
            : sql`coalesce(t.record_count, 0)`
        } as records
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
