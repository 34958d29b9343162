import { describe, expect, it } from 'vitest';
import {
  monthPeriod,
  quarterPeriod,
  resolvePeriodRequest,
  resolveYear,
  yearEarlier,
  type PeriodRequest,
} from './period';

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

describe('periods relative to today on the planning calendar', () => {
  const today = '2026-11-18'; // a Wednesday: its week starts on Sunday 2026-11-15
  const at = (ask: PeriodRequest) => resolvePeriodRequest(ask, today, null);
  it('counts weeks, months, quarters and years from today', () => {
    expect(at({ kind: 'relative', unit: 'week', offset: 0 })).toMatchObject({
      from: '2026-11-15',
      to: '2026-11-22',
    });
    expect(at({ kind: 'relative', unit: 'week', offset: -1 })).toMatchObject({
      from: '2026-11-08',
      to: '2026-11-15',
    });
    expect(at({ kind: 'relative', unit: 'month', offset: 1 })).toEqual(monthPeriod(2026, 12));
    expect(at({ kind: 'relative', unit: 'quarter', offset: 1 })).toEqual(quarterPeriod(2027, 1));
    expect(at({ kind: 'relative', unit: 'quarter', offset: -1 })).toEqual(quarterPeriod(2026, 3));
    expect(at({ kind: 'relative', unit: 'year', offset: -1 })).toMatchObject({
      from: '2025-01-01',
      to: '2026-01-01',
    });
  });
  it('reads lately as the 13 full weeks before this one, and ytd up to today', () => {
    expect(at({ kind: 'lately' })).toMatchObject({ from: '2026-08-16', to: '2026-11-15' });
    expect(at({ kind: 'lastWeeks', weeks: 8 })).toMatchObject({ from: '2026-09-20', to: '2026-11-15' });
    expect(at({ kind: 'ytd' })).toMatchObject({ from: '2026-01-01', to: '2026-11-19' });
  });
  it('shifts a run of weeks by 52 weeks, a calendar period by a year', () => {
    expect(yearEarlier({ label: '', from: '2026-11-15', to: '2026-11-22' }, true)).toMatchObject({
      from: '2025-11-16',
      to: '2025-11-23',
    });
    expect(yearEarlier(quarterPeriod(2027, 1), false)).toMatchObject({
      from: '2026-01-01',
      to: '2026-04-01',
    });
  });
});
