import { INVENTORY_REASON_CODES, type InventoryReasonCode } from '@ps/domain';

/** Catalogue keys of the nine reason codes (spec §5), in the order of INVENTORY_REASON_CODES. */
const KEYS = [
  'inventory:reasons.demandSpike',
  'inventory:reasons.seasonalSpike',
  'inventory:reasons.newLaunch',
  'inventory:reasons.supplyConstraint',
  'inventory:reasons.bigDeal',
  'inventory:reasons.promotionalActivity',
  'inventory:reasons.marketExpansion',
  'inventory:reasons.riskMitigation',
  'inventory:reasons.other',
] as const;

/** The catalogue key of a reason code; the code itself is what the API stores. */
export function reasonLabelKey(code: InventoryReasonCode): string {
  return KEYS[INVENTORY_REASON_CODES.indexOf(code)] ?? 'inventory:reasons.other';
}
