import { describe, expect, it } from 'vitest';
import { periodKeyOf, periodLabelOf, periodRangeOf } from './time-buckets';

describe('time buckets', () => {
  it('keys a week by its Sunday', () => {
    // Sunday 2026-11-15 starts the week that ends Saturday 2026-11-21.
    expect(periodKeyOf('weekly', '2026-11-15')).toBe('2026-11-15');
    expect(periodKeyOf('monthly', '2026-11-15')).toBe('2026-11');
    expect(periodKeyOf('quarterly', '2026-11-15')).toBe('2026-Q4');
    expect(periodKeyOf('yearly', '2026-11-15')).toBe('2026');
  });

  it('puts a week that spans two months or years in the bucket of its Sunday', () => {
    // Sunday 2025-12-28 → Saturday 2026-01-03: December, Q4, 2025.
    expect(periodKeyOf('monthly', '2025-12-28')).toBe('2025-12');
    expect(periodKeyOf('quarterly', '2025-12-28')).toBe('2025-Q4');
    expect(periodKeyOf('yearly', '2025-12-28')).toBe('2025');
  });

  it('numbers quarters as ceil(month / 3)', () => {
    expect(periodKeyOf('quarterly', '2026-01-04')).toBe('2026-Q1');
    expect(periodKeyOf('quarterly', '2026-03-29')).toBe('2026-Q1');
    expect(periodKeyOf('quarterly', '2026-04-05')).toBe('2026-Q2');
    expect(periodKeyOf('quarterly', '2026-06-28')).toBe('2026-Q2');
    expect(periodKeyOf('quarterly', '2026-07-05')).toBe('2026-Q3');
    expect(periodKeyOf('quarterly', '2026-09-27')).toBe('2026-Q3');
    expect(periodKeyOf('quarterly', '2026-10-04')).toBe('2026-Q4');
  });

  it('labels weeks by the Saturday that ends them', () => {
    expect(periodLabelOf('weekly', '2026-11-15')).toBe('Week ending 11/21/2026');
    expect(periodLabelOf('weekly', '2025-12-28')).toBe('Week ending 01/03/2026');
    // 2024 is a leap year: Sunday 2024-02-25 ends on Saturday 2024-03-02.
    expect(periodLabelOf('weekly', '2024-02-25')).toBe('Week ending 03/02/2024');
  });

  it('labels months MM/YYYY and keeps quarter and year keys', () => {
    expect(periodLabelOf('monthly', '2026-03')).toBe('03/2026');
    expect(periodLabelOf('quarterly', '2026-Q1')).toBe('2026-Q1');
    expect(periodLabelOf('yearly', '2026')).toBe('2026');
  });

  it('sorts keys in time order as text', () => {
    const keys = ['2026-11-15', '2026-01-04', '2025-12-28'].map((w) => periodKeyOf('weekly', w));
    expect([...keys].sort()).toEqual(['2025-12-28', '2026-01-04', '2026-11-15']);
  });

  it('refuses what is not a yyyy-mm-dd day', () => {
    expect(() => periodKeyOf('monthly', '20261115')).toThrow(/yyyy-mm-dd/);
  });

  it('bounds each bucket by the Sundays it holds', () => {
    expect(periodRangeOf('weekly', '2025-12-28')).toEqual({ from: '2025-12-28', to: '2026-01-04' });
    expect(periodRangeOf('monthly', '2024-02')).toEqual({ from: '2024-02-01', to: '2024-03-01' });
    expect(periodRangeOf('monthly', '2025-12')).toEqual({ from: '2025-12-01', to: '2026-01-01' });
    expect(periodRangeOf('quarterly', '2026-Q4')).toEqual({ from: '2026-10-01', to: '2027-01-01' });
    expect(periodRangeOf('yearly', '2026')).toEqual({ from: '2026-01-01', to: '2027-01-01' });
    // Sunday 2025-12-28 ends in January but belongs to December 2025 and to 2025.
    const { from, to } = periodRangeOf('yearly', periodKeyOf('yearly', '2025-12-28'));
    expect('2025-12-28' >= from && '2025-12-28' < to).toBe(true);
  });
});
