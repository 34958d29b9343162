/**
 * A periodic-review order-up-to policy, week by week, with lost sales: at the start of a week the
 * orders due arrive, demand is served from stock (what cannot be served is lost), and at the end of
 * every review week the position (on hand + on order) is raised to the OUL with an order that
 * arrives L weeks later (or after the lead time drawn for it). Used by the demo history and by the supply projection.
 */

export type PolicyWeek = {
  demand: number;
  receipts: number;
  /** Units on hand at the end of the week. */
  onHand: number;
  lost: number;
  /** Units ordered at the end of the week (arriving L weeks later). */
  ordered: number;
};

export type PolicyInput = {
  demand: readonly number[];
  /** The order-up-to level in force at each week's review (a function of the week index). */
  oulAt: (week: number) => number;
  leadTimeWeeks: number;
  /**
   * The lead time of the order placed at the end of a week, when lead times vary (the demo
   * history draws them); absent: every order takes leadTimeWeeks.
   */
  leadTimeOf?: (week: number) => number;
  reviewPeriodWeeks: number;
  initialOnHand: number;
  /** Orders already placed: pipeline[k] arrives at the start of week k. */
  pipeline?: readonly number[];
};

export function simulateOulPolicy(input: PolicyInput): PolicyWeek[] {
  const lead = Math.max(1, Math.round(input.leadTimeWeeks));
  const review = Math.max(1, Math.round(input.reviewPeriodWeeks));
  const arriving = new Map<number, number>();
  input.pipeline?.forEach((units, week) => units > 0 && arriving.set(week, units));
  let onOrder = [...arriving.values()].reduce((s, u) => s + u, 0);
  let onHand = Math.max(0, input.initialOnHand);
  const weeks: PolicyWeek[] = [];
  for (let week = 0; week < input.demand.length; week += 1) {
    const receipts = arriving.get(week) ?? 0;
    arriving.delete(week);
    onOrder -= receipts;
    onHand += receipts;
    const demand = Math.max(0, input.demand[week]!);
    const served = Math.min(onHand, demand);
    onHand -= served;
    let ordered = 0;
    if (week % review === 0) {
      ordered = Math.max(0, Math.round(input.oulAt(week)) - (onHand + onOrder));
      if (ordered > 0) {
        const due = week + (input.leadTimeOf ? Math.max(1, Math.round(input.leadTimeOf(week))) : lead);
        arriving.set(due, (arriving.get(due) ?? 0) + ordered);
        onOrder += ordered;
      }
    }
    weeks.push({ demand, receipts, onHand, lost: demand - served, ordered });
  }
  return weeks;
}

/**
 * σ of weekly demand from the forecast error: root mean square of (actual − forecast) over the
 * weeks where both are known. Falls back to the standard deviation of the actuals when no
 * forecast exists yet (a brand-new item). 0 for no data.
 */
export function forecastErrorSd(actuals: readonly number[], forecasts: ReadonlyArray<number | null>): number {
  let sum = 0;
  let count = 0;
  actuals.forEach((actual, i) => {
    const forecast = forecasts[i];
    if (forecast === null || forecast === undefined) return;
    sum += (actual - forecast) ** 2;
    count += 1;
  });
  if (count > 0) return Math.sqrt(sum / count);
  if (actuals.length < 2) return 0;
  const mean = actuals.reduce((s, v) => s + v, 0) / actuals.length;
  return Math.sqrt(actuals.reduce((s, v) => s + (v - mean) ** 2, 0) / (actuals.length - 1));
}
