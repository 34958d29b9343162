import { BarChart3Icon, LockKeyholeIcon, TrendingUpIcon, ZapIcon, type LucideIcon } from 'lucide-react';

/** The landing page's four feature cards (spec §2), as catalogue keys. */
export const LANDING_FEATURES: ReadonlyArray<{
  icon: LucideIcon;
  titleKey: string;
  descriptionKey: string;
  pointKeys: readonly string[];
}> = [
  {
    icon: BarChart3Icon,
    titleKey: 'landing:analytics.title',
    descriptionKey: 'landing:analytics.description',
    pointKeys: ['landing:analytics.rollUps', 'landing:analytics.cycleComparison', 'landing:analytics.charts'],
  },
  {
    icon: TrendingUpIcon,
    titleKey: 'landing:forecasting.title',
    descriptionKey: 'landing:forecasting.description',
    pointKeys: [
      'landing:forecasting.ensemble',
      'landing:forecasting.auditTrail',
      'landing:forecasting.views',
    ],
  },
  {
    icon: ZapIcon,
    titleKey: 'landing:optimization.title',
    descriptionKey: 'landing:optimization.description',
    pointKeys: [
      'landing:optimization.recalculation',
      'landing:optimization.impact',
      'landing:optimization.publish',
    ],
  },
  {
    icon: LockKeyholeIcon,
    titleKey: 'landing:security.title',
    descriptionKey: 'landing:security.description',
    pointKeys: ['landing:security.pkce', 'landing:security.groups', 'landing:security.separation'],
  },
];
