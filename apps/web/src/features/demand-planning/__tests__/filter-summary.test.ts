import { describe, expect, it } from 'vitest';
import { filterParam, filterSummaryText, matchingOptions } from '../utils/filter-summary';

describe('filterSummaryText', () => {
  it('shows the placeholder when nothing is selected', () => {
    expect(filterSummaryText([], 5, 'All Business Units')).toBe('All Business Units');
  });
  it("shows 'All' when every option is selected", () => {
    expect(filterSummaryText(['A', 'B', 'C'], 3, 'x')).toBe('All');
  });
  it('shows the value when one is selected', () => {
    expect(filterSummaryText(['Valves'], 3, 'x')).toBe('Valves');
  });
  it("shows 'N selected' otherwise", () => {
    expect(filterSummaryText(['A', 'B'], 3, 'x')).toBe('2 selected');
  });
  it('never calls a single option of a one-option list anything but All', () => {
    expect(filterSummaryText(['A'], 1, 'x')).toBe('All');
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
