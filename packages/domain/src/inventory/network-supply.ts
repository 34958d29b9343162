import type { PolicyWeek } from './simulate';

/**
 * Projected supply from the network plan (docs/inventory.md, "Supply from the network plan"):
 * the latest baseline optimisation run ships, per customer region, product family and period,
 * some share of the demand it was given (all of it unless capacity ran short). A product's week
 * in a planned period is supplied that share of its planned demand.
 */

export type PlanCell = { region: string; family: string; period: string };
const cellKey = (cell: PlanCell): string => `${cell.region}|${cell.family}|${cell.period}`;

/**
 * Served share of each planned cell: units shipped from DCs to the region / (shipped + unmet), to
 * 4 decimals.
 * Cells the plan had no demand for are absent (it ships nothing there).
 */
export function servedShares(
  outbound: ReadonlyArray<PlanCell & { units: number }>,
  unmet: ReadonlyArray<PlanCell & { units: number }>,
): Map<string, number> {
  const served = new Map<string, number>();
  const missed = new Map<string, number>();
  for (const flow of outbound) served.set(cellKey(flow), (served.get(cellKey(flow)) ?? 0) + flow.units);
  for (const cell of unmet) missed.set(cellKey(cell), (missed.get(cellKey(cell)) ?? 0) + cell.units);
  const shares = new Map<string, number>();
  for (const key of new Set([...served.keys(), ...missed.keys()])) {
    const shipped = served.get(key) ?? 0;
    const demand = shipped + (missed.get(key) ?? 0);
    // To 4 decimals: sums of flows in another order must not move a rounded unit.
    if (demand > 0) shares.set(key, Math.min(1, Math.round((shipped / demand) * 1e4) / 1e4));
  }
  return shares;
}

export function servedShareOf(shares: ReadonlyMap<string, number>, cell: PlanCell): number | undefined {
  return shares.get(cellKey(cell));
}

/**
 * The policy's weeks with supply taken from the plan where it has a share: receipts = planned
 * demand × share (whole units, rounded), lost = demand − receipts. Weeks without a share keep
 * the order-up-to policy's receipts and lost demand. The network model holds no stock at DCs, so
 * a week's supply is what the plan ships that week, not a replenishment of stock.
 */
export function withNetworkSupply(
  weeks: readonly PolicyWeek[],
  shareOfWeek: (week: number) => number | undefined,
): PolicyWeek[] {
  return weeks.map((week, index) => {
    const share = shareOfWeek(index);
    if (share === undefined) return week;
    const receipts = Math.round(week.demand * share);
    return { ...week, receipts, lost: week.demand - receipts };
  });
}
