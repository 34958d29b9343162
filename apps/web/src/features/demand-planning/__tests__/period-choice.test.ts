import { describe, expect, it } from 'vitest';
import { pickedPeriod, shownWeeks } from '../utils/period-choice';

// 2026-11-22 is a Sunday; with a 78-week horizon the last planned week is 2028-05-14.
const clock = { currentWeek: '2026-11-22', horizonWeeks: 78 };

describe('shownWeeks', () => {
  it('shows a named period on the clock, fixed weeks as they are', () => {
    expect(shownWeeks('horizon', clock)).toEqual({ from: '2026-11-22', to: '2028-05-14' });
    expect(shownWeeks('history', clock)).toEqual({ from: null, to: '2026-11-15' });
    expect(shownWeeks({ from: '2026-01-04', to: null }, null)).toEqual({ from: '2026-01-04', to: null });
  });

  it('waits for the clock to show the horizon or history', () => {
    expect(shownWeeks('horizon', null)).toBeNull();
    expect(shownWeeks('all', null)).toEqual({ from: null, to: null });
  });
});

describe('pickedPeriod', () => {
  it('takes the picked day to its Sunday and keeps the other side of the view', () => {
    // Wednesday 2027-03-10 is in the week of Sunday 2027-03-07.
    expect(pickedPeriod({ period: 'horizon', clock, side: 'to', day: '2027-03-10' })).toEqual({
      from: '2026-11-22',
      to: '2027-03-07',
    });
    expect(pickedPeriod({ period: 'history', clock, side: 'from', day: '2026-01-01' })).toEqual({
      from: '2025-12-28',
      to: '2026-11-15',
    });
  });

  it('moves the other side when the range would end before it starts', () => {
    expect(pickedPeriod({ period: 'history', clock, side: 'from', day: '2027-01-06' })).toEqual({
      from: '2027-01-03',
      to: '2027-01-03',
    });
    expect(
      pickedPeriod({ period: { from: '2027-01-03', to: null }, clock, side: 'to', day: '2026-12-31' }),
    ).toEqual({ from: '2026-12-27', to: '2026-12-27' });
  });

  it('opens a side on an emptied picker, and is every week with no side left', () => {
    expect(pickedPeriod({ period: 'horizon', clock, side: 'to', day: '' })).toEqual({
      from: '2026-11-22',
      to: null,
    });
    expect(pickedPeriod({ period: { from: '2026-11-22', to: null }, clock, side: 'from', day: '' })).toBe(
      'all',
    );
  });

  it('ignores a partly typed date', () => {
    expect(pickedPeriod({ period: 'horizon', clock, side: 'from', day: '0002-13-01' })).toBeNull();
  });
});
