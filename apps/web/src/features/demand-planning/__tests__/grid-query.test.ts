import { describe, expect, it } from 'vitest';
import {
  csvExportFilename,
  filenameFromContentDisposition,
  gridQueryParams,
  nextPageRequest,
  pageCount,
  pageIndexFor,
} from '../utils/grid-query';

describe('gridQueryParams', () => {
  it('sends view level, drill-down, comma-joined filters, search and the page window', () => {
    const params = gridQueryParams({
      viewLevel: 'category',
      drillDown: 'quarterly',
      bu: ['Flow Control', 'Pumps'],
      region: [],
      search: '  VAL ',
      period: 'horizon',
      offset: 200,
      limit: 100,
    });
    expect(params.toString()).toBe(
      'viewLevel=category&drillDown=quarterly&bu=Flow+Control%2CPumps&search=VAL&period=horizon&offset=200&limit=100',
    );
  });
  it('leaves the page window out for exports', () => {
    expect(gridQueryParams({ viewLevel: 'none', drillDown: 'none', period: 'all' }).toString()).toBe(
      'viewLevel=none&drillDown=none&period=all',
    );
  });
  it('sends fixed weeks as fromWeek and toWeek, an open side left out', () => {
    const view = { viewLevel: 'sku', drillDown: 'weekly' } as const;
    expect(gridQueryParams({ ...view, period: { from: '2026-11-22', to: '2027-03-07' } }).toString()).toBe(
      'viewLevel=sku&drillDown=weekly&fromWeek=2026-11-22&toWeek=2027-03-07',
    );
    expect(gridQueryParams({ ...view, period: { from: null, to: '2027-03-07' } }).toString()).toBe(
      'viewLevel=sku&drillDown=weekly&toWeek=2027-03-07',
    );
  });
});

describe('nextPageRequest', () => {
  const request = {
    viewLevel: 'sku',
    drillDown: 'none',
    period: 'horizon',
    offset: 100,
    limit: 100,
  } as const;
  it('asks for the rows after the page while the view has more', () => {
    expect(nextPageRequest(request, 201)).toEqual({ ...request, offset: 200 });
    expect(nextPageRequest(request, 200)).toBeNull();
  });
});

describe('pageIndexFor', () => {
  it('keeps the first row on screen when the page size changes', () => {
    expect(pageIndexFor(300, 50)).toBe(6);
    expect(pageIndexFor(300, 500)).toBe(0);
  });
});

describe('pageCount', () => {
  it('is at least 1 and rounds up', () => {
    expect(pageCount(0, 100)).toBe(1);
    expect(pageCount(101, 100)).toBe(2);
  });
});

describe('export file name', () => {
  it('follows demand-planning-real-data-{date}.csv', () => {
    expect(csvExportFilename(new Date(2026, 10, 21, 23, 30))).toBe(
      'demand-planning-real-data-2026-11-21.csv',
    );
  });
  it("prefers the server's Content-Disposition name", () => {
    expect(
      filenameFromContentDisposition('attachment; filename="demand-planning-real-data-2026-11-21.csv"'),
    ).toBe('demand-planning-real-data-2026-11-21.csv');
    expect(filenameFromContentDisposition("attachment; filename*=UTF-8''a%20b.csv")).toBe('a b.csv');
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
});
