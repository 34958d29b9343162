import { z } from 'zod';
import { ZRowId } from './row-id';
import { COMMENTS_MAX_LENGTH, REASON_CODES } from '../demand-record';
import { UNITS_MAX, ZPidSchema, ZReasonCodeSchema } from '../demand-record.schema';
import { defineEndpoint } from './endpoint';

const ZText = z
  .string({ error: 'must be text' })
  .trim()
  .max(100, { error: 'must be at most 100 characters' });
const ZRequiredText = ZText.min(1, { error: 'is required but is empty' });
const ZQuarterForecast = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(UNITS_MAX, { error: `must be at most ${UNITS_MAX}` });
/** Overrides are whole units; forecasts are statistical and keep their decimals (spec §5). */
const ZQuarterUnits = ZQuarterForecast.transform(Math.round).optional();

/** One imported item (spec §3) sent as JSON: POST /api/demand-planning-items. */
export const ZImportedItemSchema = z.strictObject({
  sku: ZPidSchema,
  category: ZRequiredText,
  businessUnit: ZRequiredText,
  region: ZText.optional(),
  site: ZText.optional(),
  plannerName: ZText.optional(),
  forecastQ1: ZQuarterForecast.optional(),
  forecastQ2: ZQuarterForecast.optional(),
  forecastQ3: ZQuarterForecast.optional(),
  forecastQ4: ZQuarterForecast.optional(),
  overrideQ1: ZQuarterUnits,
  overrideQ2: ZQuarterUnits,
  overrideQ3: ZQuarterUnits,
  overrideQ4: ZQuarterUnits,
  reasonCode: ZReasonCodeSchema.unwrap().optional(),
  notes: z
    .string({ error: 'must be text' })
    .max(COMMENTS_MAX_LENGTH, { error: `must be at most ${COMMENTS_MAX_LENGTH} characters` })
    .optional(),
  lastModified: z.iso.date({ error: 'must be a date as yyyy-mm-dd' }).optional(),
});

const ZRowNumber = z.number().int().min(1);

export const ZImportIssue = z.strictObject({
  row: ZRowNumber,
  field: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
  sku: z.string().optional(),
});

const quarterValues = Object.fromEntries(
  [
    'forecastQ1',
    'forecastQ2',
    'forecastQ3',
    'forecastQ4',
    'overrideQ1',
    'overrideQ2',
    'overrideQ3',
    'overrideQ4',
  ].map((field) => [field, z.number().optional()]),
) as Record<
  | 'forecastQ1'
  | 'forecastQ2'
  | 'forecastQ3'
  | 'forecastQ4'
  | 'overrideQ1'
  | 'overrideQ2'
  | 'overrideQ3'
  | 'overrideQ4',
  z.ZodOptional<z.ZodNumber>
>;

export const ZImportRow = z.strictObject({
  row: ZRowNumber,
  sku: z.string(),
  category: z.string(),
  businessUnit: z.string(),
  region: z.string().optional(),
  site: z.string().optional(),
  plannerName: z.string().optional(),
  reasonCode: z.enum(REASON_CODES).optional(),
  notes: z.string().optional(),
  lastModified: z.string().optional(),
  ...quarterValues,
});

/** Lists in an answer stop at this many entries; the counts say how many there are. */
export const IMPORT_LIST_LIMIT = 500;

/** One quarter of a row's plan in the preview: its Final plan units now and after the import. */
export const ZImportQuarterPlan = z.strictObject({
  quarter: z.number().int().min(1).max(4),
  /** The quarter's Final plan units now; null for a new SKU. */
  before: z.number().nullable(),
  after: z.number().nullable(),
  /** A warning turned the row's value for this quarter into 0 (an invalid number). */
  zeroed: z.boolean(),
});

/** What the import will do to one valid row's plan, quarter by quarter. */
export const ZImportPlanRow = z.strictObject({
  row: ZRowNumber,
  sku: z.string(),
  action: z.enum(['create', 'update']),
  quarters: z.array(ZImportQuarterPlan),
});
export type ImportPlanRow = z.infer<typeof ZImportPlanRow>;

/** What a file would import (spec §3 "Import result"), before anything is written. */
export const ZImportPreview = z.strictObject({
  fileName: z.string(),
  totalRows: z.number().int().min(0),
  validRowCount: z.number().int().min(0),
  /** The first 5 data rows that are valid. */
  preview: z.array(ZImportRow),
  errors: z.array(ZImportIssue),
  errorCount: z.number().int().min(0),
  warnings: z.array(ZImportIssue),
  warningCount: z.number().int().min(0),
  /** SKUs of the file that already exist: their rows update those products. */
  duplicates: z.array(z.string()),
  duplicateCount: z.number().int().min(0),
  /** Per valid row (the first IMPORT_LIST_LIMIT), each quarter's Final plan before → after. */
  plan: z.array(ZImportPlanRow),
});
export type ImportPreview = z.infer<typeof ZImportPreview>;

export const ZImportChange = z.strictObject({
  field: z.string(),
  /** The quarter (1–4) a plan change is in; absent for a product attribute. */
  quarter: z.number().int().min(1).max(4).optional(),
  oldValue: z.union([z.string(), z.number(), z.null()]),
  newValue: z.union([z.string(), z.number(), z.null()]),
});

export const ZImportRowOutcome = z.strictObject({
  row: ZRowNumber,
  sku: z.string(),
  status: z.enum(['created', 'updated', 'unchanged', 'failed']),
  /** 'Failed to import {sku}: {reason}' when failed. */
  message: z.string().optional(),
  changes: z.array(ZImportChange),
  warnings: z.array(z.string()),
});
export type ImportRowOutcome = z.infer<typeof ZImportRowOutcome>;

export const ZImportOutcome = z.strictObject({
  importId: z.number().int().min(1).nullable(),
  imported: z.number().int().min(0),
  failed: z.number().int().min(0),
  created: z.number().int().min(0),
  updated: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  /** 'Successfully imported N items', or spec §8's '{n} items failed to import. {m} items imported successfully.' */
  message: z.string(),
  /** Per row: what changed, or why it failed (the first IMPORT_LIST_LIMIT rows with news). */
  rows: z.array(ZImportRowOutcome),
});
export type ImportOutcome = z.infer<typeof ZImportOutcome>;

export const ZImportQuery = z.object({ clientContext: z.string().max(50).optional() });

/**
 * A file's import as a background job: the upload answers with it at once and the dialog polls it.
 * `outcome` is the import's answer once it succeeded; `error` says why it failed (nothing written).
 */
export const ZImportJob = z.strictObject({
  id: z.number().int().min(1),
  fileName: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  totalRows: z.number().int().min(0),
  processedRows: z.number().int().min(0),
  /** processedRows of totalRows, 0–100, floored; 100 only once it succeeded. */
  progressPercent: z.number().int().min(0).max(100),
  error: z.string().nullable(),
  outcome: ZImportOutcome.nullable(),
  /** Milliseconds each step took (read, validate, plan, the writes) and the parse worker's peak heap in MB (parseHeapMb), for the bench and logs. */
  steps: z.record(z.string(), z.number()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ZImportJob>;

export const ZImportJobParams = z.strictObject({
  id: ZRowId,
});

/**
 * Spreadsheet import. The file endpoints take multipart/form-data with exactly one
 * file in the field `file` (.xlsx or .csv; .xls is refused with a message saying why).
 */
export const importEndpoints = {
  item: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning-items',
    access: 'write',
    summary: 'Imports one demand planning item (spec §3): creates the SKU or updates its plan and attributes',
    query: ZImportQuery,
    body: ZImportedItemSchema,
    status: 201,
    response: { data: ZImportRowOutcome },
  }),
  preview: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning-items/import/preview',
    access: 'write',
    summary:
      'Reads an uploaded spreadsheet (multipart, field file) and reports what it would import; writes nothing',
    query: ZImportQuery,
    response: { data: ZImportPreview },
  }),
  import: defineEndpoint({
    method: 'POST',
    path: '/api/demand-planning-items/import',
    access: 'write',
    summary:
      'Reads and validates an uploaded spreadsheet (multipart, field file), then applies every valid row in one transaction in the background: answers the running import',
    query: ZImportQuery,
    status: 202,
    response: { data: ZImportJob },
  }),
  job: defineEndpoint({
    method: 'GET',
    path: '/api/demand-planning-items/import/:id',
    access: 'write',
    summary: 'One of your imports: its progress, and its outcome or error once it ended',
    params: ZImportJobParams,
    response: { data: ZImportJob },
  }),
};
