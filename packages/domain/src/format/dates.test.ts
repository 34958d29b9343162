import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, toCalendarParts } from './dates';

describe('formatDate', () => {
  it('formats a calendar date as mm/dd/yyyy or dd/mm/yyyy', () => {
    expect(formatDate('2026-11-05', 'mm/dd/yyyy')).toBe('11/05/2026');
    expect(formatDate('2026-11-05', 'dd/mm/yyyy')).toBe('05/11/2026');
  });

  it('reads a Time_Series_sk (yyyymmdd) as a calendar date', () => {
    expect(formatDate('20260301', 'mm/dd/yyyy')).toBe('03/01/2026');
  });

  it('formats Date objects in local time', () => {
    expect(formatDate(new Date(2025, 0, 31, 23, 59), 'dd/mm/yyyy')).toBe('31/01/2025');
  });

  it('shows nothing for invalid or missing dates', () => {
    expect(formatDate('2026-02-30', 'mm/dd/yyyy')).toBe('');
    expect(formatDate('not a date', 'mm/dd/yyyy')).toBe('');
    expect(formatDate(null, 'mm/dd/yyyy')).toBe('');
    expect(toCalendarParts(new Date(Number.NaN))).toBeNull();
  });
});

describe('formatDateTime', () => {
  it('adds 24-hour local time', () => {
    expect(formatDateTime(new Date(2026, 10, 5, 14, 7), 'mm/dd/yyyy')).toBe('11/05/2026 14:07');
    expect(formatDateTime(new Date(2026, 10, 5, 9, 3), 'dd/mm/yyyy')).toBe('05/11/2026 09:03');
  });
});
