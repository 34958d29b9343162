/**
 * Pub Ensemble Forecast at list price (docs/metrics.md): the statistical forecast of each record
 * valued at its product's unit price and unit cost, rounded to the cent by the SQL function
 * `list_value` (migration 0031), and the demand_week_totals columns that keep their sums.
 * Live code reads this module; migration 0031 keeps its own frozen copy.
 */
export const ENSEMBLE_VALUES = [
  { column: 'ensemble_fcst_rev_dlrs', amount: 'unit_price' },
  { column: 'ensemble_fcst_cost', amount: 'unit_cost' },
] as const;

/** What record row `record` of product row `product` adds to a kept sum (0 without a forecast). */
export const ensembleValue = (record: string, product: string, amount: string): string =>
  `coalesce(list_value(${record}.ensemble_fcst_units, ${product}.${amount}), 0)`;
