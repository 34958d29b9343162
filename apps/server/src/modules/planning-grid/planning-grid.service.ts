import {
  compareText,
  fieldSpecOf,
  gridCellOf,
  joinComments,
  periodLabelOf,
  pickReasonCodes,
  SUMMED_FIELDS,
  type AggregatedRow,
  type DrillDown,
  type FilterOption,
  type FilterOptions,
  type FilterOptionsQuery,
  type GridCell,
  type GridCellNotes,
  type GridPage,
  type GridQuery,
  type GridRow,
  type RecordStamp,
  isBoundedRange,
  isSortableAt,
  requestedWeeks,
  toIsoDate,
  type PeriodParams,
  type PlanClock,
  type ReasonCode,
  type RollupItem,
  type RollupQuery,
  type ViewLevel,
  type WeekRange,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { currentWeekOf, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import {
  groupRowOf,
  pageGroupsFromRecords,
  pageGroupsFromTotals,
  pageProductGroups,
  pageProductRecords,
  pageSortedRecords,
  type RecordStampColumns,
  type GridSort,
  type GroupQuery,
  type GroupRow,
} from './planning-grid.repository';
import { filterOptionCounts, rollupItems } from './planning-grid-options.repository';
import { cellNotes } from './planning-grid-annotations.repository';
import {
  pageProductGroupsInOrder,
  pageRecordsInProductOrder,
  pageRecordsInWeekOrder,
  productOrderKey,
} from './sorted-pages.repository';
import { sortCandidates } from './sort-extremes.repository';
import type { GridFilters } from './planning-grid.sql';
import type { Database } from '../../db/schema';
import { toDemandRecord } from '../../db/demand-record-row';

/** The plan clock of the server's clock and the plan horizon's length (PLAN_HORIZON_WEEKS). */
export function planClockOf(clock: Clock, horizonWeeks: number): () => PlanClock {
  return () => ({ currentWeek: toIsoDate(currentWeekOf(clock)), horizonWeeks });
}

const ID_PREFIX: Record<ViewLevel, string> = { none: 'pid', sku: 'pid', category: 'pf', business_unit: 'bu' };

export type GridSlice = Pick<GridQuery, 'viewLevel' | 'drillDown' | 'offset' | 'limit'> & {
  filters: GridFilters;
  sort?: GridSort | undefined;
};

/** Locks and last planner overrides of a records page, by "PID|Time_Series_sk" (only records that have one). */
function stampsOf(
  records: ReadonlyArray<RecordStampColumns & { pid: string; week_start: string }>,
): Record<string, RecordStamp> {
  const stamps: Record<string, RecordStamp> = {};
  for (const row of records) {
    if (!row.locked && row.overridden_by === null) continue;
    stamps[`${row.pid}|${row.week_start.replaceAll('-', '')}`] = {
      locked: row.locked,
      lastOverriddenBy: row.overridden_by,
      lastOverriddenAt: row.overridden_at === null ? null : new Date(row.overridden_at).toISOString(),
    };
  }
  return stamps;
}

/** Grid pages at any view level and drill-down, filter options and roll-up lists, all scoped to the caller. */
export class PlanningGridService {
  constructor(
    private readonly db: Kysely<Database>,
    /** The clock's week and the horizon's length, which the named periods are measured from. */
    private readonly planClock: () => PlanClock,
  ) {}

  filtersOf(
    scope: AccessScope,
    query: Pick<GridQuery, 'bu' | 'pf' | 'region' | 'search' | 'clientContext'> & PeriodParams,
  ): GridFilters {
    const { clientIds } = narrowToContext(scope, query.clientContext);
    return {
      clientIds,
      bu: query.bu,
      pf: query.pf,
      region: query.region,
      search: query.search || undefined,
      weeks: this.weeksOf(query),
    };
  }

  /** The weeks a request's period parameters name (a 400 for contradicting ones). */
  weeksOf(params: PeriodParams): WeekRange {
    const asked = requestedWeeks(params, this.planClock());
    if ('problem' in asked) throw AppError.validation(`${asked.field} ${asked.problem}`, asked.field);
    return asked.range;
  }

  async page(scope: AccessScope, query: GridQuery): Promise<GridPage> {
    let sort: GridSort | undefined;
    if (query.sortBy !== undefined) {
      if (!isSortableAt(query.viewLevel, query.drillDown, query.sortBy))
        throw AppError.validation(`sortBy ${query.sortBy} is not a column of this view`, 'sortBy');
      sort = { field: query.sortBy, dir: query.sortDir };
    }
    const { rows, total, stamps } = await this.rows({
      ...query,
      sort,
      filters: this.filtersOf(scope, query),
    });
    const page: GridPage = {
      rows,
      total,
      offset: query.offset,
      limit: query.limit,
      viewLevel: query.viewLevel,
      drillDown: query.drillDown,
    };
    if (stamps) page.stamps = stamps;
    return page;
  }

  /**
   * One page of rows in grid order: groups (or records) with data first, then name, then period;
   * sorted by a column, in that column's order with the key breaking ties.
   */
  async rows(
    slice: GridSlice,
  ): Promise<{ rows: GridRow[]; total: number; stamps?: Record<string, RecordStamp> }> {
    const { viewLevel, drillDown, filters, offset, limit, sort } = slice;
    if (isBoundedRange(filters.weeks)) return this.rowsOverWeeks(slice);
    if (viewLevel === 'none' && drillDown === 'none' && sort) {
      const page = await this.sortedRecords({ filters, sort, offset, limit });
      return { rows: page.records.map(toDemandRecord), total: page.total, stamps: stampsOf(page.records) };
    }
    const productKey = sort && productOrderKey(viewLevel, drillDown, sort.field);
    if (sort && productKey) {
      const query = { viewLevel, drillDown, filters, offset, limit, sort, key: productKey };
      const page = await pageProductGroupsInOrder(this.db, query);
      return { rows: page.rows.map((row) => toAggregatedRow(row, viewLevel, drillDown)), total: page.total };
    }
    if (sort) {
      // Sorted roll-ups order whole groups, so the product plan's positional paging does not apply.
      const query = { viewLevel, drillDown, filters, offset, limit, sort };
      const byProduct = viewLevel === 'sku' || viewLevel === 'none';
      const page = byProduct
        ? await pageGroupsFromRecords(this.db, {
            ...query,
            candidates: await sortCandidates(this.db, { ...query, field: sort.field, dir: sort.dir }),
          })
        : filters.search
          ? await pageGroupsFromRecords(this.db, query)
          : await pageGroupsFromTotals(this.db, query);
      return { rows: page.rows.map((row) => toAggregatedRow(row, viewLevel, drillDown)), total: page.total };
    }
    if (viewLevel === 'none' && drillDown === 'none') {
      const page = await pageProductRecords(this.db, { filters, offset, limit });
      const records = page.slices.flatMap((s) =>
        page.records
          .filter((r) => r.pid === s.pid && r.has_data === s.hasData)
          .slice(s.skip, s.skip + s.take),
      );
      return { rows: records.map(toDemandRecord), total: page.total, stamps: stampsOf(records) };
    }
    let groups: GroupRow[];
    let total: number;
    if (viewLevel === 'category' || viewLevel === 'business_unit') {
      const page = filters.search
        ? await pageGroupsFromRecords(this.db, { viewLevel, drillDown, filters, offset, limit })
        : await pageGroupsFromTotals(this.db, { viewLevel, drillDown, filters, offset, limit });
      groups = page.rows;
      total = page.total;
    } else {
      const page = await pageProductGroups(this.db, { viewLevel, drillDown, filters, offset, limit });
      const all = page.groups.sort((a, b) => compareText(a.g, b.g) || compareText(a.k, b.k));
      groups = page.slices.flatMap((s) =>
        all.filter((row) => row.g === s.pid && row.hasData === s.hasData).slice(s.skip, s.skip + s.take),
      );
      total = page.total;
    }
    return { rows: groups.map((row) => toAggregatedRow(row, viewLevel, drillDown)), total };
  }

  /**
   * A page over some weeks only: the per-product counts and sort extremes that lay out the pages of
   * every week do not hold for a part of them, so records and product roll-ups are ordered from
   * the records of those weeks, and family and business-unit roll-ups from their weekly totals.
   */
  private async rowsOverWeeks(
    slice: GridSlice,
  ): Promise<{ rows: GridRow[]; total: number; stamps?: Record<string, RecordStamp> }> {
    const { viewLevel, drillDown, filters, offset, limit, sort } = slice;
    if (viewLevel === 'none' && drillDown === 'none') {
      const page = await pageSortedRecords(this.db, { filters, sort, offset, limit });
      return { rows: page.records.map(toDemandRecord), total: page.total, stamps: stampsOf(page.records) };
    }
    const query = { viewLevel, drillDown, filters, offset, limit, ...(sort ? { sort } : {}) };
    const isSliceLevel = viewLevel === 'category' || viewLevel === 'business_unit';
    const page =
      isSliceLevel && !filters.search
        ? await pageGroupsFromTotals(this.db, query)
        : await pageGroupsFromRecords(this.db, query);
    return { rows: page.rows.map((row) => toAggregatedRow(row, viewLevel, drillDown)), total: page.total };
  }

  /**
   * The original table sorted by a column: a product's attribute or the week walk products or
   * weeks in order; a record's own value is sorted among the products that can hold the page.
   */
  private async sortedRecords(q: { filters: GridFilters; sort: GridSort; offset: number; limit: number }) {
    const key = productOrderKey('none', 'none', q.sort.field);
    if (key)
      return pageRecordsInProductOrder(this.db, {
        ...q,
        key,
        dir: q.sort.dir,
        byPid: q.sort.field === 'PID',
      });
    if (fieldSpecOf(q.sort.field)?.table === 'week' && !q.filters.search)
      return pageRecordsInWeekOrder(this.db, { ...q, dir: q.sort.dir });
    const candidates = await sortCandidates(this.db, {
      ...q,
      field: q.sort.field,
      dir: q.sort.dir,
      drillDown: 'records',
    });
    return pageSortedRecords(this.db, { ...q, candidates });
  }

  /**
   * The notes of roll-up cells of the query's view (its level, drill-down, filters and period):
   * each cell's comment count, distinct comments and reason codes, in one read keyed by the cells.
   * The grid asks for the cells on screen once their page is there. The original table's records
   * carry their own notes: it has no cells.
   */
  async notes(scope: AccessScope, query: GridQuery, cells: readonly GridCell[]): Promise<GridCellNotes[]> {
    if (query.viewLevel === 'none' && query.drillDown === 'none') return [];
    const bad = cells.find((cell) => !isPeriodKeyOf(query.drillDown, cell.periodKey));
    if (bad)
      throw AppError.validation(`periodKey ${bad.periodKey} is not a ${query.drillDown} period`, 'cells');
    return this.notesOf(
      { viewLevel: query.viewLevel, drillDown: query.drillDown, filters: this.filtersOf(scope, query) },
      cells,
    );
  }

  private async notesOf(q: GroupQuery, cells: readonly GridCell[]): Promise<GridCellNotes[]> {
    const rows = await cellNotes(this.db, q, cells);
    return rows.map((row) => ({
      id: rowIdOf(q.viewLevel, q.drillDown, row.g, row.k),
      Comments: joinComments(row.comments ?? []),
      commentCount: row.commentCount,
      Reason_Codes: pickReasonCodes((row.codes ?? []) as ReasonCode[]),
    }));
  }

  /** Roll-up rows of a view (`rows` gives them without notes) with their notes, as the grid shows them. */
  async withNotes(q: GroupQuery, rows: GridRow[]): Promise<GridRow[]> {
    const groups = rows.filter((row): row is AggregatedRow => 'recordCount' in row);
    if (groups.length === 0) return rows;
    const notes = new Map((await this.notesOf(q, groups.map(gridCellOf))).map((n) => [n.id, n]));
    return rows.map((row) => {
      if (!('recordCount' in row)) return row;
      const cell = notes.get(row.id);
      return cell ? { ...row, ...cell } : row;
    });
  }

  async filterOptions(scope: AccessScope, query: FilterOptionsQuery): Promise<FilterOptions> {
    const filters = this.filtersOf(scope, query);
    const {
      bu: businessUnits,
      pf: productFamilies,
      region: regions,
    } = await filterOptionCounts(this.db, filters);
    return { businessUnits, productFamilies, regions } satisfies Record<string, FilterOption[]>;
  }

  async rollup(scope: AccessScope, query: RollupQuery): Promise<RollupItem[]> {
    const { clientIds } = narrowToContext(scope, query.clientContext);
    return rollupItems(this.db, {
      viewLevel: query.viewLevel,
      clientIds,
      weeks: this.weeksOf(query),
      offset: query.offset,
      limit: query.limit,
    });
  }
}

/**
 * The row of one roll-up cell (a group, at a period with a drill-down) as the view shows it, read
 * with `db` (a write's transaction sees its own writes); null when no record is under it.
 */
export async function cellRowOf(
  db: Kysely<Database>,
  cell: GroupQuery & { group: string; periodKey: string },
): Promise<AggregatedRow | null> {
  const row = await groupRowOf(db, cell);
  return row && toAggregatedRow(row, cell.viewLevel, cell.drillDown);
}

/** A roll-up row's id: its level's prefix, its group and, with a drill-down, its period key. */
function rowIdOf(viewLevel: ViewLevel, drillDown: DrillDown, group: string, periodKey: string): string {
  return `${ID_PREFIX[viewLevel]}:${group}${drillDown === 'none' ? '' : `|${periodKey}`}`;
}

const PERIOD_KEY_FORMATS: Record<DrillDown, RegExp> = {
  none: /^$/,
  weekly: /^\d{4}-\d{2}-\d{2}$/,
  monthly: /^\d{4}-(0[1-9]|1[0-2])$/,
  quarterly: /^\d{4}-Q[1-4]$/,
  yearly: /^\d{4}$/,
};

/** Whether a key names a period of the drill-down as the grid's rows carry them (a week by a real date). */
function isPeriodKeyOf(drillDown: DrillDown, key: string): boolean {
  if (!PERIOD_KEY_FORMATS[drillDown].test(key)) return false;
  return drillDown !== 'weekly' || toIsoDate(new Date(`${key}T00:00:00Z`)) === key;
}

function toAggregatedRow(row: GroupRow, viewLevel: ViewLevel, drillDown: DrillDown): AggregatedRow {
  const keys: Pick<AggregatedRow, 'PID' | 'PF' | 'BU'> =
    viewLevel === 'business_unit'
      ? { BU: row.g }
      : viewLevel === 'category'
        ? { PF: row.g, ...(row.commonBU === null ? {} : { BU: row.commonBU }) }
        : { PID: row.g, PF: row.firstPF, BU: row.firstBU };
  const sums = Object.fromEntries(SUMMED_FIELDS.map((field) => [field, row[field]])) as Pick<
    AggregatedRow,
    (typeof SUMMED_FIELDS)[number]
  >;
  return {
    id: rowIdOf(viewLevel, drillDown, row.g, row.k),
    viewLevel,
    drillDown,
    ...keys,
    ...(drillDown === 'none' ? {} : { periodKey: row.k, periodLabel: periodLabelOf(drillDown, row.k) }),
    recordCount: row.recordCount,
    ...sums,
    Rev_Pln_Ovrd_Percent: row.Rev_Pln_Ovrd_Percent,
    SOP_Pln_Ovrd_Percent: row.SOP_Pln_Ovrd_Percent,
    Rank: row.Rank,
    Comments: joinComments(row.comments ?? []),
    commentCount: row.commentCount,
    Reason_Codes: pickReasonCodes((row.codes ?? []) as ReasonCode[]),
    last_updated_at: row.last_updated_at === null ? null : new Date(row.last_updated_at).toISOString(),
  };
}
