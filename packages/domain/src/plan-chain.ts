/**
 * The plan chain (architecture note, "Data and plan semantics"):
 *   baseline = Ensemble_Fcst_Units
 *   Prelim   = Rev_Pln_Ovrd_Units if set, else round(baseline × (1 + Rev_Pln_Ovrd_Percent / 100))
 *   Final    = SOP_Pln_Ovrd_Units if set, else round(Prelim × (1 + SOP_Pln_Ovrd_Percent / 100))
 *   Delta    = Final − Prelim
 * Money is units × unit cost (cost) or units × unit price (revenue), rounded to cents.
 * A missing percent means no change; a missing baseline leaves the plan empty unless units are set.
 */
export type PlanInputs = {
  ensembleUnits: number | null;
  revOverridePercent: number | null;
  revOverrideUnits: number | null;
  sopOverridePercent: number | null;
  sopOverrideUnits: number | null;
  unitCost: number;
  unitPrice: number;
};

export type PlanOutputs = {
  prelimUnits: number | null;
  prelimCost: number | null;
  prelimRevenue: number | null;
  finalUnits: number | null;
  finalCost: number | null;
  finalRevenue: number | null;
  deltaUnits: number | null;
  deltaCost: number | null;
  deltaRevenue: number | null;
};

/** Rounds half up to cents; toPrecision first so 3.015 (301.4999… in binary) still becomes 3.02. */
export function roundToCents(value: number): number {
  return Math.round(Number((value * 100).toPrecision(12))) / 100;
}

function applyPercent(units: number | null, percent: number | null): number | null {
  if (units === null) return null;
  return Math.round(units * (1 + (percent ?? 0) / 100));
}

function money(units: number | null, unitAmount: number): number | null {
  return units === null ? null : roundToCents(units * unitAmount);
}

export function derivePlan(input: PlanInputs): PlanOutputs {
  const prelimUnits = input.revOverrideUnits ?? applyPercent(input.ensembleUnits, input.revOverridePercent);
  const finalUnits = input.sopOverrideUnits ?? applyPercent(prelimUnits, input.sopOverridePercent);
  const prelimCost = money(prelimUnits, input.unitCost);
  const prelimRevenue = money(prelimUnits, input.unitPrice);
  const finalCost = money(finalUnits, input.unitCost);
  const finalRevenue = money(finalUnits, input.unitPrice);
  const hasBoth = prelimUnits !== null && finalUnits !== null;
  return {
    prelimUnits,
    prelimCost,
    prelimRevenue,
    finalUnits,
    finalCost,
    finalRevenue,
    deltaUnits: hasBoth ? finalUnits - prelimUnits : null,
    deltaCost: hasBoth ? roundToCents(finalCost! - prelimCost!) : null,
    deltaRevenue: hasBoth ? roundToCents(finalRevenue! - prelimRevenue!) : null,
  };
}
