import { describe, expect, it } from 'vitest';
import { isBoundedRange, requestedWeeks, sundayOfDay, weekRangeOf } from './grid-period';
import { ZSundayParam } from './demand-record.schema';

// 2026-11-22 is a Sunday; 78 weeks after it is 2028-05-21, so the horizon ends the week before.
const clock = { currentWeek: '2026-11-22', horizonWeeks: 78 };

describe('weekRangeOf', () => {
  it('covers the current week and the horizon after it', () => {
    expect(weekRangeOf('horizon', clock)).toEqual({ from: '2026-11-22', to: '2028-05-14' });
    expect(weekRangeOf('horizon', { currentWeek: '2026-12-27', horizonWeeks: 1 })).toEqual({
      from: '2026-12-27',
      to: '2026-12-27',
    });
  });

  it('takes history as every week before the current one, across a year end', () => {
    expect(weekRangeOf('history', clock)).toEqual({ from: null, to: '2026-11-15' });
    expect(weekRangeOf('history', { currentWeek: '2027-01-03', horizonWeeks: 52 })).toEqual({
      from: null,
      to: '2026-12-27',
    });
  });

  it('leaves all weeks open on both sides', () => {
    expect(weekRangeOf('all', clock)).toEqual({ from: null, to: null });
    expect(isBoundedRange(weekRangeOf('all', clock))).toBe(false);
    expect(isBoundedRange(weekRangeOf('history', clock))).toBe(true);
  });
});

describe('sundayOfDay', () => {
  it('takes any day to the Sunday of its week', () => {
    expect(sundayOfDay('2026-11-22')).toBe('2026-11-22');
    expect(sundayOfDay('2026-11-28')).toBe('2026-11-22');
    expect(sundayOfDay('2026-01-01')).toBe('2025-12-28');
    expect(sundayOfDay('2028-02-29')).toBe('2028-02-27');
  });

  it('answers null for what is not a day', () => {
    expect(sundayOfDay('2026-02-30')).toBeNull();
    expect(sundayOfDay('20261122')).toBeNull();
    expect(sundayOfDay('')).toBeNull();
  });
});

describe('requestedWeeks', () => {
  it('resolves a named period on the clock, or takes the weeks given', () => {
    expect(requestedWeeks({ period: 'history' }, clock)).toEqual({ range: { from: null, to: '2026-11-15' } });
    expect(requestedWeeks({ fromWeek: '2026-01-04' }, clock)).toEqual({
      range: { from: '2026-01-04', to: null },
    });
    expect(requestedWeeks({}, clock)).toEqual({ range: { from: null, to: null } });
    expect(requestedWeeks({ fromWeek: '2026-01-04', toWeek: '2026-01-04' }, clock)).toEqual({
      range: { from: '2026-01-04', to: '2026-01-04' },
    });
  });

  it('refuses an end before the start, and a period named with weeks', () => {
    expect(requestedWeeks({ fromWeek: '2026-01-11', toWeek: '2026-01-04' }, clock)).toMatchObject({
      field: 'toWeek',
    });
    expect(requestedWeeks({ period: 'all', toWeek: '2026-01-04' }, clock)).toMatchObject({ field: 'period' });
  });
});

describe('ZSundayParam', () => {
  it('takes a Sunday as yyyy-mm-dd only', () => {
    expect(ZSundayParam.safeParse('2026-11-22').success).toBe(true);
    expect(ZSundayParam.safeParse(undefined).success).toBe(true);
    expect(ZSundayParam.safeParse('2026-11-23').success).toBe(false);
    expect(ZSundayParam.safeParse('2026-02-29').success).toBe(false);
    expect(ZSundayParam.safeParse('20261122').success).toBe(false);
    expect(ZSundayParam.safeParse(['2026-11-22', '2026-11-29']).success).toBe(false);
  });
});
