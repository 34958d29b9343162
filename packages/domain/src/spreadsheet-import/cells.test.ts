import { describe, expect, it } from 'vitest';
import { cellText, parseDateCell, parseNumberCell } from './cells';
import { parseCsv } from './csv';
import { importQuarterWeeks, spreadOverWeeks } from './periods';

describe('parseNumberCell', () => {
  it.each([
    [1234, 1234],
    ['1234', 1234],
    ['1,234', 1234],
    ['1,234,567.5', 1234567.5],
    ['$1,234.50', 1234.5],
    ['€ 1.234,5', 1234.5],
    ['12,5', 12.5],
    ['1 234', 1234],
    ['12%', 12],
    ['(1,000)', -1000],
    ['-3', -3],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('%j is %d', (cell, expected) => {
    expect(parseNumberCell(cell)).toBe(expected);
  });

  it.each(['abc', '12abc', '1,2,3', '', '$', Number.NaN, true])('%j is not a number', (cell) => {
    expect(parseNumberCell(cell as string)).toBeNull();
  });
});

describe('parseDateCell', () => {
  const iso = (cell: Parameters<typeof parseDateCell>[0]): string | undefined =>
    parseDateCell(cell)?.toISOString().slice(0, 10);

  it('reads Excel serials (1900 system, 1899-12-30 = 0)', () => {
    // 45658 days after 1899-12-30 is 2025-01-01 (Excel shows 45658 as 1/1/2025).
    expect(iso(45658)).toBe('2025-01-01');
    expect(iso(1)).toBe('1899-12-31');
    expect(iso('45658')).toBe('2025-01-01');
  });

  it('reads MM/DD/YYYY, M/D/YY and ISO text; refuses impossible dates', () => {
    expect(iso('03/15/2026')).toBe('2026-03-15');
    expect(iso('3/5/26')).toBe('2026-03-05');
    expect(iso('2026-03-15')).toBe('2026-03-15');
    // European text: day first when the first part cannot be a month, or with dots.
    expect(iso('15/03/2026')).toBe('2026-03-15');
    expect(iso('03/04/2026')).toBe('2026-03-04');
    expect(iso('16.03.2026')).toBe('2026-03-16');
    expect(iso('31.02.2026')).toBeUndefined();
    expect(iso('02/30/2026')).toBeUndefined();
    expect(iso('13/13/2026')).toBeUndefined();
    expect(iso('yesterday')).toBeUndefined();
    expect(iso(0)).toBeUndefined();
  });
});

describe('cellText', () => {
  it('trims, writes dates as MM/DD/YYYY and drops the apostrophe that neutralised a formula', () => {
    expect(cellText('  A-1 ')).toBe('A-1');
    expect(cellText(new Date(Date.UTC(2026, 0, 4)))).toBe('01/04/2026');
    expect(cellText("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(cellText("'plain")).toBe("'plain");
    expect(cellText(12)).toBe('12');
  });
});

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, line breaks in quotes and CRLF', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",3')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', '3'],
    ]);
  });

  it('drops a UTF-8 BOM and detects ; as the delimiter', () => {
    expect(parseCsv('\uFEFFsku;category\nA;"1,5"\n')).toEqual([
      ['sku', 'category'],
      ['A', '1,5'],
    ]);
  });

  it('detects the delimiter on the first non-empty line', () => {
    expect(parseCsv('\n\na;b\n')).toEqual([[''], [''], ['a', 'b']]);
  });

  it('stops after maxRows + 1 rows', () => {
    expect(parseCsv('h\n1\n2\n3\n4', 2)).toHaveLength(3);
  });
});

describe('spreadOverWeeks', () => {
  it('splits in proportion to the forecast, largest remainders first', () => {
    // 100 over 1:2:3 → 16.67, 33.33, 50 → floors 16, 33, 50 (99), the one left goes to 16.67.
    expect(spreadOverWeeks(100, [1, 2, 3])).toEqual([17, 33, 50]);
    expect(spreadOverWeeks(10, [5, 5])).toEqual([5, 5]);
  });

  it('splits equally when the forecast is zero or missing, earlier weeks first', () => {
    // 10 over 3 → 3.33 each → 3, 3, 3 and the one left to the first week.
    expect(spreadOverWeeks(10, [0, null, 0])).toEqual([4, 3, 3]);
    expect(spreadOverWeeks(0, [4, 1])).toEqual([0, 0]);
  });

  it('splits in hundredths when asked (a forecast keeps its decimals)', () => {
    // 812.5 over 13 weeks is 62.5 each; 10 over 3 in hundredths is 3.34, 3.33, 3.33.
    expect(spreadOverWeeks(812.5, Array(13).fill(1), 2)).toEqual(Array(13).fill(62.5));
    expect(spreadOverWeeks(10, [1, 1, 1], 2)).toEqual([3.34, 3.33, 3.33]);
  });

  it('always adds up to the total', () => {
    const parts = spreadOverWeeks(1_000_003, [7, 0, 13, 1, 1, 2, 9, 0, 5, 3, 3, 11, 4]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1_000_003);
  });
});

describe('importQuarterWeeks', () => {
  it('is 4 quarters of 13 Sundays from the current week', () => {
    // 2026-11-22 is a Sunday; a Wednesday in the same week starts the same horizon.
    const quarters = importQuarterWeeks(new Date(Date.UTC(2026, 10, 25)));
    expect(quarters.map((q) => q.length)).toEqual([13, 13, 13, 13]);
    expect(quarters[0]?.[0]).toBe('2026-11-22');
    expect(quarters[1]?.[0]).toBe('2027-02-21');
    expect(quarters[3]?.[12]).toBe('2027-11-14');
  });
});
