import { describe, expect, it } from 'vitest';
import { isNavChildActive, isNavItemActive, NAV_ITEMS, visibleNavItems } from './nav-items';

const byPath = (to: string) => NAV_ITEMS.find((item) => item.to === to)!;

describe('sidebar items', () => {
  it("lists the spec items in order, a customer's Home first and inventory planning after demand planning", () => {
    expect(NAV_ITEMS.map((i) => i.to)).toEqual([
      '/circor',
      '/demand-planning',
      '/inventory-planning',
      '/optichain',
      '/qpoint',
      '/control-tower',
      '/data',
    ]);
  });

  it('marks demand planning active on / and on its own path, but not on the review page', () => {
    const demand = byPath('/demand-planning');
    expect(isNavItemActive(demand, '/')).toBe(true);
    expect(isNavItemActive(demand, '/demand-planning')).toBe(true);
    expect(isNavItemActive(demand, '/demand-planning-review')).toBe(false);
  });

  it('marks the control tower group active on its children, including /demand-planning-review', () => {
    const tower = byPath('/control-tower');
    expect(isNavItemActive(tower, '/control-tower')).toBe(true);
    expect(isNavItemActive(tower, '/control-tower/inventory-metrics')).toBe(true);
    expect(isNavItemActive(tower, '/demand-planning-review')).toBe(true);
    expect(isNavItemActive(tower, '/optichain')).toBe(false);
    expect(isNavChildActive('/control-tower/sd-match-trend', '/control-tower/sd-match-trend')).toBe(true);
  });

  it('shows each user only the screens their groups open', () => {
    expect(visibleNavItems(['admin'])).toHaveLength(6);
    expect(visibleNavItems(['circor']).map((i) => i.to)).toEqual([
      '/circor',
      '/inventory-planning',
      '/control-tower',
    ]);
    expect(visibleNavItems([])).toEqual([]);
  });
});
