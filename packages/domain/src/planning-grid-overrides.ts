import type { DemandRecord } from './demand-record';

/** The override fields of the plan chain's two stages: Revenue (Prelim) and S&OP (Final). */
export const OVERRIDE_STAGES = [
  { percent: 'Rev_Pln_Ovrd_Percent', units: 'Rev_Pln_Ovrd_Units', result: 'Prelim_Pln_Units' },
  { percent: 'SOP_Pln_Ovrd_Percent', units: 'SOP_Pln_Ovrd_Units', result: 'Final_Pln_Units' },
] as const;

export type OverrideField = (typeof OVERRIDE_STAGES)[number]['percent' | 'units'];
export const OVERRIDE_FIELDS: readonly OverrideField[] = OVERRIDE_STAGES.flatMap((s) => [s.percent, s.units]);

export function isOverrideField(field: string): field is OverrideField {
  return (OVERRIDE_FIELDS as readonly string[]).includes(field);
}

/**
 * When a record carries both a percent and a units override at one stage, the plan chain applies
 * the units (plan-chain.ts) and the percent has no effect: this names the field that applies
 * instead of `field`, or null when `field` is the one in effect (or not an override at all).
 */
export function overrideSupersededBy(
  record: Pick<DemandRecord, OverrideField>,
  field: string,
): OverrideField | null {
  const stage = OVERRIDE_STAGES.find((s) => s.percent === field);
  if (!stage) return null;
  return record[stage.percent] !== null && record[stage.units] !== null ? stage.units : null;
}

/**
 * The admin's "an override must carry a reason code" policy: a write breaks it when it sets an
 * override (gives one of the override fields a value) and leaves the record without a reason code.
 * Clearing an override, or a write that touches no override, never needs one.
 */
export function lacksOverrideReason(
  patch: Readonly<Partial<Record<string, unknown>>>,
  reasonCodeAfter: string | null | undefined,
): boolean {
  const setsOverride = OVERRIDE_FIELDS.some((field) => patch[field] !== undefined && patch[field] !== null);
  return setsOverride && !reasonCodeAfter;
}
