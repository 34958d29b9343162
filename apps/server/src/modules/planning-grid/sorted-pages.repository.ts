import { fieldSpecOf, type DrillDown, type SortDirection, type ViewLevel } from '@ps/domain';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DemandRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import {
  groupTotals,
  plannedProductGroups,
  plannedRecords,
  productGroupCounts,
  walkProducts,
  type GridSort,
  type GroupPage,
  type GroupRow,
  type RecordStampColumns,
} from './planning-grid.repository';
import { withoutAnnotations } from './planning-grid-annotations.repository';
import {
  attributeFilter,
  businessUnitName,
  familyName,
  productFilter,
  type GridFilters,
} from './planning-grid.sql';

/**
 * Sorted pages whose order follows from a product's own attributes (PID, family, business unit,
 * rank…) or from the week: the page's place is found from per-product or per-week counts, so only
 * the page's records are read, never every record sorted. Ties fall back to PID and then the week
 * or period, ascending, as in every sorted view (spec §4), so paging stays stable.
 */

type Db = Kysely<Database>;
type Window = { filters: GridFilters; offset: number; limit: number };

/**
 * The product attribute a sort orders products by at a view, or null when the sorted value is not
 * the product's own. In the original table every products column is one; at product-level
 * roll-ups, the PID, the family and business unit as roll-ups name them, and the rank.
 */
export function productOrderKey(
  viewLevel: ViewLevel,
  drillDown: DrillDown,
  field: string,
): RawBuilder<unknown> | null {
  if (viewLevel === 'none' && drillDown === 'none') {
    const spec = fieldSpecOf(field);
    if (field === 'PID') return sql`p.pid collate "C"`;
    if (spec?.table !== 'products' || spec.column === null) return null;
    const column = sql.raw(`p.${spec.column}`);
    return spec.sqlType === 'text' ? sql`${column} collate "C"` : column;
  }
  if (viewLevel !== 'sku' && viewLevel !== 'none') return null;
  switch (field) {
    case 'PID':
      return sql`p.pid collate "C"`;
    case 'PF':
      return sql`${familyName('p')} collate "C"`;
    case 'BU':
      return sql`${businessUnitName('p')} collate "C"`;
    case 'Rank':
      return sql`p.rank`;
    default:
      return null;
  }
}

type PlanRow = { pid: string; groups: number; before: number; total: number };

type OrderPlanQuery = Window & {
  key: RawBuilder<unknown>;
  dir: SortDirection;
  drillDown: DrillDown | 'records';
  /** Products are sorted by PID alone: the page walks them in that order (walkProducts). */
  byPid: boolean;
};

/**
 * The products a page overlaps when products are walked in `key` order (then PID), each with its
 * number of groups (records, or periods at a drill-down) and how many groups come before it; the
 * total comes from the per-slice counts (or, searched, the products found). In PID order without a
 * text search the walk stops at the page's end (walkProducts). In another order every product is
 * still read, but only the first offset + limit of them are ranked and summed: each product holds
 * at least one group, so no later product can reach the page (a bounded top-N sort instead of
 * sorting and summing every product).
 */
function productOrderPlan(q: OrderPlanQuery): RawBuilder<PlanRow> {
  const start = q.offset;
  const end = q.offset + q.limit;
  const groups = productGroupCounts(q.drillDown).groups;
  const total = sql`(select g_total from (${groupTotals(q)}) n)`;
  if (q.byPid && !q.filters.search) {
    const walk = walkProducts({
      filters: q.filters,
      count: groups,
      dir: q.dir,
      start: sql<number>`${start}`,
      end: sql<number>`${end}`,
    });
    return sql<PlanRow>`select w.pid, w.c as groups, w.before, ${total} as total from (${walk}) w`;
  }
  const order = sql`key ${sql.raw(q.dir)} nulls last, pid collate "C"`;
  return sql<PlanRow>`
    select pid, groups, before, ${total} as total from (
      select pid, groups, sum(groups) over (order by ${order}) - groups as before
      from (
        select p.pid, ${groups}::bigint as groups, ${q.key} as key
        from products p join demand_product_totals t on t.pid = p.pid
        where ${productFilter(q.filters)}
        order by ${sql`${q.key} ${sql.raw(q.dir)} nulls last, p.pid collate "C"`}
        limit ${end}) c) w
    where before < ${end} and before + groups > ${start}`;
}

/** The total of an order plan that planned no product (a page past the end). */
async function totalOf(
  db: Db,
  q: { drillDown: DrillDown | 'records'; filters: GridFilters },
  rows: ReadonlyArray<{ total: unknown }>,
): Promise<number> {
  if (rows[0]) return Number(rows[0].total);
  const { rows: totals } = await sql<{ g_total: string }>`${groupTotals(q)}`.execute(db);
  return Number(totals[0]?.g_total ?? 0);
}

/**
 * Keeps the rows at the page's positions: `rows` come in plan order, each product's rows in the
 * order they take within it, and a product's first row sits at its plan row's `before`.
 */
function atPagePositions<T extends { pid: string; before: number | string }>(rows: T[], q: Window): T[] {
  const page: T[] = [];
  let pid: string | null = null;
  let position = 0;
  for (const row of rows) {
    if (row.pid !== pid) {
      pid = row.pid;
      position = Number(row.before);
    }
    if (position >= q.offset && position < q.offset + q.limit) page.push(row);
    position += 1;
  }
  return page;
}

export type SortedRecords = { total: number; records: Array<DemandRecordRow & RecordStampColumns> };

/** A page of the original table sorted by a products column or PID: products in order, each product's weeks ascending. */
export async function pageRecordsInProductOrder(
  db: Db,
  q: Window & { key: RawBuilder<unknown>; dir: SortDirection; byPid: boolean },
): Promise<SortedRecords> {
  const plan = { ...q, drillDown: 'records' as const };
  const rows = await plannedRecords(db, productOrderPlan(plan), sql`plan.before, r.week_start`);
  return { total: await totalOf(db, plan, rows), records: atPagePositions(rows, q) };
}

/**
 * A page of a product-level roll-up sorted by a product's attribute: the planned products' groups,
 * then each product's periods ascending.
 */
export async function pageProductGroupsInOrder(
  db: Db,
  q: Window & { viewLevel: ViewLevel; drillDown: DrillDown; sort: GridSort; key: RawBuilder<unknown> },
): Promise<GroupPage> {
  const plan = productOrderPlan({ ...q, dir: q.sort.dir, byPid: q.sort.field === 'PID' });
  const { rows } = await withoutAnnotations(
    sql`with plan as materialized (${plan}),
      s as materialized (${plannedProductGroups(q)})
      select s.*, plan.pid, plan.before, plan.total
      from plan join s on s.g = plan.pid`,
    sql`pg.before, pg.k collate "C"`,
  ).execute(db);
  const groups = rows as Array<GroupRow & { pid: string; before: string; total: string }>;
  return {
    total: await totalOf(db, q, groups),
    rows: atPagePositions(groups, q),
  };
}

/**
 * A page of the original table sorted by a week field: weeks in order, each week's records by PID.
 * Each week's record count comes from demand_week_totals, so only the page's weeks are read, each
 * through the (week_start, pid collate "C") index (migration 0036) up to the page's end. The totals know the filter bar's attributes, not the search
 * box: with a search the caller sorts the few products found instead.
 */
export async function pageRecordsInWeekOrder(
  db: Db,
  q: Window & { dir: SortDirection },
): Promise<SortedRecords> {
  const start = q.offset;
  const end = q.offset + q.limit;
  const dir = sql.raw(q.dir);
  const keys = sql<{ pid: string; week_start: string; position: number; total: number }>`
    with weeks as (
      select week_start, sum(record_count)::bigint as records
      from demand_week_totals t where ${attributeFilter(q.filters, 't')}
      group by week_start),
    placed as (
      select week_start, records, sum(records) over (order by week_start ${dir}) - records as before,
        sum(records) over () as total
      from weeks)
    select s.pid, placed.week_start, placed.before + s.n - 1 as position, placed.total
    from placed cross join lateral (
      select r.pid, row_number() over (order by r.pid collate "C") as n
      from demand_records r join products p on p.pid = r.pid
      where r.week_start = placed.week_start and ${productFilter(q.filters)}
      order by r.pid collate "C"
      offset greatest(${start} - placed.before, 0)
      limit least(${end} - placed.before, placed.records) - greatest(${start} - placed.before, 0)) s
    where placed.before < ${end} and placed.before + placed.records > ${start}`;
  const rows = await plannedRecords(db, keys, sql`plan.position`, true);
  if (rows.length > 0) return { total: Number(rows[0]!.total), records: rows };
  const count = await sql<{ total: number }>`select coalesce(sum(record_count), 0)::int as total
    from demand_week_totals t where ${attributeFilter(q.filters, 't')}`.execute(db);
  return { total: count.rows[0]?.total ?? 0, records: [] };
}
