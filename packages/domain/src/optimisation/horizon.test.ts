import { describe, expect, it } from 'vitest';
import { horizonRange, networkPeriodOfWeek } from './horizon';

describe('horizonRange', () => {
  it('lists months from the start month, across a year end', () => {
    expect(horizonRange({ start: '2026-11', periods: 3, granularity: 'month' })).toEqual({
      periods: [
        { key: '2026-11', months: 1 },
        { key: '2026-12', months: 1 },
        { key: '2027-01', months: 1 },
      ],
      from: '2026-11-01',
      to: '2027-02-01',
    });
  });

  it('starts quarters at the quarter holding the start month', () => {
    expect(horizonRange({ start: '2026-11', periods: 2, granularity: 'quarter' })).toEqual({
      periods: [
        { key: '2026-Q4', months: 3 },
        { key: '2027-Q1', months: 3 },
      ],
      from: '2026-10-01',
      to: '2027-04-01',
    });
  });
});

describe('networkPeriodOfWeek', () => {
  it('is the month or quarter of the week’s Sunday', () => {
    expect(networkPeriodOfWeek('2026-11-29', 'month')).toBe('2026-11');
    expect(networkPeriodOfWeek('2026-12-06', 'month')).toBe('2026-12');
    expect(networkPeriodOfWeek('2026-09-27', 'quarter')).toBe('2026-Q3');
    expect(networkPeriodOfWeek('2026-10-04', 'quarter')).toBe('2026-Q4');
  });
});
