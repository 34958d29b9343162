import { describe, expect, it } from 'vitest';
import { firstGridRequest, viewRequestOf } from '../utils/first-grid-request';
import { gridQueryParams } from '../utils/grid-query';

const settings = { defaultViewLevel: 'category', defaultDrillDown: 'none', autoSave: false } as const;

describe('the first grid request, computed before the page loads', () => {
  it('asks for the user default view, first page of 100, when nothing is stored or linked', () => {
    const request = firstGridRequest({ search: '', storedPreferences: null, settings });
    expect(gridQueryParams(request!).toString()).toBe(
      'viewLevel=category&drillDown=none&period=horizon&offset=0&limit=100',
    );
  });

  it('lets the link win over stored preferences, which win over the defaults', () => {
    const stored = JSON.stringify({
      pageSize: 50,
      gridHeight: 700,
      viewLevel: 'sku',
      drillDownType: 'monthly',
    });
    expect(firstGridRequest({ search: '', storedPreferences: stored, settings })).toMatchObject({
      viewLevel: 'sku',
      drillDown: 'monthly',
      offset: 0,
      limit: 50,
    });
    const linked = firstGridRequest({
      search: '?view=business_unit&drill=quarterly&page=3&pf=B,A&q=PRD&sortBy=Final_Pln_Units&sortDir=desc',
      storedPreferences: stored,
      settings,
    });
    expect(gridQueryParams(linked!).toString()).toBe(
      'viewLevel=business_unit&drillDown=quarterly&pf=A%2CB&search=PRD&period=horizon&sortBy=Final_Pln_Units&sortDir=desc&offset=100&limit=50',
    );
  });

  it("asks for the link's period: history, all weeks or fixed weeks", () => {
    const periodOf = (search: string) =>
      firstGridRequest({ search, storedPreferences: null, settings })?.period;
    expect(periodOf('?period=history')).toBe('history');
    expect(periodOf('?period=all')).toBe('all');
    expect(periodOf('?from=2026-11-25&to=2027-01-03')).toEqual({ from: '2026-11-22', to: '2027-01-03' });
  });

  it('drops a sort the view does not have, as the page does', () => {
    const request = firstGridRequest({
      search: '?view=business_unit&sortBy=PF',
      storedPreferences: null,
      settings,
    });
    expect(request?.sort).toBeNull();
  });

  it('asks for nothing when the page opens on the time-phased view', () => {
    expect(firstGridRequest({ search: '?layout=time-phased', storedPreferences: null, settings })).toBeNull();
  });

  it('leaves a filter out once its options show it selects everything', () => {
    const selection = { bu: ['X', 'Y'], pf: [], region: [], search: '' };
    const base = {
      viewLevel: 'category',
      drillDown: 'none',
      selection,
      sort: null,
      period: 'horizon',
    } as const;
    expect(viewRequestOf({ ...base, optionCounts: { bu: 0, pf: 0, region: 0 } }).bu).toEqual(['X', 'Y']);
    expect(viewRequestOf({ ...base, optionCounts: { bu: 2, pf: 0, region: 0 } }).bu).toBeUndefined();
  });
});
