import type { DrillDown, ViewLevel } from '@ps/domain';

/** Catalogue keys of the View Level dropdown's labels (spec §2). */
export const VIEW_LEVEL_LABEL_KEYS: Record<ViewLevel, string> = {
  none: 'planning:viewLevel.none',
  sku: 'planning:viewLevel.sku',
  category: 'planning:viewLevel.category',
  business_unit: 'planning:viewLevel.businessUnit',
};

/** Catalogue keys of the Drill Down dropdown's labels (spec §2). */
export const DRILL_DOWN_LABEL_KEYS: Record<DrillDown, string> = {
  none: 'planning:drillDown.none',
  weekly: 'planning:drillDown.weekly',
  monthly: 'planning:drillDown.monthly',
  quarterly: 'planning:drillDown.quarterly',
  yearly: 'planning:drillDown.yearly',
};

/**
 * Edits are allowed on original records only: an aggregated row stands for many records and we do
 * not spread an edit across them.
 */
export function isEditableView(viewLevel: ViewLevel, drillDown: DrillDown): boolean {
  return viewLevel === 'none' && drillDown === 'none';
}
