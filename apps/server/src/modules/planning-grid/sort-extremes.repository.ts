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
 * extremes are not refreshed yet) is one of them when its kept values widened by the bounds its
 * mark carries reach T; T comes from the others.
 */

/** Stale products refreshed per sorted page: a few milliseconds each. */
const STALE_REFRESHED_PER_PAGE = 16;

/** Published plans move at every publish with the triggers off, so their extremes are not kept. */
const isPublishedPlan = (field: string) => /^P[12]_Pub_/.test(field);

/** Kept summed columns: a stale mark bounds them by their records' rises and falls (migration 0045). */
const SUMMED_COLUMNS = new Set(
  SUMMED_FIELDS.filter((field) => !isPublishedPlan(field)).map((field) => fieldSpecOf(field)?.column),
);

/** Record columns whose per-product extremes are kept (migration 0032: every figure but P1/P2). */
const KEPT_COLUMNS = new Set([
  ...SUMMED_COLUMNS,
  ...[...PERCENT_FIELDS, 'last_updated_at'].map((field) => fieldSpecOf(field)?.column),
]);

/** The drill-down's letter in demand_product_extremes; the original table's records are weeks. */
const DRILL_LETTERS: Record<DrillDown | 'records', string> = {
  records: 'w',
  weekly: 'w',
  monthly: 'm',
  quarterly: 'q',
  yearly: 'y',
  none: 'n',
};

/** A sortCandidates request: the page's filters, sorted figure, direction, drill-down and window. */
export type CandidateQuery = {
  filters: GridFilters;
  field: string;
  dir: SortDirection;
  drillDown: DrillDown | 'records';
  offset: number;
  limit: number;
};

/**
 * Products walked past the K-th, for those that tie with it: a page's bound rarely ties more often.
 * When all of them tie, a second statement reads every product that reaches T.
 */
const TIES_READ_AHEAD = 16;

/** What the walk answers: T as text (exact for timestamps too), null when fewer than K products have a value. */
type Walk = { bound: string | null; pids: string[]; stalePids: string[]; isAnyStale: boolean };

/**
 * The statements of the candidate search, for narrowCandidates and for EXPLAIN; null when the
 * extremes do not keep the figure. `walk` reads the bound's index (migration 0038) in the page's
 * direction, checking the filters and the stale marks of each product it passes, and stops after
 * K products and a few more: its cost follows K and the filters' selectivity, not the number of
 * products. `ties` reads every product whose bound reaches T, when more than those few tie.
 */
export function candidateQueries(q: CandidateQuery) {
  const spec = fieldSpecOf(q.field);
  const column = spec?.table === 'demand_records' ? spec.column : null;
  if (column === null || !KEPT_COLUMNS.has(column)) return null;
  const k = q.offset + q.limit;
  const dir = sql.raw(q.dir);
  const extreme = sql.raw(`x.${column}_${q.dir === 'desc' ? 'hi' : 'lo'}`);
  const reaches = sql.raw(q.dir === 'desc' ? '>=' : '<=');
  // Roll-ups show sums and percents to 2 places (recordFigure), and ties then break by key. Rounding
  // keeps order, so the raw order walks the index and the K-th rounded bound is the K-th raw one
  // rounded; a bound reaches T rounded when it lies within half a cent of T, which the index finds.
  const rounded = q.drillDown !== 'records' && column !== 'last_updated_at';
  // A stale product's mark bounds how far its figures moved since its extremes were kept (migration
  // 0045): a sum by the rises and falls written (from 0 for a group that had none), a percent or
  // the latest update by the values written, beside its weeks' kept extremes. Only a stale product
  // whose bound reaches T is read; a mark without bounds (an import's new products) always is.
  const isSummed = SUMMED_COLUMNS.has(column);
  const boundDrill = isSummed ? DRILL_LETTERS[q.drillDown] : 'w';
  const staleBound = sql.raw(
    isSummed
      ? q.dir === 'desc'
        ? `greatest(b.${column}_hi, 0) + coalesce(s.${column}_up, 0)`
        : `least(b.${column}_lo, 0) + coalesce(s.${column}_down, 0)`
      : q.dir === 'desc'
        ? `greatest(b.${column}_hi, s.${column}_hi)`
        : `least(b.${column}_lo, s.${column}_lo)`,
  );
  // T is rounded for roll-ups: a group reaches it within half a cent.
  const slack = sql.raw(rounded ? (q.dir === 'desc' ? ' - 0.005' : ' + 0.005') : '');
  // The filters as a subquery on each walked product's row: joined, PostgreSQL misjudges how many
  // products they keep (a business unit's name is an expression) and hashes every product first.
  const walked = sql`demand_product_extremes x
    where x.drill = ${DRILL_LETTERS[q.drillDown]}::"char"
      and (select ${productFilter(q.filters)} from products p where p.pid = x.pid)
      and not exists (select from demand_product_extremes_stale s where s.pid = x.pid)`;
  return {
    walk: sql<Walk>`
      with w as materialized (
        select x.pid, ${rounded ? sql`round(${extreme}, 2)` : extreme} as bound
        from ${walked} and ${extreme} is not null
        order by ${extreme} ${dir} limit ${k + TIES_READ_AHEAD}),
      t as (select bound from w order by bound ${dir} offset ${k - 1} limit 1)
      select (select bound::text from t) as bound,
        array(select pid from w where bound ${reaches} (select bound from t)) as pids,
        array(select s.pid from demand_product_extremes_stale s join products p on p.pid = s.pid
          left join demand_product_extremes b on b.drill = ${boundDrill}::"char" and b.pid = s.pid
          where ${productFilter(q.filters)}
            and (not s.bounded or ${staleBound} ${reaches} (select bound from t)${slack})) as "stalePids",
        exists (select from demand_product_extremes_stale) as "isAnyStale"`,
    /** Whether the walk may have stopped before the last product that reaches T. */
    isCutShort: (walk: Walk) => walk.pids.length === k + TIES_READ_AHEAD,
    ties: (bound: string) => {
      const t = sql`${bound}::${sql.raw(column === 'last_updated_at' ? 'timestamptz' : 'numeric')}`;
      const reachesT = !rounded
        ? sql`${extreme} ${reaches} ${t}`
        : q.dir === 'desc'
          ? sql`${extreme} >= ${t} - 0.005 and round(${extreme}, 2) >= ${t}`
          : sql`${extreme} <= ${t} + 0.005 and round(${extreme}, 2) <= ${t}`;
      return sql<{ pid: string }>`select x.pid from ${walked} and ${reachesT}`;
    },
  };
}

/**
 * The PIDs of the products that hold every group of the page, or null when the extremes cannot
 * narrow it: a figure they do not keep, or fewer products with a value than the page reaches
 * (the page then runs into the groups without one, which sort last in key order). `stalePids`:
 * the stale products among them; `isAnyStale`: whether any product (filtered or not) waits for a
 * refresh.
 */
export async function narrowCandidates(
  db: Kysely<Database>,
  q: CandidateQuery,
): Promise<{ pids: string[] | null; stalePids: string[]; isAnyStale: boolean }> {
  const queries = candidateQueries(q);
  if (queries === null) return { pids: null, stalePids: [], isAnyStale: false };
  const walk = (await queries.walk.execute(db)).rows[0]!;
  if (walk.bound === null) return { pids: null, stalePids: [], isAnyStale: walk.isAnyStale };
  const reaching = queries.isCutShort(walk)
    ? (await queries.ties(walk.bound).execute(db)).rows.map((r) => r.pid)
    : walk.pids;
  return { pids: [...reaching, ...walk.stalePids], stalePids: walk.stalePids, isAnyStale: walk.isAnyStale };
}

/**
 * narrowCandidates for a sorted page, which then refreshes the stale products it had to read (at
 * most 16), so that the pages after it bound them by their exact extremes. Without a bound (every
 * product stale, as after a forecast run) it refreshes the first 16 by PID, so that pages help the
 * background refresher drain the set. Small edits leave no product stale.
 */
export async function sortCandidates(db: Kysely<Database>, q: CandidateQuery): Promise<string[] | null> {
  const { pids, stalePids, isAnyStale } = await narrowCandidates(db, q);
  if (stalePids.length > 0)
    await sql`select refresh_stale_product_extremes(${STALE_REFRESHED_PER_PAGE}::int, ${stalePids}::text[])`.execute(
      db,
    );
  else if (pids === null && isAnyStale)
    await sql`select refresh_stale_product_extremes(${STALE_REFRESHED_PER_PAGE}::int)`.execute(db);
  return pids;
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
