import { BarChart3Icon, NetworkIcon, RadarIcon, ShieldCheckIcon, type LucideIcon } from 'lucide-react';

/**
 * The sidebar (spec §2). `allowedGroups` repeats the route table's access rules so a user only
 * sees the screens they may open; routes.tsx enforces them.
 */
export type NavLink = {
  kind: 'link';
  label: string;
  to: string;
  icon: LucideIcon;
  allowedGroups: readonly string[];
};
/** Shown with a Coming Soon badge; choosing it explains instead of navigating. */
export type NavComingSoon = Omit<NavLink, 'kind'> & { kind: 'coming-soon' };
export type NavGroup = Omit<NavLink, 'kind'> & {
  kind: 'group';
  children: ReadonlyArray<{ label: string; to: string }>;
};
export type NavItem = NavLink | NavComingSoon | NavGroup;

export const NAV_ITEMS: readonly NavItem[] = [
  {
    kind: 'link',
    label: 'Demand planning',
    to: '/demand-planning',
    icon: BarChart3Icon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'link',
    label: 'Supply chain optimization',
    to: '/optichain',
    icon: NetworkIcon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'coming-soon',
    label: 'Quality control',
    to: '/qpoint',
    icon: ShieldCheckIcon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'group',
    label: 'Control tower',
    to: '/control-tower',
    icon: RadarIcon,
    allowedGroups: ['admin', 'circor'],
    children: [
      { label: 'Forecast Acc. Metrics', to: '/control-tower/forecast-accuracy-metrics' },
      { label: 'Inventory Metrics', to: '/control-tower/inventory-metrics' },
      { label: 'S&D Match Trend', to: '/control-tower/sd-match-trend' },
      { label: 'Demand Planning Review', to: '/demand-planning-review' },
    ],
  },
];

export const COMING_SOON_MESSAGE = 'This feature is coming soon!';

function isUnder(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Whether an item shows as the current one; demand planning also counts for '/' (spec §2). */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/demand-planning' && pathname === '/') return true;
  if (item.kind === 'group')
    return isUnder(pathname, item.to) || item.children.some((c) => isUnder(pathname, c.to));
  return isUnder(pathname, item.to);
}

export function isNavChildActive(to: string, pathname: string): boolean {
  return isUnder(pathname, to);
}

export function visibleNavItems(groups: readonly string[]): NavItem[] {
  return NAV_ITEMS.filter((item) => item.allowedGroups.some((g) => groups.includes(g)));
}
