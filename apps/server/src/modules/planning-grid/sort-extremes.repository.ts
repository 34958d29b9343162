import { PERCENT_FIELDS, SUMMED_FIELDS, fieldSpecOf, type DrillDown, type SortDirection } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { productFilter, type GridFilters } from './planning-grid.sql';

/**
 * The products that can hold a figure-sorted page, from their kept extremes (migration 0032).
 * Each product has a group at its largest value, so the K = offset + limit products with the
 * largest maxima give K groups at or above the K-th of those maxima, T: the page's groups all
 * reach T, and only products whose maximum reaches T can hold one (the smallest minima, ascending).
 * The page is then sorted from those products' records alone: for a descending sort some hundred
 * products instead of all of them. A stale product (written by a statement that wrote many, whose
 * extremes are not refreshed yet) is one of them whatever its kept values; T comes from the others.
 */

/** Stale products refreshed per sorted page: a few milliseconds each. */
const STALE_REFRESHED_PER_PAGE = 16;

/** Published plans move at every publish with the triggers off, so their extremes are not kept. */
const isPublishedPlan = (field: string) => /^P[12]_Pub_/.test(field);

/** Record columns whose per-product extremes are kept (migration 0032: every figure but P1/P2). */
const KEPT_COLUMNS = new Set(
  [...SUMMED_FIELDS.filter((field) => !isPublishedPlan(field)), ...PERCENT_FIELDS, 'last_updated_at'].map(
    (field) => fieldSpecOf(field)?.column,
  ),
);

/** The drill-down's letter in demand_product_extremes; the original table's records are weeks. */
const DRILL_LETTERS: Record<DrillDown | 'records', string> = {
  records: 'w',
  weekly: 'w',
  monthly: 'm',
  quarterly: 'q',
  yearly: 'y',
  none: 'n',
};

/**
 * The PIDs of the products that hold every group of the page, or null when the extremes cannot
 * narrow it: a figure they do not keep, or fewer products with a value than the page reaches
 * (the page then runs into the groups without one, which sort last in key order).
 */
export async function sortCandidates(
  db: Kysely<Database>,
  q: {
    filters: GridFilters;
    field: string;
    dir: SortDirection;
    drillDown: DrillDown | 'records';
    offset: number;
    limit: number;
  },
): Promise<string[] | null> {
  const spec = fieldSpecOf(q.field);
  const column = spec?.table === 'demand_records' ? spec.column : null;
  if (column === null || !KEPT_COLUMNS.has(column)) return null;
  const extreme = sql.raw(`x.${column}_${q.dir === 'desc' ? 'hi' : 'lo'}`);
  // Roll-ups show sums and percents to 2 places (recordFigure), and ties then break by key: the
  // bound is rounded alike (rounding keeps order, so the rounded maximum is the maximum rounded).
  const rounded = q.drillDown !== 'records' && column !== 'last_updated_at';
  const bound = rounded ? sql`round(${extreme}, 2)` : extreme;
  const reaches = q.dir === 'desc' ? sql`>=` : sql`<=`;
  const { rows } = await sql<{ pids: string[] | null; stale: boolean }>`
    with b as (
      select x.pid, ${bound} as bound
      from demand_product_extremes x join products p on p.pid = x.pid
      where x.drill = ${DRILL_LETTERS[q.drillDown]}::"char" and ${productFilter(q.filters)}
        and not exists (select from demand_product_extremes_stale s where s.pid = x.pid)),
    t as (
      select bound from b where bound is not null
      order by bound ${sql.raw(q.dir)} offset ${q.offset + q.limit - 1} limit 1)
    select case when exists (select from t) then array(
        select pid from b where bound ${reaches} (select bound from t)
        union all
        select s.pid from demand_product_extremes_stale s join products p on p.pid = s.pid
        where ${productFilter(q.filters)}) end as pids,
      exists (select from demand_product_extremes_stale) as stale`.execute(db);
  // A few stale products (a spread or an import wrote many at once) are refreshed per sorted page
  // while any are left, for the pages after this one; none are left after small edits.
  if (rows[0]?.stale)
    await sql`select refresh_stale_product_extremes(${STALE_REFRESHED_PER_PAGE}::int)`.execute(db);
  return rows[0]?.pids ?? null;
}

/**
 * Refreshes up to `max` stale products (those a big write marked, skipping any a writer holds) and
 * answers how many it refreshed; 0 when none are stale, found by one cheap probe first.
 */
export async function refreshStaleExtremes(db: Kysely<Database>, max: number): Promise<number> {
  const { rows } = await sql<{ refreshed: number }>`
    select case when exists (select from demand_product_extremes_stale)
      then refresh_stale_product_extremes(${max}::int) else 0 end as refreshed`.execute(db);
  return rows[0]?.refreshed ?? 0;
}
