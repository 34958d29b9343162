/** Inventory and supply–demand match formulas (docs/metrics.md, "Inventory"). All pure. */

const ratio = (numerator: number, denominator: number): number =>
  denominator === 0 ? 0 : numerator / denominator;

/** Inventory turnover = cost of goods sold over the period / average inventory value. */
export function inventoryTurnover(cogs: number, averageInventoryValue: number): number {
  return ratio(cogs, averageInventoryValue);
}

/** Cycle service level in percent: share of item-weeks with all demand served from stock. */
export function cycleServiceLevel(itemWeeks: number, stockoutWeeks: number): number {
  return itemWeeks === 0 ? 100 : ratio(itemWeeks - stockoutWeeks, itemWeeks) * 100;
}

/** Fill rate in percent: demand served from stock / demand (also the S&D match rate of the projection). */
export function fillRate(demand: number, lost: number): number {
  return demand === 0 ? 100 : ratio(demand - lost, demand) * 100;
}

/** Supply variance in percent = (Σ supply − Σ demand) / Σ demand × 100; positive = oversupply. */
export function supplyVariance(supply: number, demand: number): number {
  return ratio(supply - demand, demand) * 100;
}

/** Demand volatility in percent: demand-weighted coefficient of variation, Σσ / Σμ × 100. */
export function demandVolatility(sumStd: number, sumMean: number): number {
  return ratio(sumStd, sumMean) * 100;
}

/** Optimization score in percent: items whose target lies within [OUL90, OUL98] / items. */
export function optimizationScore(itemsInBand: number, items: number): number {
  return items === 0 ? 100 : ratio(itemsInBand, items) * 100;
}
