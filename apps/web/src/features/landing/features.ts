import { BarChart3Icon, LockKeyholeIcon, TrendingUpIcon, ZapIcon, type LucideIcon } from 'lucide-react';

/** The landing page's four feature cards (spec §2). */
export const LANDING_FEATURES: ReadonlyArray<{
  icon: LucideIcon;
  title: string;
  description: string;
  points: readonly string[];
}> = [
  {
    icon: BarChart3Icon,
    title: 'Advanced Analytics',
    description: 'See plans at every level of your organisation, from product to business unit.',
    points: ['Multi-level roll-ups', 'Cycle-to-cycle comparison', 'Interactive charts'],
  },
  {
    icon: TrendingUpIcon,
    title: 'Demand Forecasting',
    description: 'Statistical forecasts per product and week, with planner overrides and reasons.',
    points: ['Ensemble forecasts', 'Override audit trail', 'Weekly to yearly views'],
  },
  {
    icon: ZapIcon,
    title: 'Real-time Optimization',
    description: 'Adjust plans and see the financial impact of every change at once.',
    points: ['Instant plan recalculation', 'Revenue and cost impact', 'Publish plan cycles'],
  },
  {
    icon: LockKeyholeIcon,
    title: 'Enterprise Security',
    description: 'Single sign-on with your identity provider and role-based access per screen.',
    points: ['Authorization code + PKCE', 'Group-based permissions', 'Separated client data'],
  },
];
