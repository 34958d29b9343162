import { z } from 'zod';
import type { ForecastAccuracy, ForecastMemberWeight, ForecastRun } from '../forecast-run';
import { INT4_MAX, ZPidSchema, intParam } from '../demand-record.schema';
import { defineEndpoint } from './endpoint';

const ZCount = z.number().int().min(0);

export const ZForecastRun = z.strictObject({
  id: z.number().int().min(1),
  status: z.enum(['running', 'succeeded', 'failed']),
  requestedBy: z.string(),
  totalProducts: ZCount,
  processedProducts: ZCount,
  updatedRecords: ZCount,
  progressPercent: z.number().int().min(0).max(100),
  error: z.string().nullable(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
}) satisfies z.ZodType<ForecastRun>;

/** Run ids are serial (int4): a larger one names no run and must not reach the query. */
export const ZForecastRunParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, { error: 'must be a number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'must be at least 1' })
        .max(INT4_MAX, { error: `must be at most ${INT4_MAX}` }),
    ),
});

export const ZForecastMemberWeight = z.strictObject({
  model: z.string(),
  window: z.number().int().min(1).nullable(),
  weight: z.number().min(0).max(1),
}) satisfies z.ZodType<ForecastMemberWeight>;

export const ZForecastAccuracy = z.strictObject({
  pid: z.string(),
  runId: z.number().int().min(1),
  model: z.string(),
  demandClass: z.string(),
  backtestModel: z.string(),
  mape: z.number().nullable(),
  bias: z.number().nullable(),
  historyWeeks: ZCount,
  computedAt: z.iso.datetime(),
  members: z.array(ZForecastMemberWeight),
  quantiles: z
    .strictObject({
      levels: z.array(z.number().gt(0).lt(1)),
      mean: z.array(z.number()),
      values: z.array(z.array(z.number())),
    })
    .nullable(),
}) satisfies z.ZodType<ForecastAccuracy>;

export const ZForecastAccuracyParams = z.object({ pid: ZPidSchema });

export const ZRecentForecastRunsQuery = z.object({ limit: intParam({ min: 1, max: 50, default: 5 }) });

/** Forecast runs (admins): start one in the background, follow its progress, list recent ones; and a product's accuracy from its latest run (any signed-in user, own clients only). */
export const forecastRunEndpoints = {
  start: defineEndpoint({
    method: 'POST',
    path: '/api/forecast/runs',
    access: 'admin',
    summary: 'Starts a forecast run in the background; 409 BUSY while another one runs',
    status: 202,
    response: { data: ZForecastRun },
  }),
  preview: defineEndpoint({
    method: 'GET',
    path: '/api/forecast/runs/preview',
    access: 'admin',
    summary:
      'What a run would rewrite now: the products with sales history and their future records (the confirmation before Run Forecast)',
    response: {
      data: z.strictObject({ products: z.number().int().min(0), records: z.number().int().min(0) }),
    },
  }),
  listRecent: defineEndpoint({
    method: 'GET',
    path: '/api/forecast/runs',
    access: 'admin',
    summary: 'The most recent forecast runs, newest first',
    query: ZRecentForecastRunsQuery,
    response: { data: z.array(ZForecastRun) },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/forecast/runs/:id',
    access: 'admin',
    summary: 'One forecast run and its progress',
    params: ZForecastRunParams,
    response: { data: ZForecastRun },
  }),
  accuracy: defineEndpoint({
    method: 'GET',
    path: '/api/forecast/accuracy/:pid',
    access: 'signed-in',
    summary:
      "A product's back-test accuracy from its latest forecast run, with the ensemble's members and weights; 404 when it has none or belongs to another client",
    params: ZForecastAccuracyParams,
    response: { data: ZForecastAccuracy },
  }),
};
