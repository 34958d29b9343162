import { z } from 'zod';
import {
  EXCEPTION_KINDS,
  MAX_LAG,
  MIN_LAG,
  type AccuracyReport,
  type ExceptionRow,
  type Worksheet,
  type WorksheetFilters,
} from '../control-tower';
import { defineEndpoint } from './endpoint';
import { ZForecastMemberWeight } from './forecast-runs.contract';

const ZAmount = z.number().refine(Number.isFinite);
const ZNullableAmount = ZAmount.nullable();
const ZQuarter = z.string().regex(/^\d{4}-Q[1-4]$/);
const ZMoney = z.strictObject({ revenue: ZAmount, cost: ZAmount });
const ZName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });
const clientContext = z.string().max(50).optional();

export const ZWorksheetFilters = z.strictObject({
  companies: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  businessUnits: z.array(
    z.strictObject({ id: z.string(), name: z.string(), code: z.string(), companyId: z.string() }),
  ),
  productFamilies: z.array(
    z.strictObject({ id: z.string(), name: z.string(), companyId: z.string(), businessUnitId: z.string() }),
  ),
}) satisfies z.ZodType<WorksheetFilters>;

const ZCycle = z.strictObject({ label: z.string(), cycle: z.string(), publishedAt: z.iso.datetime() });
const series = ZMoney.nullable();

export const ZWorksheet = z.strictObject({
  currentQuarter: ZQuarter,
  asOf: z.iso.date(),
  currentCycle: ZCycle.nullable(),
  previousCycle: ZCycle.nullable(),
  quarters: z.array(
    z.strictObject({
      quarter: ZQuarter,
      coverage: z.strictObject({ weeks: z.number().int().min(0), of: z.number().int().min(13).max(14) }),
      actualBooking: series,
      prelimDemandPlan: series,
      finalDemandPlan: series,
      marketingForecast: series,
      pubEnsembleForecast: series,
      p1FinalDemandPlan: series,
      p1MarketingForecast: series,
    }),
  ),
  tracker: z.array(
    z.strictObject({
      bu: z.string(),
      pud: z.string(),
      pf: z.string(),
      quarter: ZQuarter,
      finalUnits: ZAmount,
      final: ZMoney,
      p1Units: ZAmount,
      p1: ZMoney,
      marketing: ZMoney.nullable(),
    }),
  ),
}) satisfies z.ZodType<Worksheet>;

export const ZWorksheetQuery = z.object({
  clientContext,
  company: ZName,
  businessUnit: ZName,
  productFamily: ZName.optional(),
  /** Product ID Drill Down: one product instead of a family. */
  pid: ZName.optional(),
});

export const ZProductSearchQuery = z.object({
  clientContext,
  company: ZName,
  search: z.string().trim().max(100, { error: 'must be at most 100 characters' }).optional(),
});

const ZMetrics = z.strictObject({
  accuracy: ZNullableAmount,
  wape: ZNullableAmount,
  mape: ZNullableAmount,
  bias: ZNullableAmount,
  mase: ZNullableAmount,
  pairs: z.number().int().min(0),
});
const ZFva = z.strictObject({
  naive: ZNullableAmount,
  statistical: ZNullableAmount,
  prelim: ZNullableAmount,
  final: ZNullableAmount,
});
const ZAccuracyRow = z.strictObject({
  level: z.enum(['businessUnit', 'family', 'product']),
  bu: z.string(),
  pf: z.string().nullable(),
  pid: z.string().nullable(),
  model: z.string().nullable(),
  members: z.array(ZForecastMemberWeight).nullable(),
  metrics: ZMetrics,
  errorValue: ZAmount,
  fva: ZFva,
});

export const ZAccuracyReport = z.strictObject({
  lag: z.number().int(),
  fromWeek: z.iso.date().nullable(),
  toWeek: z.iso.date().nullable(),
  snapshots: z.number().int().min(0),
  overall: ZMetrics,
  alerts: z.number().int().min(0),
  fva: ZFva,
  byBusinessUnit: z.array(ZAccuracyRow),
  byFamily: z.array(ZAccuracyRow),
  byProduct: z.array(ZAccuracyRow),
  productCount: z.number().int().min(0),
  byReason: z.array(
    z.strictObject({ reasonCode: z.string().nullable(), pairs: z.number().int(), fva: ZFva }),
  ),
}) satisfies z.ZodType<AccuracyReport>;

export const ZAccuracyQuery = z.object({
  clientContext,
  lag: z.coerce
    .number({ error: 'must be a whole number of weeks' })
    .int({ error: 'must be a whole number of weeks' })
    .min(MIN_LAG, { error: `must be at least ${MIN_LAG}` })
    .max(MAX_LAG, { error: `must be at most ${MAX_LAG}` })
    .default(1),
});

export const ZExceptionRow = z.strictObject({
  pid: z.string(),
  bu: z.string(),
  pf: z.string(),
  kinds: z.array(z.enum(EXCEPTION_KINDS)),
  errorValue: ZAmount,
  recentBias: ZNullableAmount,
  overrideCost: ZNullableAmount,
  weeksOutside: z.number().int().min(0),
  score: ZAmount,
}) satisfies z.ZodType<ExceptionRow>;

export const ZControlTowerHome = z.strictObject({
  currentQuarter: ZQuarter,
  /** Final demand plan revenue of the current and the next three quarters. */
  planRevenue: ZAmount,
  planCost: ZAmount,
  /** Lag-1 accuracy of the final plan (100 − WAPE). */
  accuracy: ZNullableAmount,
  bias: ZNullableAmount,
  alerts: z.number().int().min(0),
  lastCycle: z
    .strictObject({
      label: z.string(),
      publishedAt: z.iso.datetime(),
      publishedBy: z.string(),
      revenue: ZAmount,
    })
    .nullable(),
});

/** Control tower: worksheet, accuracy, exceptions and the customer home's figures. */
export const controlTowerEndpoints = {
  filters: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/filters',
    access: 'signed-in',
    summary: "Companies, business units and product families of the caller's data",
    query: z.object({ clientContext }),
    response: { data: ZWorksheetFilters },
  }),
  worksheet: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/worksheet',
    access: 'signed-in',
    summary: 'Demand Planning Review worksheet: each plan by quarter and the delta tracker cells',
    query: ZWorksheetQuery,
    response: { data: ZWorksheet },
  }),
  products: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/products',
    access: 'signed-in',
    summary: 'Products of a company for the Product ID Drill Down (at most 50, by PID)',
    query: ZProductSearchQuery,
    response: {
      data: z.array(z.strictObject({ pid: z.string(), bu: z.string(), pf: z.string() })),
    },
  }),
  accuracy: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/accuracy',
    access: 'signed-in',
    summary: 'Forecast accuracy and value add at one lag, from the forecast snapshots against actuals',
    query: ZAccuracyQuery,
    response: { data: ZAccuracyReport },
  }),
  exceptions: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/exceptions',
    access: 'signed-in',
    summary: "The exception queue: products that need a planner's eye, ranked",
    query: ZAccuracyQuery,
    response: { data: z.array(ZExceptionRow) },
  }),
  home: defineEndpoint({
    method: 'GET',
    path: '/api/control-tower/home',
    access: 'signed-in',
    summary: "Headline figures of the caller's plan: current plan, accuracy, last cycle",
    query: z.object({ clientContext }),
    response: { data: ZControlTowerHome },
  }),
};
