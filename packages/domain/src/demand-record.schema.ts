import { z } from 'zod';
import {
  COMMENTS_MAX_LENGTH,
  EDITABLE_FIELDS,
  PERCENT_OVERRIDE_MAX,
  PERCENT_OVERRIDE_MIN,
  REASON_CODES,
} from './demand-record';
import { isSunday, parseTimeSeriesSk } from './weeks';

const hasAtMostTwoDecimals = (value: number): boolean =>
  Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

export const ZOverridePercentSchema = z
  .number({ error: 'must be a number' })
  .min(PERCENT_OVERRIDE_MIN, { error: `must be at least ${PERCENT_OVERRIDE_MIN}` })
  .max(PERCENT_OVERRIDE_MAX, { error: `must be at most ${PERCENT_OVERRIDE_MAX}` })
  .refine(hasAtMostTwoDecimals, { error: 'must have at most 2 decimals' })
  .nullable();

export const ZOverrideUnitsSchema = z
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 or more' })
  .max(1_000_000_000, { error: 'must be at most 1000000000' })
  .nullable();

export const ZReasonCodeSchema = z
  .enum(REASON_CODES, { error: `must be one of ${REASON_CODES.join(', ')}` })
  .nullable();

export const ZCommentsSchema = z
  .string({ error: 'must be text' })
  .max(COMMENTS_MAX_LENGTH, { error: `must be at most ${COMMENTS_MAX_LENGTH} characters` })
  .nullable();

export const ZTimeSeriesSkSchema = z
  .string({ error: 'must be text' })
  .refine((sk) => parseTimeSeriesSk(sk) !== null, { error: 'must be a date as yyyymmdd' })
  .refine((sk) => isSunday(parseTimeSeriesSk(sk) ?? new Date(NaN)), {
    error: 'must be a Sunday (weeks start on Sunday)',
  });

export const ZPidSchema = z
  .string({ error: 'must be text' })
  .trim()
  .min(1, { error: 'is required' })
  .max(64, { error: 'must be at most 64 characters' })
  .regex(/^[\w.\-/ ]+$/, { error: 'may hold letters, digits, spaces and . _ - / only' });

/** The editable fields of spec §5; unknown fields are refused so a typo never passes silently. */
export const ZEditableFieldsSchema = z.strictObject(
  {
    Rev_Pln_Ovrd_Percent: ZOverridePercentSchema.optional(),
    Rev_Pln_Ovrd_Units: ZOverrideUnitsSchema.optional(),
    SOP_Pln_Ovrd_Percent: ZOverridePercentSchema.optional(),
    SOP_Pln_Ovrd_Units: ZOverrideUnitsSchema.optional(),
    Reason_Code: ZReasonCodeSchema.optional(),
    Comments: ZCommentsSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `is not an editable field (editable: ${EDITABLE_FIELDS.join(', ')})`
        : undefined,
  },
);

/** Body of PUT /real-data/{pid}/{sk}: the changed fields, plus the version the client read. */
export const ZUpdateDemandRecordSchema = ZEditableFieldsSchema.extend({
  version: z.number({ error: 'must be a number' }).int().min(1).optional(),
});
export type UpdateDemandRecord = z.infer<typeof ZUpdateDemandRecordSchema>;

export const ZBatchUpdateSchema = z.strictObject({
  updates: z
    .array(
      ZUpdateDemandRecordSchema.extend({
        PID: ZPidSchema,
        Time_Series_sk: ZTimeSeriesSkSchema,
      }),
      { error: 'must be a list' },
    )
    .min(1, { error: 'must hold at least one update' })
    .max(5000, { error: 'must hold at most 5000 updates' }),
});
export type BatchUpdate = z.infer<typeof ZBatchUpdateSchema>;

const ZNonNegativeNumber = z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' });
const ZAttribute = z.string({ error: 'must be text' }).trim().min(1, { error: 'is required' }).max(100);

/**
 * Body of POST /real-data. Product attributes are needed only when the PID is new; for a known PID
 * they must be absent or equal to the product's.
 */
export const ZCreateDemandRecordSchema = ZEditableFieldsSchema.extend({
  PID: ZPidSchema,
  Time_Series_sk: ZTimeSeriesSkSchema,
  BU: ZAttribute.optional(),
  PF: ZAttribute.optional(),
  Class: ZAttribute.optional(),
  Region: ZAttribute.optional(),
  Site: ZAttribute.optional(),
  EntityType: ZAttribute.optional(),
  Cost: ZNonNegativeNumber.optional(),
  Unit_Price: ZNonNegativeNumber.optional(),
  Act_Bkg_Units: ZNonNegativeNumber.nullable().optional(),
  Naïve_Rev_Mfg_Fcst_Bk_Units: ZNonNegativeNumber.nullable().optional(),
  Ensemble_Fcst_Units: ZNonNegativeNumber.nullable().optional(),
});
export type CreateDemandRecord = z.infer<typeof ZCreateDemandRecordSchema>;

export const LIST_LIMIT_DEFAULT = 1000;
export const LIST_LIMIT_MAX = 5000;

/** A filter value may be given once, repeated, or comma-separated. */
export const ZMultiValueParam = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0),
  )
  .optional();

const ZDateParam = z
  .string()
  .transform((value) => value.replaceAll('-', ''))
  .refine((value) => parseTimeSeriesSk(value) !== null, { error: 'must be a date as yyyymmdd or yyyy-mm-dd' })
  .optional();

export const ZListDemandRecordsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(LIST_LIMIT_MAX, { error: `must be at most ${LIST_LIMIT_MAX}` })
    .default(LIST_LIMIT_DEFAULT),
  nextToken: z.string().max(500, { error: 'is not a valid page token' }).optional(),
  bu: ZMultiValueParam,
  pf: ZMultiValueParam,
  region: ZMultiValueParam,
  site: ZMultiValueParam,
  class: ZMultiValueParam,
  pid: ZMultiValueParam,
  from: ZDateParam,
  to: ZDateParam,
  search: z.string().trim().max(100, { error: 'must be at most 100 characters' }).optional(),
  clientContext: z.string().max(50).optional(),
});
export type ListDemandRecordsQuery = z.infer<typeof ZListDemandRecordsQuerySchema>;
