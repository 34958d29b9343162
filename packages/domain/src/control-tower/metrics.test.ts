import { describe, expect, it } from 'vitest';
import {
  addPair,
  deltaPercent,
  EMPTY_ERROR_SUMS,
  errorMetrics,
  forecastValueAdd,
  growth,
  sundaysInQuarter,
  marginPercent,
  quarterRange,
  shiftQuarter,
} from './metrics';
import { formatTrackerValue, nextSort, quarterSelectionLabel, sortRows, toggleQuarter } from './format';
import { formatScaledCurrency } from '../format/display';

describe('deltaPercent (spec §9)', () => {
  it('rounds to a whole percent and answers 0 on a zero base', () => {
    expect(deltaPercent(115, 100)).toBe(15);
    expect(deltaPercent(90, -120)).toBe(175); // (90 − −120) / 120 = 1.75
    expect(deltaPercent(1, 3)).toBe(-67); // −66.67 rounds to −67
    expect(deltaPercent(5, 0)).toBe(0);
    expect(deltaPercent(null, 3)).toBeNull();
  });
});

describe('marginPercent', () => {
  it('is (revenue − cost) / revenue with two decimals', () => {
    expect(marginPercent(400, 300)).toBe(25);
    expect(marginPercent(3, 1)).toBe(66.67);
    expect(marginPercent(0, 10)).toBeNull();
  });
});

describe('quarters', () => {
  it('shifts across years and lists a range', () => {
    expect(shiftQuarter('2026-Q1', -1)).toBe('2025-Q4');
    expect(shiftQuarter('2025-Q4', 5)).toBe('2027-Q1');
    expect(quarterRange('2025-Q3', '2026-Q2')).toEqual(['2025-Q3', '2025-Q4', '2026-Q1', '2026-Q2']);
  });
});

describe('sundaysInQuarter', () => {
  it('counts the Sundays that fall in the quarter', () => {
    // 2026-Q1: Sundays Jan 4 … Mar 29 = 13. 2026-Q3: Jul 5 … Sep 27 = 13.
    // 2026-Q4: Oct 4 … Dec 27 = 13. 2027-Q1: Jan 3 … Mar 28 = 13. 2028-Q4: Oct 1 … Dec 31 = 14.
    expect(['2026-Q1', '2026-Q3', '2026-Q4', '2027-Q1', '2028-Q4'].map(sundaysInQuarter)).toEqual([
      13, 13, 13, 13, 14,
    ]);
  });
});

describe('growth', () => {
  it('compares weekly averages, and says so, where a quarter holds only part of its weeks', () => {
    const series = new Map([
      ['2025-Q4', 130],
      ['2026-Q1', 1300],
      ['2026-Q2', 1430],
    ]);
    const coverage = new Map([
      ['2025-Q4', { weeks: 1, of: 13 }],
      ['2026-Q1', { weeks: 13, of: 13 }],
      ['2026-Q2', { weeks: 13, of: 13 }],
    ]);
    const g = growth(series, ['2026-Q1', '2026-Q2'], '2026-Q2', coverage);
    // Q1 against a one-week Q4: 100 a week against 130 a week = −23 %, not +900 % of the totals.
    // Q2 against Q1, both whole: 1430 / 1300 = +10 %.
    expect(g.qtrToQtr.byQuarter).toEqual({ '2026-Q1': -23, '2026-Q2': 10 });
    expect(g.qtrToQtr.partial).toEqual({ '2026-Q1': true, '2026-Q2': false });
  });

  it('compares with the quarter before and a year before; next 4 against last 4', () => {
    const series = new Map([
      ['2025-Q1', 100],
      ['2025-Q2', 100],
      ['2025-Q3', 100],
      ['2025-Q4', 100],
      ['2026-Q1', 110],
      ['2026-Q2', 99],
      ['2026-Q3', 120],
      ['2026-Q4', 131],
    ]);
    const g = growth(series, ['2026-Q1', '2026-Q2', '2026-Q3', '2026-Q4'], '2026-Q1');
    // Q1: 110 vs 100 = +10; Q2: 99 vs 110 = −10; Q3: 120 vs 99 = +21.2 → 21; Q4: 131 vs 120 = +9.2 → 9
    expect(g.qtrToQtr.byQuarter).toEqual({ '2026-Q1': 10, '2026-Q2': -10, '2026-Q3': 21, '2026-Q4': 9 });
    expect(g.yearToYear.byQuarter).toEqual({ '2026-Q1': 10, '2026-Q2': -1, '2026-Q3': 20, '2026-Q4': 31 });
    // (110 + 99 + 120 + 131) / 400 = 1.15
    expect(g.qtrToQtr.next4VsLast4).toBe(15);
    expect(growth(series, ['2025-Q1'], '2025-Q1').qtrToQtr.byQuarter['2025-Q1']).toBeNull();
  });
});

describe('error metrics', () => {
  // Three weeks: forecast 10, 20, 5 against actuals 8, 25, 0; naive 12, 12, 12.
  const sums = [
    [10, 8, 12],
    [20, 25, 12],
    [5, 0, 12],
  ].reduce((s, [f, a, n]) => addPair(s, f!, a!, n!), EMPTY_ERROR_SUMS);

  it('adds the pairs', () => {
    expect(sums).toEqual({
      n: 3,
      absError: 12,
      error: 2,
      actual: 33,
      ape: 0.25 + 0.2,
      apeCount: 2,
      naiveAbsError: 29,
    });
  });

  it('WAPE, accuracy, MAPE, bias and MASE by hand', () => {
    // WAPE = 12 / 33 = 36.3636 %; accuracy 63.64; MAPE = (25 % + 20 %) / 2 = 22.5;
    // bias = 2 / 33 = 6.06 %; MASE = 12 / (4 + 13 + 12) = 0.414
    expect(errorMetrics(sums)).toEqual({
      accuracy: 63.64,
      wape: 36.36,
      mape: 22.5,
      bias: 6.06,
      mase: 0.414,
      pairs: 3,
    });
  });

  it('has no figures without actual demand', () => {
    expect(errorMetrics(addPair(EMPTY_ERROR_SUMS, 3, 0, 0))).toMatchObject({
      wape: null,
      mape: null,
      mase: null,
    });
  });

  it('forecast value add is the WAPE each step removes', () => {
    expect(forecastValueAdd({ naive: 40, statistical: 30.5, prelim: 32, final: 29.25 })).toEqual([
      { step: 'naive', wape: 40, valueAdd: null },
      { step: 'statistical', wape: 30.5, valueAdd: 9.5 },
      { step: 'prelim', wape: 32, valueAdd: -1.5 },
      { step: 'final', wape: 29.25, valueAdd: 2.75 },
    ]);
  });
});

describe('control tower formats (spec §9)', () => {
  it('scales money with one decimal below 10', () => {
    expect(formatScaledCurrency(2_345_678, 'M')).toBe('$2.3M');
    expect(formatScaledCurrency(23_456_789, 'M')).toBe('$23M');
    expect(formatScaledCurrency(-1_250, 'K')).toBe('-$1.3K');
    expect(formatScaledCurrency(1_234_567_890_123, 'B')).toBe('$1,235B');
  });

  it('tracker values: 5 decimals under 1, null as -', () => {
    expect(formatTrackerValue(0.123456)).toBe('0.12346');
    expect(formatTrackerValue(0)).toBe('0.00');
    expect(formatTrackerValue(-1234.5)).toBe('-1,234.50');
    expect(formatTrackerValue(null)).toBe('-');
    // The user's number format groups the digits; the small-value rule stays.
    expect(formatTrackerValue(12_345_678.9, 'indian')).toBe('1,23,45,678.90');
    expect(formatTrackerValue(-0.000004, 'indian')).toBe('0.00000');
    expect(formatTrackerValue(-98_765.4321, 'us')).toBe('-98,765.43');
    expect(formatTrackerValue(0.999996, 'indian')).toBe('1.00000');
  });
});

describe('column sort (spec §4)', () => {
  it('cycles asc, desc, unsorted; another column starts ascending', () => {
    const asc = nextSort(null, 'bu');
    expect(asc).toEqual({ column: 'bu', direction: 'asc' });
    expect(nextSort(asc, 'bu')).toEqual({ column: 'bu', direction: 'desc' });
    expect(nextSort({ column: 'bu', direction: 'desc' }, 'bu')).toBeNull();
    expect(nextSort({ column: 'bu', direction: 'desc' }, 'pf')).toEqual({ column: 'pf', direction: 'asc' });
  });

  it('puts nulls last both ways', () => {
    const rows = [{ v: 2 }, { v: null }, { v: -1 }, { v: 5 }];
    const value = (row: { v: number | null }) => row.v;
    expect(sortRows(rows, { column: 'v', direction: 'asc' }, value).map((r) => r.v)).toEqual([
      -1,
      2,
      5,
      null,
    ]);
    expect(sortRows(rows, { column: 'v', direction: 'desc' }, value).map((r) => r.v)).toEqual([
      5,
      2,
      -1,
      null,
    ]);
  });
});

describe('fiscal quarter multi-select (spec §4)', () => {
  const all = ['2026-Q1', '2026-Q2', '2026-Q3'];
  it('toggles Select All, leaves it on a single choice, returns to it when complete', () => {
    expect(toggleQuarter(null, 'all', all)).toEqual([]);
    expect(toggleQuarter([], 'all', all)).toBeNull();
    expect(toggleQuarter(null, '2026-Q2', all)).toEqual(['2026-Q1', '2026-Q3']);
    expect(toggleQuarter(['2026-Q1', '2026-Q3'], '2026-Q2', all)).toBeNull();
  });
  it('labels the selection', () => {
    expect(quarterSelectionLabel(null)).toEqual({ kind: 'all' });
    expect(quarterSelectionLabel([])).toEqual({ kind: 'none' });
    expect(quarterSelectionLabel(['2026-Q1'])).toEqual({ kind: 'one', quarter: '2026-Q1' });
    expect(quarterSelectionLabel(all)).toEqual({ kind: 'many', count: 3 });
  });
});
