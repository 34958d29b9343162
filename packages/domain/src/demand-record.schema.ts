import { z } from 'zod';
import {
  COMMENTS_MAX_LENGTH,
  EDITABLE_FIELDS,
  PERCENT_OVERRIDE_MAX,
  PERCENT_OVERRIDE_MIN,
  REASON_CODES,
} from './demand-record';
import { isSunday, parseTimeSeriesSk } from './weeks';

const hasAtMostDecimals =
  (decimals: number) =>
  (value: number): boolean => {
    const scaled = value * 10 ** decimals;
    return Math.abs(scaled - Math.round(scaled)) < 1e-6;
  };
const hasAtMostTwoDecimals = hasAtMostDecimals(2);

/**
 * The largest values the record columns hold (migration 0001): integer units and versions
 * (int4), money as numeric(16,2), unit cost and price as numeric(14,4). Input is checked against
 * these so that the database never refuses a value mid-write.
 */
export const INT4_MAX = 2_147_483_647;
/** Money must stay below this (numeric(16,2) holds 14 digits before the point). */
export const MONEY_LIMIT = 100_000_000_000_000;
export const UNIT_AMOUNT_MAX = 9_999_999_999.9999;
/** Units a client may send (forecast, actual, override): room for the plan chain's percent uplifts. */
export const UNITS_MAX = 1_000_000_000;

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
  .max(UNITS_MAX, { error: `must be at most ${UNITS_MAX}` })
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
  version: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(INT4_MAX, { error: `must be at most ${INT4_MAX}` })
    .optional(),
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

const ZUnits = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(UNITS_MAX, { error: `must be at most ${UNITS_MAX}` });
const ZUnitAmount = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(UNIT_AMOUNT_MAX, { error: `must be at most ${UNIT_AMOUNT_MAX}` })
  .refine(hasAtMostDecimals(4), { error: 'must have at most 4 decimals' });
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
  Cost: ZUnitAmount.optional(),
  Unit_Price: ZUnitAmount.optional(),
  Act_Bkg_Units: ZUnits.nullable().optional(),
  Naïve_Rev_Mfg_Fcst_Bk_Units: ZUnits.nullable().optional(),
  Ensemble_Fcst_Units: ZUnits.nullable().optional(),
});

const storedUnits = z
  .number()
  .max(INT4_MAX, { error: `would be more than a record holds (${INT4_MAX}): lower the units or percents` })
  .nullable();
const storedMoney = z
  .number()
  .lt(MONEY_LIMIT, {
    error: `would be ${MONEY_LIMIT} or more, more than a record holds: lower the units, cost or price`,
  })
  .nullable();

/**
 * The values a write derives from the input (plan chain, actual cost and revenue), checked
 * against their columns. Each input is within its own range, but a product of several (units
 * × price, forecast × two uplifts) can still overflow.
 */
export const ZDerivedValuesSchema = z.object({
  Act_Bkg_Cost: storedMoney,
  Act_Rev_Dlrs: storedMoney,
  Prelim_Pln_Units: storedUnits,
  Prelim_Pln_Cost: storedMoney,
  Prelim_Pln_Rev_Dlrs: storedMoney,
  Final_Pln_Units: storedUnits,
  Final_Bk_Pln_Cost: storedMoney,
  Final_Pln_Rev_Dlrs: storedMoney,
});
export type DerivedValues = z.infer<typeof ZDerivedValuesSchema>;

/** Each derived field with the bound its schema sets (storedUnits or storedMoney), read off the schema. */
const DERIVED_BOUNDS = Object.entries(ZDerivedValuesSchema.shape).map(
  ([field, schema]) =>
    [
      field as keyof DerivedValues,
      schema === storedUnits ? (v: number) => v <= INT4_MAX : (v: number) => v < MONEY_LIMIT,
    ] as const,
);

/**
 * Whether ZDerivedValuesSchema accepts `values`, without building a parse result: a spread over
 * 5,000 records checks every one, and the schema's parse cost some 6 µs a record. Callers parse
 * with the schema only when this says no, for its error naming the field.
 */
export function derivedValuesFit(values: DerivedValues): boolean {
  return DERIVED_BOUNDS.every(([field, isWithin]) => {
    const value = values[field];
    return value === null || (Number.isFinite(value) && isWithin(value));
  });
}

export type CreateDemandRecord = z.infer<typeof ZCreateDemandRecordSchema>;

export const LIST_LIMIT_DEFAULT = 1000;
export const LIST_LIMIT_MAX = 5000;

/**
 * A query parameter that takes one value: `?limit=1&limit=2` is refused, never read as NaN or
 * as one of the two.
 */
export function singleParam<S extends z.ZodType>(schema: S) {
  return z.preprocess((value, context) => {
    if (!Array.isArray(value)) return value;
    context.addIssue({ code: 'custom', message: 'must be given once' });
    return z.NEVER;
  }, schema);
}

/** A whole-number query parameter within [min, max]. */
export function intParam(bounds: { min: number; max: number; default: number }) {
  return singleParam(
    z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(bounds.min, { error: bounds.min === 0 ? 'must be 0 or more' : `must be at least ${bounds.min}` })
      .max(bounds.max, { error: `must be at most ${bounds.max}` })
      .default(bounds.default),
  );
}

/** A text query parameter of at most `max` characters. */
export const textParam = (max: number) =>
  singleParam(
    z
      .string({ error: 'must be text' })
      .trim()
      .max(max, { error: `must be at most ${max} characters` })
      .optional(),
  );

/** Which client's data an admin looks at (lib/access narrowToContext). */
export const ZClientContextParam = textParam(50);

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

const ZDateParam = singleParam(
  z
    .string({ error: 'must be a date as yyyymmdd or yyyy-mm-dd' })
    .regex(/^(\d{8}|\d{4}-\d{2}-\d{2})$/, { error: 'must be a date as yyyymmdd or yyyy-mm-dd' })
    .transform((value) => value.replaceAll('-', ''))
    .refine((value) => parseTimeSeriesSk(value) !== null, {
      error: 'must be a date as yyyymmdd or yyyy-mm-dd',
    })
    .optional(),
);

/**
 * A week: the yyyy-mm-dd of its Sunday, as the records name their weeks (a day inside a week is
 * refused rather than moved, so a link never means another week than it says).
 */
export const ZSundaySchema = z
  .string({ error: 'must be a Sunday as yyyy-mm-dd' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a Sunday as yyyy-mm-dd' })
  .refine((value) => parseTimeSeriesSk(value.replaceAll('-', '')) !== null, {
    error: 'must be a real date as yyyy-mm-dd',
  })
  .refine((value) => isSunday(new Date(`${value}T00:00:00Z`)), {
    error: 'must be a Sunday (weeks start on Sunday)',
  });

export const ZSundayParam = singleParam(ZSundaySchema.optional());

export const ZListDemandRecordsQuerySchema = z.object({
  limit: intParam({ min: 1, max: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT }),
  nextToken: singleParam(
    z
      .string({ error: 'is not a valid page token' })
      .max(500, { error: 'is not a valid page token' })
      .optional(),
  ),
  bu: ZMultiValueParam,
  pf: ZMultiValueParam,
  region: ZMultiValueParam,
  site: ZMultiValueParam,
  class: ZMultiValueParam,
  pid: ZMultiValueParam,
  from: ZDateParam,
  to: ZDateParam,
  search: textParam(100),
  clientContext: ZClientContextParam,
});
export type ListDemandRecordsQuery = z.infer<typeof ZListDemandRecordsQuerySchema>;
