import { describe, expect, it } from 'vitest';
import { monthPeriod, quarterPeriod, resolveYear } from './period';

describe('periods', () => {
  it('turns quarters and months into week ranges', () => {
    expect(quarterPeriod(2026, 4)).toEqual({ label: '2026-Q4', from: '2026-10-01', to: '2027-01-01' });
    expect(monthPeriod(2027, 2)).toEqual({ label: 'Feb 2027', from: '2027-02-01', to: '2027-03-01' });
  });

  it('gives a bare quarter the year being planned, else the latest in the data', () => {
    const data = { from: '2026-05-24', to: '2027-05-16' };
    const q = (n: number) => (year: number) => quarterPeriod(year, n);
    // Today 2026-11-22: Q1 and Q4 are ahead in the data; Q3 has passed, so the data's 2026-Q3.
    expect(resolveYear(q(1), '2026-11-22', data).label).toBe('2027-Q1');
    expect(resolveYear(q(4), '2026-11-22', data).label).toBe('2026-Q4');
    expect(resolveYear(q(3), '2026-11-22', data).label).toBe('2026-Q3');
    // No data at all: the next occurrence.
    expect(resolveYear(q(3), '2026-11-22', null).label).toBe('2027-Q3');
  });
});
