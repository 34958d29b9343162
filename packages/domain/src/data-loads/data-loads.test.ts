import { describe, expect, it } from 'vitest';
import { parseCsv } from '../spreadsheet-import/csv';
import { CsvRowReader } from './csv-rows';
import { openOrderPipeline } from '../inventory/open-orders';
import {
  INVENTORY_POSITIONS_LAYOUT,
  LEAD_TIMES_LAYOUT,
  OPEN_ORDERS_LAYOUT,
  PRODUCTS_LAYOUT,
  SALES_HISTORY_LAYOUT,
} from './layouts';
import { leadTimeInWeeks, leadTimeSdInWeeks, mapLayoutHeaders, readLayoutRow } from './rows';

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
  it('reads a repeated cell as it read it the first time, whichever column it is in', () => {
    const read = (cells: Array<string | number>) => readLayoutRow(SALES_HISTORY_LAYOUT, mapping, cells, 4);
    for (let pass = 1; pass <= 2; pass++) {
      expect(read([' P-2 ', '2026-11-15', '', '12', '']), `pass ${pass}`).toMatchObject({
        values: { pid: 'P-2', week: '2026-11-15', units: 12, isDay: false },
      });
      // Read as a day before, 2026-11-19 (a Thursday) is still no week; "1.234" is 1234 units.
      expect(read(['P-2', '', '2026-11-19', '1.234', '']), `pass ${pass}`).toMatchObject({
        values: { week: '2026-11-15', day: '2026-11-19', units: 1234, isDay: true },
      });
      expect(read(['P-2', '2026-11-19', '', '1', '']), `pass ${pass}`).toMatchObject({
        refusal: { row: 4, field: 'Week' },
      });
      expect(read(['P 2!', '2026-11-15', '', '1', '']), `pass ${pass}`).toMatchObject({
        refusal: { row: 4, field: 'PID' },
      });
    }
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
      refusal: { row: 9, field: 'Week', reason: 'Give Week or Date, not both' },
    });
    expect(refusal(['P 1!', '2026-11-15', '', 2, ''])).toEqual({
      refusal: { row: 9, field: 'PID', reason: 'PID may hold letters, digits, spaces and . _ - / only' },
    });
  });
});

describe('inventory layouts', () => {
  const mapped = (layout: typeof LEAD_TIMES_LAYOUT, headers: string[]) => {
    const result = mapLayoutHeaders(layout, headers);
    if ('problem' in result) throw new Error(result.problem);
    return result.mapping;
  };

  it('rounds a lead time up to whole weeks and its spread to 0.01 week', () => {
    // 10 days = 1.43 weeks → 2; 14 days = exactly 2 weeks (no binary-fraction surprise); 2.5 → 3.
    expect(leadTimeInWeeks({ weeks: null, days: 10 })).toBe(2);
    expect(leadTimeInWeeks({ weeks: null, days: 14 })).toBe(2);
    expect(leadTimeInWeeks({ weeks: 2.5, days: null })).toBe(3);
    expect(leadTimeInWeeks({ weeks: null, days: 1 })).toBe(1);
    // 3 days = 0.428… weeks → 0.43; 0.5 weeks stays.
    expect(leadTimeSdInWeeks({ weeks: null, days: 3 })).toBe(0.43);
    expect(leadTimeSdInWeeks({ weeks: 0.5, days: null })).toBe(0.5);
    expect(leadTimeSdInWeeks({ weeks: null, days: null })).toBeNull();
  });

  it('reads a lead-times row in days with aliases, the share as a fraction', () => {
    const mapping = mapped(LEAD_TIMES_LAYOUT, ['Item', 'Plant', 'Lead Time (days)', 'LT SD Days', 'Share']);
    expect(readLayoutRow(LEAD_TIMES_LAYOUT, mapping, ['P-1', 'Houston', '10', '3.5', '33.33'], 2)).toEqual({
      values: {
        pid: 'P-1',
        site: 'Houston',
        region: null,
        leadTimeWeeks: 2,
        leadTimeDays: 10,
        leadTimeSdWeeks: 0.5,
        leadTimeSdDays: 3.5,
        reviewPeriod: null,
        replenishmentFrequency: null,
        demandShare: 0.3333,
      },
    });
  });

  it('refuses a lead time in both units, none, over two years, a part-week review period', () => {
    const mapping = mapped(LEAD_TIMES_LAYOUT, [
      'PID',
      'Site',
      'Lead Time',
      'Lead Time Days',
      'Review Period',
    ]);
    const read = (cells: string[]) => readLayoutRow(LEAD_TIMES_LAYOUT, mapping, cells, 4);
    expect(read(['P-1', 'A', '2', '14', ''])).toEqual({
      refusal: {
        row: 4,
        field: 'Lead Time Weeks',
        reason: 'Give Lead Time Weeks or Lead Time Days, not both',
      },
    });
    expect(read(['P-1', 'A', '', '', ''])).toEqual({
      refusal: {
        row: 4,
        field: 'Lead Time Weeks',
        reason: 'Lead Time Weeks or Lead Time Days is required but both are empty',
      },
    });
    expect(read(['P-1', 'A', '', '800', ''])).toEqual({
      refusal: {
        row: 4,
        field: 'Lead Time Days',
        reason: 'The lead time must be at most 104 weeks (it is 115)',
      },
    });
    expect(read(['P-1', 'A', '0', '', ''])).toEqual({
      refusal: { row: 4, field: 'Lead Time Weeks', reason: 'Lead Time Weeks must be more than 0' },
    });
    expect(read(['P-1', 'A', '2', '', '1.5'])).toEqual({
      refusal: {
        row: 4,
        field: 'Review Period',
        reason: 'Review Period must be a whole number of weeks from 1 to 52',
      },
    });
  });

  it('reads positions in whole units and order statuses by their words', () => {
    const positions = mapped(INVENTORY_POSITIONS_LAYOUT, ['SKU', 'Warehouse', 'Snapshot Date', 'QOH']);
    expect(
      readLayoutRow(INVENTORY_POSITIONS_LAYOUT, positions, ['P-1', 'W1', '11/20/2026', '1,200'], 2),
    ).toEqual({ values: { pid: 'P-1', site: 'W1', asOf: '2026-11-20', onHand: 1200 } });
    expect(
      readLayoutRow(INVENTORY_POSITIONS_LAYOUT, positions, ['P-1', 'W1', '2026-11-20', '2.5'], 3),
    ).toEqual({
      refusal: { row: 3, field: 'On Hand', reason: 'On Hand must be a whole number of units' },
    });
    const orders = mapped(OPEN_ORDERS_LAYOUT, ['PO Number', 'PID', 'Site', 'Open Qty', 'ETA', 'Line Status']);
    const order = (status: string) =>
      readLayoutRow(OPEN_ORDERS_LAYOUT, orders, ['PO-1', 'P-1', 'W1', '50', '2026-12-01', status], 5);
    expect(order('')).toMatchObject({ values: { status: 'open' } });
    expect(order('Received')).toMatchObject({ values: { status: 'closed' } });
    expect(order('lost')).toMatchObject({ refusal: { row: 5, field: 'Status' } });
  });
});

describe('openOrderPipeline', () => {
  it('puts each open order in the week of its due date, a late one in the first week', () => {
    // asOf Sunday 2026-11-22. Due Wed 11-25 → week 0; due Sun 11-29 → week 1; due Sat 12-12 → week 2
    // (its Sunday is 12-06); late since 11-10 → week 0; due 2027-03-01 is past 13 weeks → left out.
    const pipeline = openOrderPipeline(
      '2026-11-22',
      [
        { dueDate: '2026-11-25', units: 10 },
        { dueDate: '2026-11-29', units: 20 },
        { dueDate: '2026-12-12', units: 5 },
        { dueDate: '2026-12-07', units: 1 },
        { dueDate: '2026-11-10', units: 7 },
        { dueDate: '2027-03-01', units: 99 },
      ],
      13,
    );
    expect(pipeline).toEqual([17, 20, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
