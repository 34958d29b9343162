import {
  compareText,
  fieldSpecOf,
  isBoundedRange,
  type DrillDown,
  type SortDirection,
  type SummedField,
  type ViewLevel,
} from '@ps/domain';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { selectRecords, type DemandRecordRow } from '../../db/demand-record-row';
import {
  attributeFilter,
  groupName,
  periodKey,
  periodStart,
  productFilter,
  recordAggregates,
  recordFigure,
  totalsAggregates,
  totalsFigure,
  weekFilter,
  type GridFilters,
} from './planning-grid.sql';
import type { Database } from '../../db/schema';
import { withAnnotations, withoutAnnotations } from './planning-grid-annotations.repository';

type Db = Kysely<Database>;

/** One roll-up group as SQL returns it; the service turns it into an AggregatedRow. */
export type GroupRow = {
  g: string;
  k: string;
  hasData: boolean;
  recordCount: number;
  Rev_Pln_Ovrd_Percent: number | null;
  SOP_Pln_Ovrd_Percent: number | null;
  Rank: number | null;
  last_updated_at: Date | string | null;
  firstPF: string;
  firstBU: string;
  commonBU: string | null;
  /**
   * The group's distinct comments and reason codes, each in grid order (PID, then week), and how
   * many of its records carry a comment (non-blank); null on a page's rows, whose notes are read
   * for the cells on screen (cellNotes).
   */
  comments: string[] | null;
  codes: string[] | null;
  commentCount: number | null;
} & Record<SummedField, number | null>;

export type GroupPage = { rows: GroupRow[]; total: number };

/** A column the planner sorted by (spec §4), already checked to be sortable at the view. */
export type GridSort = { field: string; dir: SortDirection };

export type GroupQuery = {
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  filters: GridFilters;
  sort?: GridSort;
};

/**
 * The order of roll-up groups: by the sorted column (nulls last), then by name and period so that
 * equal values keep one order and paging never repeats or skips a group; unsorted, the grid's
 * default (groups with data first). A sort by the level's own group key or the period orders by
 * them; any other field by the group row's column of that name (see groupSortOf).
 */
function groupOrderOf(
  sort: GridSort | undefined,
  alias: string,
  /** The period column when it is not the key k, and whether it holds a week's date (weekly keys sort as their dates do). */
  periodColumn: { name: string; date: boolean } = { name: 'k', date: false },
): RawBuilder<unknown> {
  const at = (name: string) => sql.raw(alias ? `${alias}."${name}"` : `"${name}"`);
  const period = periodColumn.date ? at(periodColumn.name) : sql`${at(periodColumn.name)} collate "C"`;
  const tie = sql`${at('g')} collate "C", ${period}`;
  if (!sort) return sql`${at('hasData')} desc, ${tie}`;
  const key =
    sort.field === 'periodLabel'
      ? period
      : ['PID', 'PF', 'BU'].includes(sort.field)
        ? sql`${at('g')} collate "C"`
        : GROUP_NAME_COLUMNS.includes(sort.field)
          ? sql`${at(sort.field)} collate "C"`
          : at(sort.field);
  return sql`${key} ${sql.raw(sort.dir)} nulls last, ${tie}`;
}

/** Group row columns that name a family or business unit the level does not group by. */
const GROUP_NAME_COLUMNS = ['firstPF', 'firstBU', 'commonBU'];

/**
 * A roll-up's sort with PF and BU named as the group row holds them where the level does not
 * group by them: a product's family and business unit, and a family's business unit when all its
 * products share one (none otherwise, so it sorts last).
 */
function groupSortOf(viewLevel: ViewLevel, sort: GridSort): GridSort {
  const byProduct = viewLevel === 'sku' || viewLevel === 'none';
  if (sort.field === 'PF' && byProduct) return { ...sort, field: 'firstPF' };
  if (sort.field === 'BU' && viewLevel !== 'business_unit')
    return { ...sort, field: byProduct ? 'firstBU' : 'commonBU' };
  return sort;
}

/** A page of groups in grid order (notes aside); past the last page, only their count. */
async function groupPage(
  db: Db,
  q: GroupQuery & { offset: number },
  groups: RawBuilder<unknown>,
  countGroups: RawBuilder<unknown>,
): Promise<GroupPage> {
  const { rows } = await withoutAnnotations(groups, groupOrderOf(q.sort, 'pg')).execute(db);
  const page = rows as Array<GroupRow & { total: number }>;
  if (page.length > 0 || q.offset === 0) return { rows: page, total: page[0]?.total ?? 0 };
  const count = await sql<{ total: number }>`${countGroups}`.execute(db);
  return { rows: [], total: count.rows[0]?.total ?? 0 };
}

/**
 * The totals rows a business-unit or family roll-up adds up, each with its group name g and period
 * k: per slice and period (demand_slice_totals, migration 0034) above the week, per slice and week
 * (demand_week_totals) at a weekly drill-down or over some weeks only (a period's sums cannot be
 * cut at the view's first or last week). Both carry the same columns.
 */
export function totalsRows(q: Pick<GroupQuery, 'viewLevel' | 'drillDown' | 'filters'>): RawBuilder<unknown> {
  const g = groupName(q.viewLevel, 't');
  return q.drillDown === 'weekly' || isBoundedRange(q.filters.weeks)
    ? sql`select t.*, ${g} as g, ${periodKey(q.drillDown, sql`t.week_start`)} as k
      from demand_week_totals t where ${attributeFilter(q.filters, 't')}${weekFilter(q.filters, 't.week_start')}`
    : sql`select t.*, ${g} as g, t.period as k
      from demand_slice_totals t where t.drill_down = ${q.drillDown} and ${attributeFilter(q.filters, 't')}`;
}

/**
 * Business-unit and family roll-ups from the trigger-kept totals: a few hundred or thousand partial
 * sums instead of the records themselves. Only the filter bar's attributes can narrow them (no text
 * search). A group's place needs only its name, period and data flag (or, sorted, the one sorted
 * figure), so at a weekly or monthly drill-down the page's groups are chosen first and only their
 * partial sums are added up: summing some hundred aggregates for every group (all the families
 * by week) to keep a page of them was most of a page's database time. Filtered by business unit,
 * family or region, a page
 * sums its groups in one pass too: the planner cannot tell how many totals rows a filter on a
 * group name keeps (a business unit's 832 of 4,524 weekly rows estimated at 17), and with a page
 * estimated at one group it joined the page back to the totals by scanning them once per group,
 * several times slower than one pass.
 */
export async function pageGroupsFromTotals(
  db: Db,
  query: GroupQuery & { offset: number; limit: number },
): Promise<GroupPage> {
  const q = query.sort ? { ...query, sort: groupSortOf(query.viewLevel, query.sort) } : query;
  const keyed = totalsRows(q);
  // What orders the groups: the data flag, the sorted figure alone, or nothing for a group key.
  const figure = q.sort ? totalsFigure(q.sort.field) : sql`sum(t.data_count) > 0 as "hasData"`;
  const filtered = Boolean(q.filters.bu?.length || q.filters.pf?.length || q.filters.region?.length);
  // Weekly rows are grouped by their week (kd) and only the page's keys are formatted (periodStart).
  const weekly = q.drillDown === 'weekly';
  const period = sql.raw(weekly ? 'week_start' : 'k');
  const keyOf = (alias: string) =>
    weekly ? periodKey('weekly', sql.raw(`${alias}.kd`)) : sql.raw(`${alias}.kd`);
  const order = groupOrderOf(q.sort, '', { name: 'kd', date: weekly });
  const groups =
    filtered || (q.drillDown !== 'weekly' && q.drillDown !== 'monthly')
      ? // A few hundred groups at most (1,144 slice-quarters at 20,000 × 156), all summed in one
        // hashed pass: choosing the page first and reading its rows again gained nothing here.
        sql`select ${keyOf('groups')} as k, groups.* from (
          select g, ${period} as kd, count(*) over ()::int as total, ${totalsAggregates()}
          from (${keyed}) t
          group by g, kd) groups
        order by ${order}
        limit ${q.limit} offset ${q.offset}`
      : sql`with page as materialized (
      select * from (
        select g, ${period} as kd, count(*) over ()::int as total${figure ? sql`, ${figure}` : sql``}
        from (${keyed}) t
        group by g, kd) groups
      order by ${order}
      limit ${q.limit} offset ${q.offset})
    select ${keyOf('page')} as k, page.g, page.kd, page.total, ${totalsAggregates()}
    from page join (${keyed}) t on t.g = page.g and t.${period} = page.kd
    group by page.g, page.kd, page.total`;
  return groupPage(db, q, groups, sql`select count(distinct (g, k))::int as total from (${keyed}) t`);
}

/**
 * Any roll-up straight from the records of the products the filters select (a text search, say).
 * Sorted, the page's groups are chosen on the sorted figure alone and only they are summed whole:
 * some fifty aggregates over every group of every record was most of a sorted page's time. At
 * product levels, given the candidates (sort-extremes.repository.ts), only their groups are sorted.
 * Below a drill-down, the page's groups are summed from their own records only, not from every
 * period of their products: at 100,000 × 156 a month page sorted by Final_Pln_Units drew its 100
 * months from 20 products (7 at 20,000), and summing all 740 of their months to keep 100 grew the
 * page 1.6×.
 */
export async function pageGroupsFromRecords(
  db: Db,
  query: GroupQuery & { offset: number; limit: number; candidates?: string[] | null },
): Promise<GroupPage> {
  const q = query.sort ? { ...query, sort: groupSortOf(query.viewLevel, query.sort) } : query;
  const g = groupName(q.viewLevel, 'p');
  const k = periodKey(q.drillDown, sql`r.week_start`);
  const figure = q.sort ? recordFigure(q.sort.field) : null;
  const weeks = weekFilter(q.filters, 'r.week_start');
  // Among candidate products only, the groups are counted from the per-slice (or, searched,
  // per-product) counts.
  const total = q.candidates
    ? sql`(select g_total::int from (${groupTotals(q)}) n)`
    : sql`count(*) over ()::int`;
  const groups = q.sort
    ? sql`with keys as materialized (
          select * from (
            select ${g} as g, ${k} as k, ${total} as total${figure ? sql`, ${figure}` : sql``}
            from demand_records r join products p on p.pid = r.pid
            where ${productFilter(q.filters)}${weeks}${candidatesOnly(q.candidates)}
            group by 1, 2) groups
          order by ${groupOrderOf(q.sort, '')}
          limit ${q.limit} offset ${q.offset})
        select s.*, keys.total from keys join (
          select ${g} as g, ${k} as k, ${recordAggregates()}
          from demand_records r join products p on p.pid = r.pid
          where ${productFilter(q.filters)}${weeks}
            and ${
              q.viewLevel === 'sku' || q.viewLevel === 'none'
                ? sql`r.pid = any(array(select distinct g from keys)) and p.pid = any(array(select distinct g from keys))`
                : sql`${g} = any(array(select distinct g from keys))`
            }
            ${q.drillDown === 'none' ? sql`` : sql`and (${g}, ${k}) in (select keys.g, keys.k from keys)`}
          group by 1, 2) s on s.g = keys.g and s.k = keys.k`
    : sql`select * from (
          select ${g} as g, ${k} as k, count(*) over ()::int as total, ${recordAggregates()}
          from demand_records r join products p on p.pid = r.pid
          where ${productFilter(q.filters)}${weeks}
          group by 1, 2) groups
        order by ${groupOrderOf(q.sort, '')}
        limit ${q.limit} offset ${q.offset}`;
  return groupPage(
    db,
    q,
    groups,
    sql`
    select count(distinct (${g}, ${k}))::int as total
    from demand_records r join products p on p.pid = r.pid where ${productFilter(q.filters)}${weeks}`,
  );
}

/**
 * One group's row at one period (key '' without a drill-down), summed as the view's page sums it:
 * family and business-unit rows from the totals unless searched, other rows from their records.
 * A saved aggregate edit answers with it, inside its transaction, so the figures are those it wrote.
 */
export async function groupRowOf(
  db: Db,
  q: GroupQuery & { group: string; periodKey: string },
): Promise<GroupRow | null> {
  const isSliceLevel = q.viewLevel === 'category' || q.viewLevel === 'business_unit';
  // Without a drill-down every row of the group is under the cell, whatever period key it carries.
  const inPeriod = (k: RawBuilder<unknown>) =>
    q.drillDown === 'none' ? sql`` : sql` and ${k} = ${q.periodKey}`;
  let groups: RawBuilder<unknown>;
  if (isSliceLevel && !q.filters.search) {
    groups = sql`select t.g, min(t.k) as k, ${totalsAggregates()}
      from (${totalsRows(q)}) t where t.g = ${q.group}${inPeriod(sql`t.k`)}
      group by t.g`;
  } else {
    const g = groupName(q.viewLevel, 'p');
    const k = periodKey(q.drillDown, sql`r.week_start`);
    groups = sql`select ${g} as g, min(${k}) as k, ${recordAggregates()}
      from demand_records r join products p on p.pid = r.pid
      where ${productFilter(q.filters)}${weekFilter(q.filters, 'r.week_start')}
        and ${g} = ${q.group}${inPeriod(k)}
      group by 1`;
  }
  const { rows } = await withAnnotations(q, groups, null).execute(db);
  return (rows[0] as GroupRow | undefined) ?? null;
}

/** How many groups (and groups with data) each product contributes at a drill-down. */
export function productGroupCounts(drillDown: DrillDown | 'records'): {
  groups: RawBuilder<number>;
  data: RawBuilder<number>;
} {
  switch (drillDown) {
    case 'none':
      return { groups: sql`1`, data: sql`(t.data_count > 0)::int` };
    case 'records':
    case 'weekly':
      return { groups: sql`t.record_count`, data: sql`t.data_count` };
    case 'monthly':
      return { groups: sql`t.month_groups`, data: sql`t.month_data_groups` };
    case 'quarterly':
      return { groups: sql`t.quarter_groups`, data: sql`t.quarter_data_groups` };
    case 'yearly':
      return { groups: sql`t.year_groups`, data: sql`t.year_data_groups` };
  }
}

/** The columns of demand_slice_product_counts that sum a drill-down's groups (and those with data). */
const SLICE_GROUP_COLUMNS: Record<DrillDown | 'records', [string, string]> = {
  none: ['products', 'data_products'],
  records: ['record_count', 'data_count'],
  weekly: ['record_count', 'data_count'],
  monthly: ['month_groups', 'month_data_groups'],
  quarterly: ['quarter_groups', 'quarter_data_groups'],
  yearly: ['year_groups', 'year_data_groups'],
};

/**
 * How many groups the filtered products hold at a drill-down (g_total), and how many of them have
 * data (d_total): from the per-slice counts (migration 0036), a few dozen rows whatever the number
 * of products; a text search, which they cannot apply, counts the products it finds.
 */
export function groupTotals(q: {
  drillDown: DrillDown | 'records';
  filters: GridFilters;
}): RawBuilder<{ g_total: number; d_total: number }> {
  if (q.filters.search) {
    const counts = productGroupCounts(q.drillDown);
    return sql`select coalesce(sum(${counts.groups}), 0)::bigint as g_total,
        coalesce(sum(${counts.data}), 0)::bigint as d_total
      from products p join demand_product_totals t on t.pid = p.pid where ${productFilter(q.filters)}`;
  }
  const [groups, data] = SLICE_GROUP_COLUMNS[q.drillDown].map((c) => sql.raw(`s.${c}`));
  return sql`select coalesce(sum(${groups}), 0)::bigint as g_total, coalesce(sum(${data}), 0)::bigint as d_total
    from demand_slice_product_counts s where ${attributeFilter(q.filters, 's')}`;
}

/** Products read by a walk's first batch; each next batch is twice the last, up to the largest. */
const FIRST_BATCH = 32;
const LARGEST_BATCH = 4096;

/**
 * The filtered products with a positive `count` (an expression over their demand_product_totals
 * row t) that hold positions [start, end) when they are laid out one after another in PID order
 * (descending if asked), each with how many positions come before it. The products are walked in
 * batches through their totals rows in PID order (migration 0130), each batch twice the last, and
 * the walk stops at the batch that holds the page's end: the cost follows the page's end (and the
 * filters' selectivity), not the number of products. Batches rather than one product per step:
 * each step of a recursive query descends the index again, so one product per step costs the most.
 * `withData`: only products with data can count (the run of groups with data), walked through
 * the index of those alone. The walk went through every product (products_pid_c, migration 0036),
 * so products without records, or without data, lying before the page's products in PID order
 * were each read and passed over: after an import of 99,300 catalogue SKUs named before the
 * others (no records, or a forecast without revenue), every first page of a product-level view
 * read all of them.
 * The PIDs keep the column's own collation: compared in "C", records could not be read by their key.
 */
export function walkProducts(q: {
  filters: GridFilters;
  count: RawBuilder<number>;
  dir: SortDirection;
  start: RawBuilder<number>;
  end: RawBuilder<number>;
  withData?: boolean;
}): RawBuilder<{ pid: string; c: number; before: number }> {
  const order = sql`t.pid collate "C" ${sql.raw(q.dir)}`;
  // The partial index's own predicate, so that PostgreSQL may read it.
  const withData = q.withData ? sql` and t.data_count > 0` : sql``;
  const batch = (after: RawBuilder<unknown> | null, size: RawBuilder<number>) => sql`
    select array_agg(x.pid order by x.pid collate "C" ${sql.raw(q.dir)}) as pids,
      array_agg(x.c order by x.pid collate "C" ${sql.raw(q.dir)}) as cs,
      coalesce(sum(x.c), 0)::bigint as s, count(*)::int as n
    from (
      select t.pid, (${q.count})::bigint as c
      from demand_product_totals t join products p on p.pid = t.pid
      where ${after ? sql`t.pid collate "C" ${sql.raw(q.dir === 'asc' ? '>' : '<')} ${after} and ` : sql``}${productFilter(q.filters)}
        and ${q.count} > 0${withData}
      order by ${order}
      limit ${size}) x`;
  const next = sql<number>`least(w.size * 2, ${LARGEST_BATCH}::int)`;
  return sql`with recursive batch(pids, cs, before, s, n, size) as (
      (select f.pids, f.cs, 0::bigint, f.s, f.n, ${FIRST_BATCH}::int
        from (${batch(null, sql<number>`${FIRST_BATCH}::int`)}) f where ${q.end} > 0 and f.n > 0)
      union all
      select f.pids, f.cs, w.before + w.s, f.s, f.n, ${next}
      from batch w cross join lateral (${batch(sql`w.pids[w.n]`, next)}) f
      where w.n = w.size and w.before + w.s < ${q.end} and f.n > 0)
    select pid, c, before from (
      select u.pid, u.c, b.before + sum(u.c) over (partition by b.before order by u.i) - u.c as before
      from batch b cross join lateral unnest(b.pids, b.cs) with ordinality u(pid, c, i)
      where b.before < ${q.end} and b.before + b.s > ${q.start}) x
    where before + c > ${q.start} and before < ${q.end}`;
}

/**
 * A product on a page of a product-level view: which of its groups with data (d_) and without (n_)
 * the page shows (skip, take; null for none), and the view's number of groups.
 */
type PlanRow = {
  pid: string;
  d_skip: number | null;
  d_take: number | null;
  n_skip: number | null;
  n_take: number | null;
  total: number;
};

/** A run of one product's groups on the page: skip `skip` of its groups with (or without) data, take `take`. */
export type ProductSlice = { pid: string; hasData: boolean; skip: number; take: number };

type PageQuery = { drillDown: DrillDown | 'records'; filters: GridFilters; offset: number; limit: number };

/**
 * The products a page of a product-level view overlaps, without grouping the records: the grid's
 * order is every group with data (by PID, then period) and then every group without, so a page
 * lies in the run of groups with data, in the run without (which starts at d_total), or across
 * both. Each run walks the products in PID order from the first and stops at the page's end (deep
 * pages walk further); the totals come from the per-slice counts. A text search lays out the
 * products it finds with running sums instead: a walk would read every product to find a few.
 */
function productPagePlan(q: PageQuery): RawBuilder<PlanRow> {
  const start = q.offset;
  const end = q.offset + q.limit;
  const counts = productGroupCounts(q.drillDown);
  const run = (at: RawBuilder<unknown>, size: RawBuilder<unknown>, prefix: string) =>
    sql.join(
      [
        sql`case when ${size} > 0 and ${at} < ${end} and ${at} + ${size} > ${start}
          then greatest(${start}, ${at}) - ${at} end as ${sql.raw(`${prefix}_skip`)}`,
        sql`case when ${size} > 0 and ${at} < ${end} and ${at} + ${size} > ${start}
          then least(${end}, ${at} + ${size}) - greatest(${start}, ${at}) end as ${sql.raw(`${prefix}_take`)}`,
      ],
      sql`, `,
    );
  if (q.filters.search) {
    return sql<PlanRow>`
      with c as (
        select p.pid, ${counts.groups}::bigint as g, ${counts.data}::bigint as d
        from products p join demand_product_totals t on t.pid = p.pid
        where ${productFilter(q.filters)}),
      w as (
        select pid, g, d,
          coalesce(sum(d) over before, 0) as d_before,
          coalesce(sum(g - d) over before, 0) as n_before,
          sum(d) over () as d_total, sum(g) over () as g_total
        from c window before as (order by pid collate "C" rows between unbounded preceding and 1 preceding))
      select * from (
        select pid, ${run(sql`d_before`, sql`d`, 'd')}, ${run(sql`d_total + n_before`, sql`g - d`, 'n')},
          g_total as total
        from w) x
      where d_take is not null or n_take is not null`;
  }
  const dTotal = sql<number>`(select d_total from tot)`;
  const walk = (count: RawBuilder<number>, base: RawBuilder<number>, withData: boolean) =>
    walkProducts({
      filters: q.filters,
      count,
      dir: 'asc',
      start: sql<number>`(${start} - ${base})`,
      end: sql<number>`(${end} - ${base})`,
      withData,
    });
  return sql<PlanRow>`
    with tot as materialized (${groupTotals(q)}),
    runs as (
      select pid, true as has_data, before, c from (${walk(counts.data, sql<number>`0`, true)}) d
      union all
      select pid, false, before + ${dTotal}, c from (${walk(sql<number>`(${counts.groups} - ${counts.data})`, dTotal, false)}) n)
    select pid,
      max(d_skip) as d_skip, max(d_take) as d_take, max(n_skip) as n_skip, max(n_take) as n_take,
      (select g_total from tot) as total
    from (
      select pid, ${run(sql`before`, sql`case when has_data then c else 0 end`, 'd')},
        ${run(sql`before`, sql`case when has_data then 0 else c end`, 'n')}
      from runs) x
    group by pid`;
}

/** The page's runs of groups, with data first, each part in PID order, from the plan rows of its products. */
function slicesOf(rows: readonly PlanRow[]): ProductSlice[] {
  const plans = new Map<string, PlanRow>();
  for (const row of rows) plans.set(row.pid, row);
  const ordered = [...plans.values()].sort((a, b) => compareText(a.pid, b.pid));
  const withData = ordered.filter((row) => Number(row.d_take) > 0);
  const withoutData = ordered.filter((row) => Number(row.n_take) > 0);
  return [
    ...withData.map((row) => ({
      pid: row.pid,
      hasData: true,
      skip: Number(row.d_skip),
      take: Number(row.d_take),
    })),
    ...withoutData.map((row) => ({
      pid: row.pid,
      hasData: false,
      skip: Number(row.n_skip),
      take: Number(row.n_take),
    })),
  ];
}

/** The number of groups a page past the end (no product planned) still reports. */
async function totalOf(db: Db, q: PageQuery): Promise<number> {
  const { rows } = await sql<{ g_total: string }>`${groupTotals(q)}`.execute(db);
  return Number(rows[0]?.g_total ?? 0);
}

/** A record's lock and last planner override (two sparse tables), read with the record itself. */
export type RecordStampColumns = {
  locked: boolean;
  overridden_by: string | null;
  overridden_at: Date | null;
};

/**
 * Records with their products, locks and last planner overrides: the records view's page and its
 * stamps in one statement, since under load every round trip waits its turn for a connection.
 */
export function selectStampedRecords(db: Db) {
  return selectRecords(db)
    .leftJoin('demand_record_locks as l', (join) =>
      join.onRef('l.pid', '=', 'r.pid').onRef('l.week_start', '=', 'r.week_start'),
    )
    .leftJoin('demand_record_last_override as o', (join) =>
      join.onRef('o.pid', '=', 'r.pid').onRef('o.week_start', '=', 'r.week_start'),
    )
    .select([sql<boolean>`l.pid is not null`.as('locked'), 'o.overridden_by', 'o.overridden_at']);
}

/**
 * Every stamped record of the products of `plan` (a query with a pid column, one row per product;
 * or, by week, one row per record), each carrying its plan row as `plan`'s other columns, in one
 * statement. The plan is
 * materialized and records and products are both read by the planned keys: joined to the plan,
 * PostgreSQL could not tell how few products it holds and scanned every record or every product.
 */
export async function plannedRecords<P>(
  db: Db,
  plan: RawBuilder<P>,
  order: RawBuilder<unknown>,
  /** The plan holds records (pid, week_start), not products. */
  byWeek = false,
): Promise<Array<DemandRecordRow & RecordStampColumns & { has_data: boolean } & P>> {
  const records = selectStampedRecords(db)
    .innerJoin(sql`plan`.as('plan'), (join) =>
      byWeek
        ? join.on(sql`plan.pid`, '=', sql`r.pid`).on(sql`plan.week_start`, '=', sql`r.week_start`)
        : join.on(sql`plan.pid`, '=', sql`r.pid`),
    )
    .selectAll('plan')
    .where(
      sql<boolean>`r.pid = any(array(select pid from plan)) and p.pid = any(array(select pid from plan))${
        byWeek ? sql` and r.week_start = any(array(select week_start from plan))` : sql``
      }`,
    )
    .orderBy(order);
  const { rows } = await sql<DemandRecordRow & RecordStampColumns & { has_data: boolean } & P>`
    with plan as materialized (${plan}) ${records}`.execute(db);
  return rows;
}

/**
 * A page of the records view in one statement: every record of the products the page overlaps
 * (see productPagePlan), in key order, each carrying its product's plan row.
 */
export async function pageProductRecords(
  db: Db,
  q: Omit<PageQuery, 'drillDown'>,
): Promise<{
  total: number;
  slices: ProductSlice[];
  records: Array<DemandRecordRow & RecordStampColumns & { has_data: boolean }>;
}> {
  const plan = { ...q, drillDown: 'records' as const };
  const records = await plannedRecords(db, productPagePlan(plan), sql`r.pid, r.week_start`);
  const total = records[0] ? Number(records[0].total) : await totalOf(db, plan);
  return { total, slices: slicesOf(records), records };
}

/**
 * Every roll-up group of the products in the statement's `plan` (a CTE with a pid column), summed
 * from their records: the product-level pages read only the products their plan picked (records
 * and products both by the planned keys, or PostgreSQL hashes every product to join a few).
 * Pages materialize it before joining it to the plan: a plan estimated at one row let PostgreSQL
 * aggregate the groups again for each planned product.
 */
export function plannedProductGroups(q: { viewLevel: ViewLevel; drillDown: DrillDown }): RawBuilder<unknown> {
  return sql`select ${periodKey(q.drillDown, sql`s.kd`)} as k, s.* from (
    select ${groupName(q.viewLevel, 'p')} as g, ${periodStart(q.drillDown, sql`r.week_start`)} as kd,
      ${recordAggregates()}
    from demand_records r join products p on p.pid = r.pid
    where r.pid = any(array(select pid from plan)) and p.pid = any(array(select pid from plan))
    group by 1, 2) s`;
}

/**
 * A page of a product-level roll-up in one statement: the plan and every group of the products it
 * overlaps (in no particular order). Each group row carries its product's
 * plan row, from which the page's slices follow.
 */
export async function pageProductGroups(
  db: Db,
  q: GroupQuery & { offset: number; limit: number },
): Promise<{ total: number; slices: ProductSlice[]; groups: GroupRow[] }> {
  const { rows } = await withoutAnnotations(
    sql`with plan as materialized (${productPagePlan(q)}),
      s as materialized (${plannedProductGroups(q)})
      select s.*, plan.pid, plan.d_skip, plan.d_take, plan.n_skip, plan.n_take, plan.total
      from plan join s on s.g = plan.pid`,
    null,
  ).execute(db);
  const groups = rows as Array<GroupRow & PlanRow>;
  const total = groups[0] ? Number(groups[0].total) : await totalOf(db, q);
  return { total, slices: slicesOf(groups), groups };
}

/** The SQL expression a record field sorts by: its column, or the week for the week's fields. */
function recordSortKey(field: string): RawBuilder<unknown> {
  const spec = fieldSpecOf(field);
  if (!spec || spec.table === 'week' || spec.column === null) return sql`r.week_start`;
  const alias = spec.table === 'products' ? 'p' : 'r';
  const column = sql.raw(`${alias}.${spec.column}`);
  return spec.sqlType === 'text' ? sql`${column} collate "C"` : column;
}

/**
 * A page of the original table sorted by a column (nulls last), then by PID and week, the record's
 * key, so that paging is stable however many records share a value; unsorted (over some weeks
 * only, where the per-product counts that lay out the unsorted pages do not apply), records with
 * data first, by PID and week, as the grid orders them. The order is found on the
 * key and the sorted value alone (a top-N sort of narrow rows); only the page's records are then
 * read whole. Counting and ordering every record whole with its product, lock and last override
 * cost over ten times more on a large data set. Given the
 * candidates (sort-extremes.repository.ts), only their records are sorted. The count comes from
 * the per-product totals.
 */
export async function pageSortedRecords(
  db: Db,
  q: {
    filters: GridFilters;
    sort: GridSort | undefined;
    offset: number;
    limit: number;
    candidates?: string[] | null;
  },
): Promise<{ total: number; records: Array<DemandRecordRow & RecordStampColumns> }> {
  const key = q.sort ? recordSortKey(q.sort.field) : sql`r.has_data`;
  const dir = sql.raw(q.sort?.dir ?? 'desc');
  const rows = await selectStampedRecords(db)
    .innerJoin(
      sql<{ pid: string; week_start: string; sort_key: unknown }>`(
        select r.pid, r.week_start, ${key} as sort_key
        from demand_records r join products p on p.pid = r.pid
        where ${productFilter(q.filters)}${weekFilter(q.filters, 'r.week_start')}${candidatesOnly(q.candidates)}
        order by ${key} ${dir} nulls last, r.pid collate "C", r.week_start
        limit ${q.limit} offset ${q.offset})`.as('s'),
      (join) => join.onRef('s.pid', '=', 'r.pid').onRef('s.week_start', '=', 'r.week_start'),
    )
    .select(sql<number>`(${recordTotal(q.filters)})`.as('total_rows'))
    .orderBy(sql`s.sort_key ${dir} nulls last, s.pid collate "C", s.week_start`)
    .execute();
  if (rows.length > 0) return { total: Number(rows[0]!.total_rows), records: rows };
  const count = await sql<{ total: number }>`select (${recordTotal(q.filters)}) as total`.execute(db);
  return { total: count.rows[0]?.total ?? 0, records: [] };
}

/**
 * Narrows a sort to the products that can hold its page (none given: every product), records and
 * products both: on the records alone, PostgreSQL hashes every product of the filters to join them.
 */
function candidatesOnly(candidates: string[] | null | undefined): RawBuilder<unknown> {
  return candidates
    ? sql` and r.pid = any(${candidates}::text[]) and p.pid = any(${candidates}::text[])`
    : sql``;
}

/** How many records the filters select: from the per-slice counts, or counted over some weeks. */
function recordTotal(filters: GridFilters): RawBuilder<number> {
  if (isBoundedRange(filters.weeks))
    return sql<number>`select count(*)::int from demand_records r join products p on p.pid = r.pid
      where ${productFilter(filters)}${weekFilter(filters, 'r.week_start')}`;
  return sql<number>`select g_total::int from (${groupTotals({ drillDown: 'records', filters })}) n`;
}
