import { describe, expect, it } from 'vitest';
import { cycleCron, isTimeZoneName, nextCycleRun, zonedDateTime, type CycleSchedule } from './cycle-schedule';

const weekly = (weekday: number, time: string, timeZone: string): CycleSchedule => ({
  isEnabled: true,
  frequency: 'weekly',
  weekday,
  time,
  timeZone,
});
const daily = (time: string, timeZone: string): CycleSchedule => ({
  ...weekly(0, time, timeZone),
  frequency: 'daily',
});
const next = (schedule: CycleSchedule, after: string): string =>
  nextCycleRun(schedule, new Date(after)).toISOString();

describe('nextCycleRun', () => {
  it('runs Monday 06:00 Berlin at 05:00Z in winter and 04:00Z after the clocks go forward (29 March 2026)', () => {
    const monday = weekly(1, '06:00', 'Europe/Berlin');
    expect(next(monday, '2026-03-20T00:00:00Z')).toBe('2026-03-23T05:00:00.000Z');
    expect(next(monday, '2026-03-23T05:00:00Z')).toBe('2026-03-30T04:00:00.000Z');
  });

  it('runs Monday 06:00 New York at 10:00Z before and 11:00Z after the clocks go back (1 November 2026)', () => {
    const monday = weekly(1, '06:00', 'America/New_York');
    expect(next(monday, '2026-10-20T00:00:00Z')).toBe('2026-10-26T10:00:00.000Z');
    expect(next(monday, '2026-10-26T10:00:00Z')).toBe('2026-11-02T11:00:00.000Z');
  });

  it('moves a time the clocks skip forward by the skipped hour (02:30 Berlin on 29 March is 03:30 CEST)', () => {
    const nightly = daily('02:30', 'Europe/Berlin');
    expect(next(nightly, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    expect(next(nightly, '2026-03-29T01:30:00Z')).toBe('2026-03-30T00:30:00.000Z');
  });

  it('takes the first of a time that happens twice (02:30 Berlin on 25 October is 02:30 CEST)', () => {
    const nightly = daily('02:30', 'Europe/Berlin');
    expect(next(nightly, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(next(nightly, '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
  });

  it('is strictly after the given instant, the same day when the time is still ahead', () => {
    const monday = weekly(1, '06:00', 'UTC');
    expect(next(monday, '2026-11-30T05:59:00Z')).toBe('2026-11-30T06:00:00.000Z');
    expect(next(monday, '2026-11-30T06:00:00Z')).toBe('2026-12-07T06:00:00.000Z');
  });

  it('reads the weekday in the zone, not in UTC (Monday 06:00 in Auckland is Sunday 17:00Z)', () => {
    expect(next(weekly(1, '06:00', 'Pacific/Auckland'), '2026-11-27T00:00:00Z')).toBe(
      '2026-11-29T17:00:00.000Z',
    );
  });

  it('handles half-hour zones (06:00 Kolkata is 00:30Z)', () => {
    expect(next(daily('06:00', 'Asia/Kolkata'), '2026-11-27T00:00:00Z')).toBe('2026-11-27T00:30:00.000Z');
  });
});

describe('cycleCron', () => {
  it('writes minute, hour and the weekday of a weekly schedule', () => {
    expect(cycleCron(weekly(1, '06:00', 'UTC'))).toBe('0 6 * * 1');
    expect(cycleCron(daily('18:05', 'UTC'))).toBe('5 18 * * *');
  });
});

describe('isTimeZoneName', () => {
  it('accepts IANA names and refuses offsets and unknown names', () => {
    expect(isTimeZoneName('Europe/Berlin')).toBe(true);
    expect(isTimeZoneName('UTC')).toBe(true);
    expect(isTimeZoneName('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZoneName('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZoneName('+01:00')).toBe(false);
    expect(isTimeZoneName('')).toBe(false);
  });
});

describe('zonedDateTime', () => {
  it('shows an instant on the zone’s wall clock', () => {
    expect(zonedDateTime(new Date('2026-03-30T04:00:00Z'), 'Europe/Berlin')).toEqual({
      date: '2026-03-30',
      time: '06:00',
    });
    expect(zonedDateTime(new Date('2026-11-29T17:00:00Z'), 'Pacific/Auckland')).toEqual({
      date: '2026-11-30',
      time: '06:00',
    });
  });
});
