import { z } from 'zod';
import type { DemandRecord, ReasonCode, SummedField } from './demand-record';
import { DEMAND_RECORD_FIELDS, SUMMED_FIELDS } from './demand-record-fields';
import type { RecordStamp } from './planning-grid-spread';
import {
  INT4_MAX,
  ZClientContextParam,
  ZMultiValueParam,
  ZSundayParam,
  ZSundaySchema,
  intParam,
  singleParam,
  textParam,
} from './demand-record.schema';

/**
 * Contract of the planning grid's server-side calls (roll-ups run in SQL on the server; the
 * browser holds only the rows it shows). Both apps/server and apps/web build against these types.
 */

/** View Level dropdown: None (Show Original Table), Product ID Level, Product Family Level, Business Unit Level. */
export const VIEW_LEVELS = ['none', 'sku', 'category', 'business_unit'] as const;
export type ViewLevel = (typeof VIEW_LEVELS)[number];

/** Drill Down dropdown: None (No Time Grouping), Weekly, Monthly, Quarterly, Yearly. */
export const DRILL_DOWNS = ['none', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type DrillDown = (typeof DRILL_DOWNS)[number];

export const GRID_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const GRID_DEFAULT_PAGE_SIZE = 100;

/** One row of an aggregated view (view level other than none, or any drill-down). */
export type AggregatedRow = {
  /** Stable id of the group, e.g. "pf:Ball Valves|2026-Q1". */
  id: string;
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  /** Group keys; absent when the level does not group by them. Uncategorized / Unassigned stand in for blanks. */
  PID?: string;
  PF?: string;
  BU?: string;
  /** Time bucket key (e.g. 2026-Q1, 2026-03, 2026-11-15, 2026) and its display label (e.g. 'Week ending 11/21/2026', '03/2026'). */
  periodKey?: string;
  periodLabel?: string;
  recordCount: number;
  /** Override percents averaged weighted by final planned units (else actual units, else 1). */
  Rev_Pln_Ovrd_Percent: number | null;
  SOP_Pln_Ovrd_Percent: number | null;
  /** Rounded average rank. */
  Rank: number | null;
  /** Up to 3 comments joined, plus "(+N more)" for the rest. */
  Comments: string | null;
  /**
   * How many of the group's records carry a comment (each record counted, not each distinct text);
   * null on a grid page, whose rows' notes come from the notes read of the cells on screen.
   */
  commentCount: number | null;
  /** Up to 3 distinct reason codes. */
  Reason_Codes: ReasonCode[];
  last_updated_at: string | null;
} & Record<SummedField, number | null>;

export type GridRow = DemandRecord | AggregatedRow;

/** GET /api/demand-planning/grid — one page of the grid at a view level and drill-down, rows with data first. */
export type GridPage = {
  rows: GridRow[];
  total: number;
  offset: number;
  limit: number;
  viewLevel: ViewLevel;
  drillDown: DrillDown;
  /** Original table only: each record's lock and last planner override, by "PID|Time_Series_sk". */
  stamps?: Record<string, RecordStamp>;
};

/** A roll-up cell of the grid: its group (PID, family or business unit) and period key ('' without a drill-down). */
export type GridCell = { group: string; periodKey: string };

/** The cell a roll-up row shows: its group (as its level names it) and period key. */
export function gridCellOf(row: AggregatedRow): GridCell {
  const group = row.viewLevel === 'business_unit' ? row.BU : row.viewLevel === 'category' ? row.PF : row.PID;
  return { group: group ?? '', periodKey: row.periodKey ?? '' };
}

/** POST /api/demand-planning/grid/notes: the notes of the roll-up cells on screen. */
export type GridNotesRequest = { cells: GridCell[] };

/** One cell's notes, by the id its grid row carries. */
export type GridCellNotes = Pick<AggregatedRow, 'id' | 'Comments' | 'commentCount' | 'Reason_Codes'> & {
  commentCount: number;
};

/** The most cells one notes read answers: a page's rows at most. */
export const GRID_NOTES_MAX_CELLS = 500;

/** Spec §4 column sort: each header cycles unsorted → ascending → descending; nulls sort last either way. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Columns the original table sorts by: every field of the record. */
export const RECORD_SORT_FIELDS = DEMAND_RECORD_FIELDS.map((spec) => spec.field);

/**
 * Columns a roll-up sorts by: its group keys, the period, the count and every figure. Comments and
 * reason codes of a group are a digest of many records, so they have no order of their own.
 */
export const AGGREGATE_SORT_FIELDS = [
  'PID',
  'PF',
  'BU',
  'periodLabel',
  'recordCount',
  ...SUMMED_FIELDS,
  'Rev_Pln_Ovrd_Percent',
  'SOP_Pln_Ovrd_Percent',
  'Rank',
  'last_updated_at',
] as const;
export type AggregateSortField = (typeof AGGREGATE_SORT_FIELDS)[number];

const SORT_FIELDS = [...new Set<string>([...RECORD_SORT_FIELDS, ...AGGREGATE_SORT_FIELDS])] as [
  string,
  ...string[],
];

/** Whether a view sorts by a column (the original table by any field, a roll-up by its figures and keys). */
export function isSortableAt(viewLevel: ViewLevel, drillDown: DrillDown, field: string): boolean {
  if (viewLevel === 'none' && drillDown === 'none') return (RECORD_SORT_FIELDS as string[]).includes(field);
  if (!(AGGREGATE_SORT_FIELDS as readonly string[]).includes(field)) return false;
  if (field === 'periodLabel') return drillDown !== 'none';
  // A roll-up row names its business unit or family only when the level groups by it.
  if (field === 'PID') return viewLevel === 'sku' || viewLevel === 'none';
  if (field === 'PF') return viewLevel !== 'business_unit';
  return true;
}

/**
 * The weeks a grid view covers, named so that it follows the server's clock: the plan horizon
 * (the current week and the plan's weeks after it), history (every week before the current one) or
 * all weeks. A view of fixed weeks gives fromWeek and toWeek instead (grid-period.ts: weekRangeOf).
 */
export const GRID_PERIODS = ['horizon', 'history', 'all'] as const;
export type GridPeriod = (typeof GRID_PERIODS)[number];

/**
 * The period a planner chose: a named one, which follows the clock, or fixed weeks (their Sundays,
 * either side open), which stay as picked. Saved views keep it; a view saved without one opens on
 * the horizon.
 */
export const ZGridPeriodChoice = z.union([
  z.enum(GRID_PERIODS),
  z.strictObject({ from: ZSundaySchema.nullable(), to: ZSundaySchema.nullable() }),
]);
export type GridPeriodChoice = z.infer<typeof ZGridPeriodChoice>;

/** The period parameters of the grid, its exports, roll-up lists and spreads; none given: all weeks. */
export const gridPeriodShape = {
  period: singleParam(
    z.enum(GRID_PERIODS, { error: `must be one of ${GRID_PERIODS.join(', ')}` }).optional(),
  ),
  /** First and last week (their Sundays, inclusive); either may be left open. */
  fromWeek: ZSundayParam,
  toWeek: ZSundayParam,
};

export const ZGridQuerySchema = z.object({
  viewLevel: singleParam(
    z.enum(VIEW_LEVELS, { error: `must be one of ${VIEW_LEVELS.join(', ')}` }).default('category'),
  ),
  drillDown: singleParam(
    z.enum(DRILL_DOWNS, { error: `must be one of ${DRILL_DOWNS.join(', ')}` }).default('none'),
  ),
  bu: ZMultiValueParam,
  pf: ZMultiValueParam,
  region: ZMultiValueParam,
  search: textParam(100),
  offset: intParam({ min: 0, max: INT4_MAX, default: 0 }),
  limit: intParam({ min: 1, max: 500, default: GRID_DEFAULT_PAGE_SIZE }),
  sortBy: singleParam(z.enum(SORT_FIELDS, { error: 'must be a column of the grid' }).optional()),
  sortDir: singleParam(
    z.enum(SORT_DIRECTIONS, { error: `must be one of ${SORT_DIRECTIONS.join(', ')}` }).default('asc'),
  ),
  clientContext: ZClientContextParam,
  ...gridPeriodShape,
});
export type GridQuery = z.infer<typeof ZGridQuerySchema>;

/** GET /api/demand-planning/filter-options — distinct values (with record counts) for the filter bar. */
export type FilterOption = { value: string; count: number };
export type FilterOptions = {
  businessUnits: FilterOption[];
  productFamilies: FilterOption[];
  regions: FilterOption[];
};

/** GET /api/dashboard-metrics (spec §3). */
export type DashboardMetrics = {
  /**
   * Publish values in tens of dollars: the dashboard multiplies them by 10 for display (spec §2,
   * §9), so the screen shows true dollars.
   */
  lastPublishValue: number;
  currentPublishValue: number;
  quarterChange: number;
  yearOverYearChange: number;
  /** The quarter the figures describe (yyyy-Qn, the quarter of today in UTC) and the day they were computed. */
  quarter: string;
  asOf: string;
};

/** GET /api/summary-stats (spec §3). */
export type SummaryStats = {
  totalSkus: number;
  modifiedToday: number;
  pendingReview: number;
  netImpact: number;
  positiveOverrides: number;
  negativeOverrides: number;
};

/** GET /api/demand-planning/filter-options: each list is narrowed by the other two filters. */
export const ZFilterOptionsQuerySchema = ZGridQuerySchema.pick({
  bu: true,
  pf: true,
  region: true,
  clientContext: true,
});
export type FilterOptionsQuery = z.infer<typeof ZFilterOptionsQuerySchema>;

/** GET /api/demand-planning/export.csv: what the grid shows, every page of it. */
export const ZGridExportQuerySchema = ZGridQuerySchema.omit({
  offset: true,
  limit: true,
  sortBy: true,
  sortDir: true,
});
export type GridExportQuery = z.infer<typeof ZGridExportQuerySchema>;

/** GET /api/demand-planning-rollup/{viewLevel} (spec §7 and §3 'Rollup data'). */
export const ROLLUP_VIEW_LEVELS = ['sku', 'category', 'business_unit'] as const;
export type RollupViewLevel = (typeof ROLLUP_VIEW_LEVELS)[number];
export const ZRollupQuerySchema = z.object({
  viewLevel: singleParam(
    z
      .enum(ROLLUP_VIEW_LEVELS, { error: `must be one of ${ROLLUP_VIEW_LEVELS.join(', ')}` })
      .default('category'),
  ),
  offset: ZGridQuerySchema.shape.offset,
  limit: intParam({ min: 1, max: 5000, default: 1000 }),
  clientContext: ZClientContextParam,
  ...gridPeriodShape,
});
export type RollupQuery = z.infer<typeof ZRollupQuerySchema>;
/** One entry of a roll-up list: a product (sku is its PID), a product family or a business unit. */
export type RollupItem = {
  id: string;
  name: string;
  /** The PID at Product ID level; null for families and business units. */
  sku: string | null;
  businessUnit: string | null;
  productFamily: string | null;
  skuCount: number;
  recordCount: number;
};
