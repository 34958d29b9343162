import { z } from 'zod';
import type { PlanCycle, PlanCyclePreview, QuarterTotals } from '../plan-cycle';
import { defineEndpoint } from './endpoint';

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

/** Plan cycles (issue 11): publish Final → P1 (and P1 → P2) as a plan version; list the versions. */
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
};
