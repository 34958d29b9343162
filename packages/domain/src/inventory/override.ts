/** Inventory override rules of spec §5: units and percent of the recommended target follow each other. */

export const INVENTORY_REASON_CODES = [
  'Demand Spike',
  'Seasonal Spike',
  'New Launch',
  'Supply Constraint',
  'Big Deal',
  'Promotional Activity',
  'Market Expansion',
  'Risk Mitigation',
  'Other',
] as const;
export type InventoryReasonCode = (typeof INVENTORY_REASON_CODES)[number];

export const MAX_OVERRIDE_PERCENT = 1000;
export const MAX_INVENTORY_COMMENT = 500;
/** Column range of override_oul_units (integer). */
export const MAX_OVERRIDE_UNITS = 2_147_483_647;

/** Half away from zero at the given decimals, steadied against binary noise (0.15 → 0.2). */
function roundHalfUp(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(Number((value * factor).toPrecision(12))) / factor;
}

/** Percent = units / recommended × 100, one decimal; 0 when there is no recommended target. */
export function overridePercentFromUnits(units: number, recommended: number): number {
  if (recommended <= 0) return 0;
  return roundHalfUp((units / recommended) * 100, 1);
}

/** Units = recommended × percent / 100, rounded to whole units. */
export function overrideUnitsFromPercent(percent: number, recommended: number): number {
  return roundHalfUp((recommended * percent) / 100, 0);
}

/** The target the planner ends up with: the override when set, else the recommended OUL. */
export function effectiveTarget(recommended: number, overrideUnits: number | null): number {
  return overrideUnits ?? recommended;
}
