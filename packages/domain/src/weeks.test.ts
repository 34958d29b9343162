import { describe, expect, it } from 'vitest';
import {
  addWeeks,
  fiscalQuarterKey,
  isSunday,
  parseTimeSeriesSk,
  quarterOfMonth,
  timeFieldsOf,
  toTimeSeriesSk,
  weekKey,
  weekStartSunday,
} from './weeks';

describe('weeks', () => {
  it('finds the Sunday on or before a day', () => {
    // 2026-11-21 is a Saturday; its week started Sunday 2026-11-15.
    expect(toTimeSeriesSk(weekStartSunday(new Date('2026-11-21T23:59:00Z')))).toBe('20261115');
    expect(toTimeSeriesSk(weekStartSunday(new Date('2026-11-15T00:00:00Z')))).toBe('20261115');
    // 2026-01-01 is a Thursday; its week started 2025-12-28.
    expect(toTimeSeriesSk(weekStartSunday(new Date('2026-01-01T12:00:00Z')))).toBe('20251228');
  });

  it('parses only real dates', () => {
    expect(parseTimeSeriesSk('20240229')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseTimeSeriesSk('20230229')).toBeNull();
    expect(parseTimeSeriesSk('2023-02-01')).toBeNull();
    expect(parseTimeSeriesSk('20231301')).toBeNull();
  });

  it('names weeks, months and quarters', () => {
    const sunday = parseTimeSeriesSk('20251228')!;
    expect(isSunday(sunday)).toBe(true);
    expect(weekKey(sunday)).toBe('2026-W01'); // the week holding Jan 1 2026
    expect(weekKey(addWeeks(sunday, 1))).toBe('2026-W02');
    expect(fiscalQuarterKey(sunday)).toBe('2025-Q4');
    expect([1, 3, 4, 6, 7, 12].map(quarterOfMonth)).toEqual([1, 1, 2, 2, 3, 4]);
    expect(timeFieldsOf(parseTimeSeriesSk('20260405')!)).toEqual({
      Time_Series_sk: '20260405',
      Month_Key: '202604',
      Week_Key: '2026-W15',
      Fiscal_Quarter: '2026-Q2',
      Date: '2026-04-05',
      Time_Series: '2026-04-05T00:00:00.000Z',
    });
  });
});
