import { z } from 'zod';
import { REASON_CODES } from './demand-record';
import {
  UNITS_MAX,
  ZOverridePercentSchema,
  ZPidSchema,
  ZReasonCodeSchema,
  ZSundaySchema,
  ZTimeSeriesSkSchema,
} from './demand-record.schema';
import { DRILL_DOWNS, GRID_PERIODS, ROLLUP_VIEW_LEVELS } from './planning-grid';
import { OVERRIDE_FIELDS } from './planning-grid-overrides';

/** What every aggregate edit names besides its cell: the view and the grid's filters. */
export const ZSpreadScopeSchema = z.strictObject({
  viewLevel: z.enum(ROLLUP_VIEW_LEVELS, { error: `must be one of ${ROLLUP_VIEW_LEVELS.join(', ')}` }),
  drillDown: z.enum(DRILL_DOWNS, { error: `must be one of ${DRILL_DOWNS.join(', ')}` }),
  bu: z.array(z.string().max(200)).max(500).optional(),
  pf: z.array(z.string().max(200)).max(500).optional(),
  region: z.array(z.string().max(200)).max(500).optional(),
  search: z.string({ error: 'must be text' }).max(100).optional(),
  clientContext: z.string({ error: 'must be text' }).max(50).optional(),
  /** The view's weeks (the grid's period parameters): only their records are under the cell. */
  period: z.enum(GRID_PERIODS, { error: `must be one of ${GRID_PERIODS.join(', ')}` }).optional(),
  fromWeek: ZSundaySchema.optional(),
  toWeek: ZSundaySchema.optional(),
  preview: z.boolean({ error: 'must be true or false' }).default(false),
});

const spreadCellShape = {
  /** The row's PID, family or business unit, as the grid shows it (Uncategorized / Unassigned too). */
  group: z.string({ error: 'must be text' }).min(1, { error: 'is required' }).max(200, {
    error: 'must be at most 200 characters',
  }),
  /** The row's period key (2026-Q1, 2026-03, 2026-11-15, 2026); absent without a drill-down. */
  periodKey: z
    .string({ error: 'must be text' })
    .regex(/^\d{4}(-Q[1-4]|-\d{2}|-\d{2}-\d{2})?$/, { error: 'must be a period key such as 2026-Q1' })
    .optional(),
  field: z.enum(OVERRIDE_FIELDS as [string, ...string[]], {
    error: `must be one of ${OVERRIDE_FIELDS.join(', ')}`,
  }),
  value: z.number({ error: 'must be a number' }),
  /** Written on every record the spread changes (the admin may require one with an override). */
  reasonCode: ZReasonCodeSchema.optional(),
};

/** The figure typed into a cell, by the field's rules (percent 0–100, whole units ≥ 0). */
function checkSpreadValue(cell: { field: string; value: number }, context: z.RefinementCtx): void {
  const checked = cell.field.endsWith('_Percent')
    ? ZOverridePercentSchema.safeParse(cell.value)
    : z
        .number()
        .int({ error: 'must be a whole number' })
        .min(0, { error: 'must be 0 or more' })
        .max(UNITS_MAX, { error: `must be at most ${UNITS_MAX}` })
        .safeParse(cell.value);
  if (!checked.success)
    context.addIssue({ code: 'custom', path: ['value'], message: checked.error.issues[0]!.message });
}

/** The cell an aggregate edit is typed into, and the figure. */
export const ZSpreadCellSchema = z.strictObject(spreadCellShape).superRefine(checkSpreadValue);
export type SpreadCell = z.infer<typeof ZSpreadCellSchema>;

/**
 * POST /api/demand-planning/spread: a units or percent override typed into an aggregated cell
 * (a product, family or business unit, over a period when drilled down), spread over the records
 * under it (spreading/spread.ts). The filters are the grid's, so the records are exactly those
 * the row summed. With `preview` nothing is saved: the answer is what the save would move.
 */
export const ZSpreadRequestSchema = z
  .strictObject({ ...ZSpreadScopeSchema.shape, ...spreadCellShape })
  .superRefine((request, context) => {
    if (request.drillDown !== 'none' && request.periodKey === undefined)
      context.addIssue({ code: 'custom', path: ['periodKey'], message: 'is required with a drill-down' });
    checkSpreadValue(request, context);
  });
export type SpreadRequest = z.infer<typeof ZSpreadRequestSchema>;

/** What a spread moves: the confirmation shows it before the save, and the save answers it. */
export const ZSpreadResult = z.strictObject({
  saved: z.boolean(),
  /** Records under the cell, those it changes, and those left alone because they are locked. */
  records: z.number().int().min(0),
  changedRecords: z.number().int().min(0),
  lockedRecords: z.number().int().min(0),
  /** Units of the edited stage (Prelim for Rev, Final for S&OP) under the cell before and after. */
  unitsBefore: z.number(),
  unitsAfter: z.number(),
  /** Σ change of the final plan's revenue and cost over the records, in dollars. */
  revenueDelta: z.number(),
  costDelta: z.number(),
});
export type SpreadResult = z.infer<typeof ZSpreadResult>;

/** PUT /api/demand-planning/locks: lock or unlock records against aggregate edits. */
export const ZLockRequestSchema = z.strictObject({
  records: z
    .array(z.strictObject({ PID: ZPidSchema, Time_Series_sk: ZTimeSeriesSkSchema }))
    .min(1, { error: 'must name at least one record' })
    .max(5000, { error: 'must hold at most 5000 records' }),
  locked: z.boolean({ error: 'must be true or false' }),
});
export type LockRequest = z.infer<typeof ZLockRequestSchema>;

/** One change of a record's audit trail, for the cell history panel. */
export const ZRecordHistoryEntry = z.strictObject({
  id: z.number().int(),
  field: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  changedBy: z.string(),
  changedAt: z.iso.datetime({ offset: true }),
  /** Where it came from: a planner's edit, an aggregate edit, an undo, an import or a forecast run. */
  origin: z.enum(['planner', 'aggregate', 'undo', 'import', 'forecast', 'publish', 'other']),
  source: z.string(),
  cause: z.string().nullable(),
  /** The record's reason code and comment as saved with the change (from the same save). */
  reasonCode: z.enum(REASON_CODES).nullable(),
  comment: z.string().nullable(),
});
export type RecordHistoryEntry = z.infer<typeof ZRecordHistoryEntry>;

/** Who touched a record last: the planner (overrides) apart from the system (any write, forecast runs too). */
export const ZRecordStamp = z.strictObject({
  locked: z.boolean(),
  lastOverriddenBy: z.string().nullable(),
  lastOverriddenAt: z.iso.datetime({ offset: true }).nullable(),
});
export type RecordStamp = z.infer<typeof ZRecordStamp>;

/** Audit sources by origin (the audit log's `source` column). */
export function originOfSource(source: string): RecordHistoryEntry['origin'] {
  switch (source) {
    case 'edit':
    case 'batch':
      return 'planner';
    case 'spread':
      return 'aggregate';
    case 'undo':
      return 'undo';
    case 'import':
      return 'import';
    case 'forecast':
      return 'forecast';
    case 'publish':
      return 'publish';
    default:
      return 'other';
  }
}
