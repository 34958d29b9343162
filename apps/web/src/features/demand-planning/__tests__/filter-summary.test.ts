import { describe, expect, it } from 'vitest';
import { filterParam, filterSummary, matchingOptions, toggleVisible } from '../utils/filter-summary';

describe('filterSummary', () => {
  it('shows the placeholder when nothing is selected', () => {
    expect(filterSummary([], 5)).toEqual({ kind: 'none' });
  });
  it("shows 'All' when every option is selected", () => {
    expect(filterSummary(['A', 'B', 'C'], 3)).toEqual({ kind: 'all' });
  });
  it('shows the value when one is selected', () => {
    expect(filterSummary(['Valves'], 3)).toEqual({ kind: 'one', value: 'Valves' });
  });
  it("shows 'N selected' otherwise", () => {
    expect(filterSummary(['A', 'B'], 3)).toEqual({ kind: 'some', count: 2 });
  });
  it('never calls a single option of a one-option list anything but All', () => {
    expect(filterSummary(['A'], 1)).toEqual({ kind: 'all' });
  });
});

describe('matchingOptions', () => {
  const options = [{ value: 'North America' }, { value: 'Europe' }, { value: 'South America' }];
  it('keeps options containing the search text, ignoring case and spaces around it', () => {
    expect(matchingOptions(options, '  america ').map((o) => o.value)).toEqual([
      'North America',
      'South America',
    ]);
  });
  it('keeps all options for an empty search', () => {
    expect(matchingOptions(options, '')).toHaveLength(3);
  });
});

describe('filterParam', () => {
  it('sends nothing when nothing or everything is selected', () => {
    expect(filterParam([], 3)).toBeUndefined();
    expect(filterParam(['a', 'b', 'c'], 3)).toBeUndefined();
  });
  it('sends a sorted list otherwise, so equal selections make equal requests', () => {
    expect(filterParam(['b', 'a'], 3)).toEqual(['a', 'b']);
  });
});

describe('toggleVisible (Select All under a search)', () => {
  it('ticks only the values the search shows and keeps the hidden ones as they were', () => {
    expect(toggleVisible(['Europe'], ['North America', 'South America'])).toEqual([
      'Europe',
      'North America',
      'South America',
    ]);
    expect(toggleVisible(['North America'], ['North America', 'South America'])).toEqual([
      'North America',
      'South America',
    ]);
  });

  it('unticks the shown values when all of them are ticked', () => {
    expect(
      toggleVisible(['Europe', 'North America', 'South America'], ['North America', 'South America']),
    ).toEqual(['Europe']);
    expect(toggleVisible(['Europe'], [])).toEqual(['Europe']);
  });
});
