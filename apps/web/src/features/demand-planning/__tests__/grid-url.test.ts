import { describe, expect, it } from 'vitest';
import { gridUrlOf, parseGridUrl, type GridUrlState } from '../utils/grid-url';

describe('grid URL state', () => {
  it('round-trips a view with filters, sort and page', () => {
    const state: GridUrlState = {
      viewLevel: 'category',
      drillDown: 'quarterly',
      bu: ['Industrial Valves', 'Unassigned'],
      pf: [],
      region: ['EMEA'],
      search: 'PRD-0004',
      sort: { field: 'Final_Pln_Rev_Dlrs', dir: 'desc' },
      pageIndex: 2,
      pageSize: 50,
    };
    const url = gridUrlOf(state).toString();
    expect(url).toBe(
      'view=category&drill=quarterly&bu=Industrial+Valves%2CUnassigned&region=EMEA&q=PRD-0004&sortBy=Final_Pln_Rev_Dlrs&sortDir=desc&page=3&size=50',
    );
    expect(parseGridUrl(new URLSearchParams(url))).toEqual(state);
  });

  it('ignores what the grid does not offer, so a stale link still opens', () => {
    expect(parseGridUrl(new URLSearchParams('view=galaxy&drill=daily&page=-2&size=7&sortBy=a;b'))).toEqual({
      bu: [],
      pf: [],
      region: [],
      search: '',
      sort: null,
      pageIndex: 0,
    });
  });

  it('carries the time-phased View and leaves the default table out', () => {
    const base = { bu: [], pf: [], region: [], search: '', sort: null, pageIndex: 0 } satisfies GridUrlState;
    expect(gridUrlOf({ ...base, layout: 'time-phased', viewLevel: 'sku' }).toString()).toBe(
      'layout=time-phased&view=sku',
    );
    expect(gridUrlOf({ ...base, layout: 'table' }).toString()).toBe('');
    expect(parseGridUrl(new URLSearchParams('layout=time-phased')).layout).toBe('time-phased');
    expect(parseGridUrl(new URLSearchParams('layout=pivot')).layout).toBeUndefined();
  });

  it('carries the period: named unless the horizon, fixed weeks as from and to', () => {
    const base = { bu: [], pf: [], region: [], search: '', sort: null, pageIndex: 0 } satisfies GridUrlState;
    expect(gridUrlOf({ ...base, period: 'horizon' }).toString()).toBe('');
    expect(gridUrlOf({ ...base, period: 'history' }).toString()).toBe('period=history');
    const fixed = { ...base, period: { from: '2026-11-22', to: null } } satisfies GridUrlState;
    expect(gridUrlOf(fixed).toString()).toBe('from=2026-11-22');
    expect(parseGridUrl(gridUrlOf(fixed))).toEqual(fixed);
    expect(parseGridUrl(new URLSearchParams('period=all')).period).toBe('all');
    // Any day stands for its week; ends the wrong way round are swapped; a bad day is ignored.
    expect(parseGridUrl(new URLSearchParams('from=2027-01-06&to=2026-11-24')).period).toEqual({
      from: '2026-11-22',
      to: '2027-01-03',
    });
    expect(parseGridUrl(new URLSearchParams('from=2026-02-30&period=later')).period).toBeUndefined();
  });

  it('names the saved view a state was opened from, and ignores a malformed id', () => {
    const base = { bu: [], pf: [], region: [], search: '', sort: null, pageIndex: 0 } satisfies GridUrlState;
    expect(gridUrlOf({ ...base, viewLevel: 'sku', savedViewId: 12 }).toString()).toBe(
      'view=sku&savedView=12',
    );
    expect(parseGridUrl(new URLSearchParams('savedView=12')).savedViewId).toBe(12);
    for (const bad of ['0', '-3', '1.5', 'abc', ''])
      expect(parseGridUrl(new URLSearchParams(`savedView=${bad}`)).savedViewId).toBeUndefined();
  });
});
