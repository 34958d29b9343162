/** Plan totals of one fiscal quarter (yyyy-Qn): units, cost and revenue in dollars. */
export type QuarterTotals = { quarter: string; units: number; cost: number; revenue: number };

/**
 * One published plan version of one client (POST/GET /api/plan-cycles): the Final plan of its
 * records as it stood when the cycle was published, which became their P1.
 */
export type PlanCycle = {
  id: number;
  clientId: string;
  /** The cycle's week, e.g. '2026-W47'. */
  cycle: string;
  label: string;
  publishedAt: string;
  publishedBy: string;
  recordCount: number;
  units: number;
  cost: number;
  revenue: number;
  quarters: QuarterTotals[];
};

/** What a publish would write now, per client of the scope (the confirmation dialog shows it). */
export type PlanCyclePreview = {
  clientId: string;
  recordCount: number;
  units: number;
  cost: number;
  revenue: number;
  quarters: QuarterTotals[];
};

/**
 * The plan sent out (docs/data-integration.md "The plan, sent out"): one row per product and week
 * with the Final figures of the client's latest published version, in this column order. `Change`
 * is `upsert` (take these figures) or `delete` (the product-week left the plan; figures 0).
 */
export const CONSENSUS_PLAN_COLUMNS = [
  'Client',
  'PID',
  'Week',
  'Units',
  'Revenue',
  'Cost',
  'Plan Version',
  'Version Label',
  'Published At',
  'Change',
] as const;

/** The first day of the fiscal (calendar) quarter of `week`: the plan sent out starts there. */
export function quarterStartOf(week: Date): Date {
  return new Date(Date.UTC(week.getUTCFullYear(), Math.floor(week.getUTCMonth() / 3) * 3, 1));
}
