import { z } from 'zod';
import type { DashboardMetrics, SummaryStats } from '../planning-grid';
import { defineEndpoint } from './endpoint';

const ZFiniteNumber = z.number().refine(Number.isFinite);

export const ZDashboardMetrics = z.strictObject({
  lastPublishValue: ZFiniteNumber,
  currentPublishValue: ZFiniteNumber,
  quarterChange: ZFiniteNumber,
  yearOverYearChange: ZFiniteNumber,
  quarter: z.string().regex(/^\d{4}-Q[1-4]$/),
  asOf: z.iso.date(),
}) satisfies z.ZodType<DashboardMetrics>;

const ZCount = z.number().int().min(0);
export const ZSummaryStats = z.strictObject({
  totalSkus: ZCount,
  modifiedToday: ZCount,
  pendingReview: ZCount,
  netImpact: ZFiniteNumber,
  positiveOverrides: ZCount,
  negativeOverrides: ZCount,
}) satisfies z.ZodType<SummaryStats>;

/** An admin may look at one client's figures; a customer's context can only narrow (never widen). */
const ZContextQuery = z.object({ clientContext: z.string().max(50).optional() });

/** Spec §3, §7: the Financial Dashboard and the Summary block. */
export const dashboardEndpoints = {
  metrics: defineEndpoint({
    method: 'GET',
    path: '/api/dashboard-metrics',
    access: 'signed-in',
    summary: 'Publish values and revenue changes of the current quarter',
    query: ZContextQuery,
    response: { data: ZDashboardMetrics },
  }),
  summary: defineEndpoint({
    method: 'GET',
    path: '/api/summary-stats',
    access: 'signed-in',
    summary: 'Counts of products, edits and overrides, and the net impact of the plan',
    query: ZContextQuery,
    response: { data: ZSummaryStats },
  }),
};
