import type { PlanOutputField } from './demand-record-fields';

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

/** The money rule: units valued at a unit cost or unit price, to the cent; no units, no money. */
export function moneyOf(units: number | null, unitAmount: number): number | null {
  return units === null ? null : roundToCents(units * unitAmount);
}

/** The record field each plan output is stored as (the catalogue's plan outputs, demand-record-fields.ts). */
export const PLAN_OUTPUT_FIELD_OF = {
  prelimUnits: 'Prelim_Pln_Units',
  prelimCost: 'Prelim_Pln_Cost',
  prelimRevenue: 'Prelim_Pln_Rev_Dlrs',
  finalUnits: 'Final_Pln_Units',
  finalCost: 'Final_Bk_Pln_Cost',
  finalRevenue: 'Final_Pln_Rev_Dlrs',
  deltaUnits: 'Delta_Prelim_to_Final_Pln_Units',
  deltaCost: 'Delta_Prelim_to_Final_Pln_Cost',
  deltaRevenue: 'Delta_Prelim_to_Final_Pln_Rev_Dlrs',
} as const satisfies Record<keyof PlanOutputs, PlanOutputField>;

export function derivePlan(input: PlanInputs): PlanOutputs {
  const prelimUnits = input.revOverrideUnits ?? applyPercent(input.ensembleUnits, input.revOverridePercent);
  const finalUnits = input.sopOverrideUnits ?? applyPercent(prelimUnits, input.sopOverridePercent);
  const prelimCost = moneyOf(prelimUnits, input.unitCost);
  const prelimRevenue = moneyOf(prelimUnits, input.unitPrice);
  const finalCost = moneyOf(finalUnits, input.unitCost);
  const finalRevenue = moneyOf(finalUnits, input.unitPrice);
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
