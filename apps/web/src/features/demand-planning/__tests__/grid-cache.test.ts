import type { AggregatedRow, GridPage } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { viewKeyOf, withSavedRows } from '../utils/grid-cache';
import { gridQueryParams, nextSortOf, type GridRequest } from '../utils/grid-query';
import { demandRecord } from './demand-record.fixture';

const family = (pf: string, finalUnits: number, extra: Partial<AggregatedRow> = {}): AggregatedRow =>
  ({
    id: `pf:${pf}`,
    viewLevel: 'category',
    drillDown: 'none',
    PF: pf,
    recordCount: 10,
    Final_Pln_Units: finalUnits,
    SOP_Pln_Ovrd_Units: null,
    Rev_Pln_Ovrd_Percent: null,
    SOP_Pln_Ovrd_Percent: null,
    Rank: 2,
    Comments: null,
    Reason_Codes: [],
    last_updated_at: null,
    ...extra,
  }) as AggregatedRow;

const page = (rows: GridPage['rows'], view: Pick<GridPage, 'viewLevel' | 'drillDown'>): GridPage => ({
  rows,
  total: 40,
  offset: 0,
  limit: 100,
  ...view,
});

const params = (request: Partial<GridRequest>): string =>
  gridQueryParams({
    viewLevel: 'category',
    drillDown: 'none',
    period: 'horizon',
    offset: 0,
    limit: 100,
    ...request,
  }).toString();

describe('viewKeyOf', () => {
  it('names the view whatever page and sort of it, and no other view', () => {
    const view = viewKeyOf(params({ region: ['EMEA'] }));
    expect(viewKeyOf(params({ region: ['EMEA'], offset: 200, limit: 50 }))).toBe(view);
    expect(viewKeyOf(params({ region: ['EMEA'], sort: { field: 'Final_Pln_Units', dir: 'desc' } }))).toBe(
      view,
    );
    expect(viewKeyOf(params({}))).not.toBe(view);
    expect(viewKeyOf(params({ region: ['EMEA'], drillDown: 'monthly' }))).not.toBe(view);
    expect(viewKeyOf(params({ region: ['EMEA'], period: 'history' }))).not.toBe(view);
  });
});

describe('withSavedRows', () => {
  it("puts a spread's row in place of its old one on every page of its view, sorted or not", () => {
    const valves = family('Ball Valves', 1200);
    const pumps = family('Pumps', 800);
    const saved = family('Ball Valves', 20_010, { SOP_Pln_Ovrd_Units: 20_010, Reason_Codes: ['Other'] });
    const onPage = page([pumps, valves], { viewLevel: 'category', drillDown: 'none' });
    const sortedParams = params({ sort: { field: 'PF', dir: 'desc' }, offset: 0 });

    const next = withSavedRows(onPage, sortedParams, {
      kind: 'rollup',
      viewParams: viewKeyOf(params({})),
      rows: [saved],
    });

    // Same order, the family's row replaced, the other row the same object (not drawn again).
    expect(next.rows).toEqual([pumps, saved]);
    expect(next.rows[0]).toBe(pumps);
    expect(next.total).toBe(40);
    // The cached page itself is left as it was (the cache holds it until replaced).
    expect(onPage.rows[1]).toBe(valves);
  });

  it('leaves a page of another view alone: the same family under a filter sums other records', () => {
    const onPage = page([family('Ball Valves', 300)], { viewLevel: 'category', drillDown: 'none' });
    const saved = { kind: 'rollup', viewParams: params({}), rows: [family('Ball Valves', 20_010)] } as const;
    expect(withSavedRows(onPage, params({ region: ['EMEA'] }), saved)).toBe(onPage);
    expect(withSavedRows(onPage, params({ period: 'all' }), saved)).toBe(onPage);
  });

  it('answers the page itself when none of its rows was saved', () => {
    const onPage = page([family('Pumps', 800)], { viewLevel: 'category', drillDown: 'none' });
    const saved = { kind: 'rollup', viewParams: params({}), rows: [family('Ball Valves', 20_010)] } as const;
    expect(withSavedRows(onPage, params({}), saved)).toBe(onPage);
  });

  it('puts saved records into every original-table page that holds them, whatever its filters', () => {
    const first = demandRecord({ Time_Series_sk: '20261115' });
    const second = demandRecord({ Time_Series_sk: '20261122' });
    const other = demandRecord({ PID: 'PMP-0002' });
    // Saved: S&OP units 777, so the final plan reads 777 and its money follows (unit cost $10).
    const saved = {
      ...second,
      SOP_Pln_Ovrd_Units: 777,
      Final_Pln_Units: 777,
      Final_Bk_Pln_Cost: 7770,
      version: 4,
    };
    const records = page([first, second, other], { viewLevel: 'none', drillDown: 'none' });

    const next = withSavedRows(records, params({ viewLevel: 'none', search: 'VAL' }), {
      kind: 'records',
      records: [saved],
    });

    expect(next.rows).toEqual([first, saved, other]);
    expect(next.rows[1]).toMatchObject({ Final_Pln_Units: 777, version: 4 });
  });

  it('never puts records into a roll-up page, nor a roll-up row into the original table', () => {
    const rollup = page([family('Ball Valves', 1200)], { viewLevel: 'category', drillDown: 'none' });
    const records = page([demandRecord()], { viewLevel: 'none', drillDown: 'none' });
    expect(withSavedRows(rollup, params({}), { kind: 'records', records: [demandRecord()] })).toBe(rollup);
    const recordParams = params({ viewLevel: 'none' });
    const row = { ...family('x', 1), id: 'VAL-0001|20261115' };
    expect(
      withSavedRows(records, recordParams, { kind: 'rollup', viewParams: params({}), rows: [row] }),
    ).toBe(records);
  });
});

describe('nextSortOf', () => {
  it('cycles a header unsorted → ascending → descending → unsorted; another column starts ascending', () => {
    expect(nextSortOf(null, 'Final_Pln_Units')).toEqual({ field: 'Final_Pln_Units', dir: 'asc' });
    expect(nextSortOf({ field: 'Final_Pln_Units', dir: 'asc' }, 'Final_Pln_Units')).toEqual({
      field: 'Final_Pln_Units',
      dir: 'desc',
    });
    expect(nextSortOf({ field: 'Final_Pln_Units', dir: 'desc' }, 'Final_Pln_Units')).toBeNull();
    expect(nextSortOf({ field: 'Final_Pln_Units', dir: 'desc' }, 'PF')).toEqual({ field: 'PF', dir: 'asc' });
  });
});
