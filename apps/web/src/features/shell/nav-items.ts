import {
  BarChart3Icon,
  DatabaseIcon,
  HomeIcon,
  NetworkIcon,
  RadarIcon,
  ShieldCheckIcon,
  WarehouseIcon,
  type LucideIcon,
} from 'lucide-react';

/**
 * The sidebar (spec §2). `allowedGroups` repeats the route table's access rules so a user only
 * sees the screens they may open; routes.tsx enforces them. Each page has one entry: the Control
 * tower group's own row opens and closes the group (its default worksheet is the Demand Planning
 * Review child), and becomes a link only in the narrow form, where the children are hidden.
 */
export type NavLink = {
  kind: 'link';
  labelKey: string;
  to: string;
  icon: LucideIcon;
  allowedGroups: readonly string[];
};
/** Shown with a Coming Soon badge; choosing it explains instead of navigating. */
export type NavComingSoon = Omit<NavLink, 'kind'> & { kind: 'coming-soon' };
export type NavGroup = Omit<NavLink, 'kind'> & {
  kind: 'group';
  children: ReadonlyArray<{ labelKey: string; to: string }>;
};
export type NavItem = NavLink | NavComingSoon | NavGroup;

export const NAV_ITEMS: readonly NavItem[] = [
  // A customer's home screen; an admin's home is Demand planning, already listed.
  {
    kind: 'link',
    labelKey: 'shell:sidebar.home',
    to: '/circor',
    icon: HomeIcon,
    allowedGroups: ['circor'],
  },
  {
    kind: 'link',
    labelKey: 'shell:nav.demandPlanning',
    to: '/demand-planning',
    icon: BarChart3Icon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'link',
    labelKey: 'inventory:nav',
    to: '/inventory-planning',
    icon: WarehouseIcon,
    allowedGroups: ['admin', 'circor'],
  },
  {
    kind: 'link',
    labelKey: 'shell:nav.optimization',
    to: '/optichain',
    icon: NetworkIcon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'coming-soon',
    labelKey: 'shell:nav.quality',
    to: '/qpoint',
    icon: ShieldCheckIcon,
    allowedGroups: ['admin'],
  },
  {
    kind: 'group',
    labelKey: 'shell:nav.controlTower',
    to: '/control-tower',
    icon: RadarIcon,
    allowedGroups: ['admin', 'circor'],
    children: [
      { labelKey: 'shell:nav.forecastAccuracy', to: '/control-tower/forecast-accuracy-metrics' },
      { labelKey: 'shell:nav.inventoryMetrics', to: '/control-tower/inventory-metrics' },
      { labelKey: 'shell:nav.sdMatchTrend', to: '/control-tower/sd-match-trend' },
      { labelKey: 'shell:nav.planningReview', to: '/demand-planning-review' },
    ],
  },
  {
    kind: 'link',
    labelKey: 'data:nav',
    to: '/data',
    icon: DatabaseIcon,
    allowedGroups: ['admin'],
  },
];

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
