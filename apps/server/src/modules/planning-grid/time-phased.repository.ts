import type { RollupViewLevel, TimePhasedBucket } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import {
  attributeFilter,
  groupName,
  periodKey,
  productFilter,
  recordAggregates,
  totalsAggregates,
  type GridFilters,
} from './planning-grid.sql';
import { totalsRows } from './planning-grid.repository';

/** One (item, period) of a time-phased page; an item past the last page comes back as g = null. */
export type TimePhasedRow = {
  g: string | null;
  k: string | null;
  total: number;
  recordCount: number | null;
  Act_Bkg_Units: number | null;
  Ensemble_Fcst_Units: number | null;
  Prelim_Pln_Units: number | null;
  Final_Pln_Units: number | null;
  P1_Pub_Pln_Units: number | null;
  Rev_Pln_Ovrd_Percent: number | null;
  Rev_Pln_Ovrd_Units: number | null;
  SOP_Pln_Ovrd_Percent: number | null;
  SOP_Pln_Ovrd_Units: number | null;
};

/**
 * A page of the time-phased view in one statement: the items (products, families or business
 * units the filters select, by name) of the page, and each item's roll-up per period, by the same
 * SQL rules as the grid's roll-ups. Families and business units read the per-slice totals
 * (demand_slice_totals by month or quarter, demand_week_totals by week: ADR 0009); products, or a
 * text search, read the page's records.
 */
export async function timePhasedPage(
  db: Kysely<Database>,
  q: {
    viewLevel: RollupViewLevel;
    bucket: TimePhasedBucket;
    filters: GridFilters;
    offset: number;
    limit: number;
  },
): Promise<TimePhasedRow[]> {
  const fromTotals = q.viewLevel !== 'sku' && !q.filters.search;
  const names = fromTotals
    ? sql`select distinct ${groupName(q.viewLevel, 't')} as g
        from demand_slice_totals t where t.drill_down = 'none' and ${attributeFilter(q.filters, 't')}`
    : sql`select distinct ${groupName(q.viewLevel, 'p')} as g
        from products p join demand_product_totals pt on pt.pid = p.pid where ${productFilter(q.filters)}`;
  // A product's records are found by its key; a family's or business unit's by its name.
  const cells = fromTotals
    ? sql`select g, k, ${totalsAggregates()}
        from (${totalsRows({ viewLevel: q.viewLevel, drillDown: q.bucket, filters: q.filters })}) t
        where g = any(array(select g from page))
        group by g, k`
    : sql`select ${groupName(q.viewLevel, 'p')} as g, ${periodKey(q.bucket, sql`r.week_start`)} as k,
          ${recordAggregates()}
        from demand_records r join products p on p.pid = r.pid
        where ${productFilter(q.filters)}
          and ${q.viewLevel === 'sku' ? sql`r.pid` : groupName(q.viewLevel, 'p')} = any(array(select g from page))
        group by 1, 2`;
  const { rows } = await sql<TimePhasedRow>`
    with names as materialized (${names}),
    page as materialized (select g from names order by g collate "C" limit ${q.limit} offset ${q.offset}),
    cells as (${cells})
    select page.g, cells.k, (select count(*) from names)::int as total, cells."recordCount",
      cells."Act_Bkg_Units", cells."Ensemble_Fcst_Units", cells."Prelim_Pln_Units", cells."Final_Pln_Units",
      cells."P1_Pub_Pln_Units", cells."Rev_Pln_Ovrd_Percent", cells."Rev_Pln_Ovrd_Units",
      cells."SOP_Pln_Ovrd_Percent", cells."SOP_Pln_Ovrd_Units"
    from (select 1) one
    left join page on true
    left join cells on cells.g = page.g
    order by page.g collate "C", cells.k`.execute(db);
  return rows;
}
