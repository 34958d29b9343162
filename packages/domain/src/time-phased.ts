import { z } from 'zod';
import type { SummedField } from './demand-record';
import {
  INT4_MAX,
  ZClientContextParam,
  ZMultiValueParam,
  intParam,
  singleParam,
  textParam,
} from './demand-record.schema';
import type { OverrideField } from './planning-grid-overrides';
import { ROLLUP_VIEW_LEVELS } from './planning-grid';
import { periodLabelOf, periodRangeOf } from './rollup/time-buckets';
import { ZSpreadCellSchema, ZSpreadScopeSchema } from './planning-grid-spread';

/**
 * The time-phased planning view, as IBP's planning view and frePPLe's forecast
 * editor show a plan: one block of measure rows per product, family or business unit, one column
 * per week, month or quarter, the past left of the current period and the future right of it.
 */

export const TIME_PHASED_BUCKETS = ['weekly', 'monthly', 'quarterly'] as const;
export type TimePhasedBucket = (typeof TIME_PHASED_BUCKETS)[number];

/** Items (blocks of measure rows) per page: 10 blocks of 10 rows fill the grid's height twice. */
export const TIME_PHASED_DEFAULT_ITEMS = 10;
export const TIME_PHASED_MAX_ITEMS = 50;

/**
 * The measure rows of an item, top to bottom. Each reads one roll-up figure (units, or the
 * weighted override percent), except Final − P1, the gap between the plan and the last published
 * plan; the four override rows are editable in open periods and spread like the table's cells.
 */
export const TIME_PHASED_MEASURES = [
  { id: 'actuals', field: 'Act_Bkg_Units' },
  { id: 'statistical', field: 'Ensemble_Fcst_Units' },
  { id: 'prelim', field: 'Prelim_Pln_Units' },
  { id: 'final', field: 'Final_Pln_Units' },
  { id: 'p1', field: 'P1_Pub_Pln_Units' },
  { id: 'finalMinusP1', field: null },
  { id: 'revOverridePercent', field: 'Rev_Pln_Ovrd_Percent' },
  { id: 'revOverrideUnits', field: 'Rev_Pln_Ovrd_Units' },
  { id: 'sopOverridePercent', field: 'SOP_Pln_Ovrd_Percent' },
  { id: 'sopOverrideUnits', field: 'SOP_Pln_Ovrd_Units' },
] as const satisfies ReadonlyArray<{ id: string; field: SummedField | OverrideField | null }>;
export type TimePhasedMeasure = (typeof TIME_PHASED_MEASURES)[number]['id'];
export const TIME_PHASED_MEASURE_IDS = TIME_PHASED_MEASURES.map((m) => m.id);

/** The override field a measure row edits, or null when the row is read-only. */
export function editableFieldOf(measure: TimePhasedMeasure): OverrideField | null {
  const field = TIME_PHASED_MEASURES.find((m) => m.id === measure)?.field ?? null;
  return field !== null && field.includes('_Ovrd_') ? (field as OverrideField) : null;
}

/** GET /api/demand-planning/time-phased: a page of items at a level and bucket, with the grid's filters. */
export const ZTimePhasedQuerySchema = z.object({
  viewLevel: singleParam(
    z
      .enum(ROLLUP_VIEW_LEVELS, { error: `must be one of ${ROLLUP_VIEW_LEVELS.join(', ')}` })
      .default('category'),
  ),
  bucket: singleParam(
    z
      .enum(TIME_PHASED_BUCKETS, { error: `must be one of ${TIME_PHASED_BUCKETS.join(', ')}` })
      .default('monthly'),
  ),
  bu: ZMultiValueParam,
  pf: ZMultiValueParam,
  region: ZMultiValueParam,
  search: textParam(100),
  offset: intParam({ min: 0, max: INT4_MAX, default: 0 }),
  limit: intParam({ min: 1, max: TIME_PHASED_MAX_ITEMS, default: TIME_PHASED_DEFAULT_ITEMS }),
  clientContext: ZClientContextParam,
});
export type TimePhasedQuery = z.infer<typeof ZTimePhasedQuerySchema>;

/** A column: its bucket key and label, and whether every week of it lies before the current week. */
export const ZTimePhasedPeriod = z.strictObject({
  key: z.string(),
  label: z.string(),
  isPast: z.boolean(),
});
export type TimePhasedPeriod = z.infer<typeof ZTimePhasedPeriod>;

/** One item: its name, records, and per measure one figure per period (null: no value there). */
export const ZTimePhasedItem = z.strictObject({
  group: z.string(),
  recordCount: z.number().int().min(0),
  values: z.strictObject(
    Object.fromEntries(TIME_PHASED_MEASURE_IDS.map((id) => [id, z.array(z.number().nullable())])) as Record<
      TimePhasedMeasure,
      z.ZodArray<z.ZodNullable<z.ZodNumber>>
    >,
  ),
});
export type TimePhasedItem = z.infer<typeof ZTimePhasedItem>;

export const ZTimePhasedPage = z.strictObject({
  viewLevel: z.enum(ROLLUP_VIEW_LEVELS),
  bucket: z.enum(TIME_PHASED_BUCKETS),
  /** The current week (its Sunday, yyyy-mm-dd): periods ending before it are past. */
  currentWeek: z.string(),
  periods: z.array(ZTimePhasedPeriod),
  items: z.array(ZTimePhasedItem),
  totalItems: z.number().int().min(0),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1),
});
export type TimePhasedPage = z.infer<typeof ZTimePhasedPage>;

/**
 * The columns for a set of bucket keys, in time order. A period is past when all of its weeks
 * started before the current week; the period holding the current week is open, so a planner
 * can still plan the rest of this month or quarter.
 */
export function timePhasedPeriods(
  bucket: TimePhasedBucket,
  keys: Iterable<string>,
  currentWeek: string,
): TimePhasedPeriod[] {
  return [...new Set(keys)].sort().map((key) => ({
    key,
    label: periodLabelOf(bucket, key),
    isPast: periodRangeOf(bucket, key).to <= currentWeek,
  }));
}

/** Final − P1 of one period: the plan against the last published plan; null when either is missing. */
export function finalMinusP1(final: number | null, p1: number | null): number | null {
  return final === null || p1 === null ? null : Math.round((final - p1) * 100) / 100;
}

/**
 * POST /api/demand-planning/spread-batch: several aggregate edits saved together (a range pasted
 * into the time-phased view), each spread as POST /api/demand-planning/spread spreads one, in one
 * transaction: all are saved or none. With `preview` nothing is saved.
 */
export const ZSpreadBatchRequestSchema = ZSpreadScopeSchema.extend({
  cells: z
    .array(ZSpreadCellSchema)
    .min(1, { error: 'must hold at least one cell' })
    .max(500, { error: 'must hold at most 500 cells' }),
}).superRefine((request, context) => {
  request.cells.forEach((cell, i) => {
    if (request.drillDown !== 'none' && cell.periodKey === undefined)
      context.addIssue({
        code: 'custom',
        path: ['cells', i, 'periodKey'],
        message: 'is required with a drill-down',
      });
  });
});
export type SpreadBatchRequest = z.infer<typeof ZSpreadBatchRequestSchema>;
