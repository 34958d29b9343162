import { z } from 'zod';
import { ZRowId } from './row-id';
import type { PlanCycle, PlanCyclePreview, QuarterTotals } from '../plan-cycle';
import { XLSX_MEDIA_TYPE, defineEndpoint } from './endpoint';

const ZAmount = z.number().refine(Number.isFinite);
const ZCount = z.number().int().min(0);

const ZQuarterTotals = z.strictObject({
  quarter: z.string().regex(/^\d{4}-Q[1-4]$/),
  units: ZAmount,
  cost: ZAmount,
  revenue: ZAmount,
}) satisfies z.ZodType<QuarterTotals>;

const totals = {
  recordCount: ZCount,
  units: ZAmount,
  cost: ZAmount,
  revenue: ZAmount,
  quarters: z.array(ZQuarterTotals),
};

export const ZPlanCycle = z.strictObject({
  id: z.number().int().min(1),
  clientId: z.string(),
  cycle: z.string(),
  label: z.string(),
  publishedAt: z.iso.datetime(),
  publishedBy: z.string(),
  ...totals,
}) satisfies z.ZodType<PlanCycle>;

export const ZPlanCyclePreview = z.strictObject({
  clientId: z.string(),
  ...totals,
}) satisfies z.ZodType<PlanCyclePreview>;

/** An admin may publish or look at one client; without a context, every client they may see. */
const clientContext = z.string().max(50).optional();

export const ZPublishPlanCycleBody = z.strictObject({
  label: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(80, { error: 'must be at most 80 characters' })
    .optional(),
  clientContext,
});

export const ZPlanCyclesQuery = z.object({ clientContext });

/** yyyy-mm-dd, or a date and time with Z or an offset (ISO 8601). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** A day that exists (not 2026-02-30) and a time that parses. */
function isRealTime(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const sameDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && !Number.isNaN(Date.parse(text));
}

/**
 * The plan sent out: the whole plan, or the changes since a version (`sinceVersion`, a plan
 * version id) or since a time (`since`), never both.
 */
export const ZConsensusPlanQuery = z.object({
  sinceVersion: ZRowId.optional(),
  since: z
    .string()
    .max(40, { error: 'must be an ISO 8601 time' })
    .regex(ISO_TIME, { error: 'must be an ISO 8601 time such as 2026-11-15T06:00:00Z, or a date yyyy-mm-dd' })
    .refine(isRealTime, { error: 'is not a real date and time' })
    .optional(),
  clientContext,
});
export type ConsensusPlanQuery = z.infer<typeof ZConsensusPlanQuery>;

/** Plan cycles: publish Final → P1 (and P1 → P2) as a plan version; list the versions. */
export const planCycleEndpoints = {
  preview: defineEndpoint({
    method: 'GET',
    path: '/api/plan-cycles/preview',
    access: 'admin',
    summary: 'The totals by quarter a publish would record now, per client',
    query: ZPlanCyclesQuery,
    response: { data: z.array(ZPlanCyclePreview) },
  }),
  publish: defineEndpoint({
    method: 'POST',
    path: '/api/plan-cycles',
    access: 'admin',
    summary: 'Publishes a plan cycle: Final → P1 and P1 → P2 in one transaction, one plan version per client',
    body: ZPublishPlanCycleBody,
    status: 201,
    response: { data: z.array(ZPlanCycle) },
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/plan-cycles',
    access: 'signed-in',
    summary: "The published plan versions of the caller's clients, newest first",
    query: ZPlanCyclesQuery,
    response: { data: z.array(ZPlanCycle) },
  }),
  consensusPlanCsv: defineEndpoint({
    method: 'GET',
    path: '/api/plan-cycles/consensus-plan.csv',
    access: 'signed-in',
    summary:
      "The consensus plan as CSV: Final units, revenue and cost per product and week of each client's latest published version, from the current quarter on; with sinceVersion or since, only the product-weeks changed since then (removed ones as Change=delete). Headers X-Plan-Version and X-Plan-Published-At name the version to ask since next time",
    query: ZConsensusPlanQuery,
    response: { mediaType: 'text/csv' },
  }),
  consensusPlanXlsx: defineEndpoint({
    method: 'GET',
    path: '/api/plan-cycles/consensus-plan.xlsx',
    access: 'signed-in',
    summary:
      'The consensus plan as an Excel workbook (streamed), the same rows as the CSV, with a sheet saying what it holds',
    query: ZConsensusPlanQuery,
    response: { mediaType: XLSX_MEDIA_TYPE },
  }),
};
