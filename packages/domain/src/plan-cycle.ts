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
