import { describe, expect, it } from 'vitest';
import { parseCsv } from '../spreadsheet-import/csv';
import { CsvRowReader } from './csv-rows';
import { PRODUCTS_LAYOUT, SALES_HISTORY_LAYOUT } from './layouts';
import { mapLayoutHeaders, readLayoutRow } from './rows';

/** Feeds `text` to a reader in pieces of `size` characters. */
function readInPieces(text: string, size: number): string[][] {
  const reader = new CsvRowReader();
  const rows: string[][] = [];
  for (let at = 0; at < text.length; at += size) rows.push(...reader.push(text.slice(at, at + size)));
  rows.push(...reader.end());
  return rows;
}

describe('CsvRowReader', () => {
  const text =
    '\ufeffPID;Name;Units\r\nA-1;"semi;colon";1\r\nB-2;"two\nlines ""quoted""";2\rC-3;plain;3\n\nD-4;;';
  it('reads the same rows as parseCsv, however the text is cut', () => {
    const expected = parseCsv(text);
    expect(expected).toEqual([
      ['PID', 'Name', 'Units'],
      ['A-1', 'semi;colon', '1'],
      ['B-2', 'two\nlines "quoted"', '2'],
      ['C-3', 'plain', '3'],
      [''],
      ['D-4', '', ''],
    ]);
    for (const size of [1, 2, 3, 5, 7, 11, text.length]) expect(readInPieces(text, size)).toEqual(expected);
  });
});

describe('layout headers', () => {
  it('matches names and aliases without regard to case or punctuation', () => {
    const mapped = mapLayoutHeaders(PRODUCTS_LAYOUT, [
      'sku',
      'CUSTOMER',
      'business_unit',
      'Product Family',
      'List Price',
      'standard cost',
      'Notes',
    ]);
    expect(mapped).toEqual({ mapping: { pid: 0, client: 1, bu: 2, pf: 3, unitPrice: 4, unitCost: 5 } });
  });
  it('names the missing columns, and a week-or-date group as one', () => {
    expect(mapLayoutHeaders(SALES_HISTORY_LAYOUT, ['PID', 'Qty'])).toEqual({
      problem: 'The file is missing the column Week or Date of the sales history layout (found: PID, Qty)',
    });
    expect(mapLayoutHeaders(SALES_HISTORY_LAYOUT, ['PID', 'SKU', 'Week', 'Units'])).toEqual({
      problem: 'The column PID appears twice (as "SKU" too)',
    });
  });
});

describe('layout rows', () => {
  const history = mapLayoutHeaders(SALES_HISTORY_LAYOUT, ['PID', 'Week', 'Date', 'Units', 'Revenue']);
  const mapping = 'mapping' in history ? history.mapping : {};
  it('puts a day in its Sunday week, reads Time_Series_sk, "1,234.50" and $ amounts', () => {
    // 2026-11-19 is a Thursday: its week starts on Sunday 2026-11-15.
    expect(
      readLayoutRow(SALES_HISTORY_LAYOUT, mapping, ['P-1', '', '11/19/2026', '1,234.50', '$10'], 2),
    ).toEqual({
      values: {
        pid: 'P-1',
        week: '2026-11-15',
        day: '2026-11-19',
        units: 1234.5,
        revenue: 10,
        cost: null,
        isDay: true,
      },
    });
    expect(readLayoutRow(SALES_HISTORY_LAYOUT, mapping, ['P-1', '20261115', '', 3, ''], 3)).toEqual({
      values: {
        pid: 'P-1',
        week: '2026-11-15',
        day: null,
        units: 3,
        revenue: null,
        cost: null,
        isDay: false,
      },
    });
  });
  it('refuses a row with its row number, column and reason', () => {
    const refusal = (cells: Array<string | number>) => readLayoutRow(SALES_HISTORY_LAYOUT, mapping, cells, 9);
    expect(refusal(['', '2026-11-15', '', 1, ''])).toEqual({
      refusal: { row: 9, field: 'PID', reason: 'PID is required but is empty' },
    });
    expect(refusal(['P-1', '2026-11-16', '', 1, ''])).toEqual({
      refusal: {
        row: 9,
        field: 'Week',
        reason: "Week 2026-11-16 is not a Sunday: give the week's Sunday, or put days in a Date column",
      },
    });
    expect(refusal(['P-1', '2026-13-01', '', 1, ''])).toMatchObject({ refusal: { field: 'Week' } });
    expect(refusal(['P-1', '2026-11-15', '', -2, ''])).toEqual({
      refusal: { row: 9, field: 'Units', reason: 'Units must be 0 or more' },
    });
    expect(refusal(['P-1', '2026-11-15', '2026-11-16', 2, ''])).toEqual({
      refusal: { row: 9, field: 'Week', reason: 'Give a Week or a Date, not both' },
    });
    expect(refusal(['P 1!', '2026-11-15', '', 2, ''])).toEqual({
      refusal: { row: 9, field: 'PID', reason: 'PID may hold letters, digits, spaces and . _ - / only' },
    });
  });
});
