import type { DrillDown, ViewLevel } from '@ps/domain';

/** Labels of the View Level dropdown (spec §2). */
export const VIEW_LEVEL_LABELS: Record<ViewLevel, string> = {
  none: 'None (Show Original Table)',
  sku: 'Product ID Level',
  category: 'Product Family Level',
  business_unit: 'Business Unit Level',
};

/** Labels of the Drill Down dropdown (spec §2). */
export const DRILL_DOWN_LABELS: Record<DrillDown, string> = {
  none: 'None (No Time Grouping)',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

/**
 * Edits are allowed on original records only: an aggregated row stands for many records and we do
 * not spread an edit across them.
 */
export function isEditableView(viewLevel: ViewLevel, drillDown: DrillDown): boolean {
  return viewLevel === 'none' && drillDown === 'none';
}
