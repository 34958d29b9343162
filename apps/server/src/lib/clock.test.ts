import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { clockFromConfig, currentWeekOf, fixedDayClock, MovableClock, systemClock, todayOf } from './clock';

const iso = (date: Date) => date.toISOString().slice(0, 10);

describe('clock', () => {
  it('a movable clock follows real time until moved, then keeps the moved day', () => {
    const clock = new MovableClock();
    expect(todayOf(clock)).toBe(iso(new Date()));
    clock.setToday(new Date('2026-11-18T00:00:00Z'));
    expect(todayOf(clock)).toBe('2026-11-18');
    // Wednesday 18 November 2026 lies in the week of Sunday the 15th.
    expect(iso(currentWeekOf(clock))).toBe('2026-11-15');
    clock.advanceWeeks(1);
    expect(todayOf(clock)).toBe('2026-11-25');
    clock.advanceWeeks(6);
    expect(iso(currentWeekOf(clock))).toBe('2027-01-03');
  });

  it('a fixed day stays that day whatever the time', () => {
    const clock = fixedDayClock(new Date('2027-03-01T00:00:00Z'));
    expect(todayOf(clock)).toBe('2027-03-01');
    expect(iso(currentWeekOf(clock))).toBe('2027-02-28');
  });

  it('CLOCK_TODAY sets the day; unset is real time', () => {
    expect(todayOf(clockFromConfig(loadConfig({ CLOCK_TODAY: '2026-06-30' })))).toBe('2026-06-30');
    expect(clockFromConfig(loadConfig({}))).toBe(systemClock);
  });

  it('refuses a CLOCK_TODAY that is not a calendar date, in one line', () => {
    for (const bad of ['2026-02-30', '30/06/2026', '2026-6-1', 'today']) {
      expect(() => loadConfig({ CLOCK_TODAY: bad })).toThrow(
        new ConfigError('Invalid configuration: CLOCK_TODAY must be a date as yyyy-mm-dd, e.g. 2026-11-15'),
      );
    }
  });

  it('PLAN_HORIZON_WEEKS defaults to 78 and is never below 52', () => {
    expect(loadConfig({}).PLAN_HORIZON_WEEKS).toBe(78);
    expect(loadConfig({ PLAN_HORIZON_WEEKS: '52' }).PLAN_HORIZON_WEEKS).toBe(52);
    expect(() => loadConfig({ PLAN_HORIZON_WEEKS: '51' })).toThrow(
      new ConfigError(
        'Invalid configuration: PLAN_HORIZON_WEEKS must be at least 52 (the four quarters the import and exports need)',
      ),
    );
  });
});
