import { describe, expect, it } from 'vitest';
import type { Cell } from './cells';
import { mapHeaders } from './headers';
import {
  isImportFileProblem,
  nothingToImportMessage,
  validateImportRows,
  withReasonPolicy,
  type ImportValidation,
} from './validate';

const TODAY = new Date(Date.UTC(2026, 10, 22));

function valid(rows: Cell[][]): ImportValidation {
  const result = validateImportRows(rows, TODAY);
  if (isImportFileProblem(result)) throw new Error(result.problem);
  return result;
}

describe('mapHeaders', () => {
  it.each([
    ['sku', 'sku'],
    ['Item', 'sku'],
    ['Product', 'sku'],
    ['Part Number', 'sku'],
    ['SKU Code', 'sku'],
    ['cat', 'category'],
    ['Product Category', 'category'],
    ['Business Unit', 'businessUnit'],
    ['businessUnit', 'businessUnit'],
    ['BU', 'businessUnit'],
    ['Division', 'businessUnit'],
    ['Area', 'region'],
    ['Territory', 'region'],
    ['Location', 'site'],
    ['Facility', 'site'],
    ['Warehouse', 'site'],
    ['Planner', 'plannerName'],
    ['Buyer', 'plannerName'],
    ['Planner Name', 'plannerName'],
    ['forecast q1', 'forecastQ1'],
    ['Q2 Forecast', 'forecastQ2'],
    ['forecastQ3', 'forecastQ3'],
    ['Override Q4', 'overrideQ4'],
    ['q1 override', 'overrideQ1'],
    ['Comments', 'notes'],
    ['Remarks', 'notes'],
    ['Last Modified', 'lastModified'],
  ])('%s names %s', (header, field) => {
    expect(mapHeaders([header])).toEqual({ [field]: 0 });
  });

  it('prefers an exact name and never takes period, total or variance columns', () => {
    const headers = [
      'Product Name',
      'SKU',
      'Product Category',
      'Forecast M1',
      'Total Forecast',
      'Variance %',
      'BU',
    ];
    expect(mapHeaders(headers)).toEqual({ sku: 1, category: 2, businessUnit: 6 });
  });
});

describe('validateImportRows', () => {
  const header = [
    'SKU',
    'Category',
    'Business Unit',
    'Region',
    'Forecast Q1',
    'Override Q1',
    'Last Modified',
  ];

  it('refuses an empty file and names missing required columns', () => {
    expect(validateImportRows([], TODAY)).toEqual({ problem: 'The file appears to be empty' });
    expect(validateImportRows([[null, ' '], []], TODAY)).toEqual({ problem: 'The file appears to be empty' });
    expect(validateImportRows([['SKU', 'Region']], TODAY)).toEqual({
      problem: 'Missing required columns: category, businessUnit',
    });
  });

  it('reads rows, skips blank ones and numbers rows from the header as row 1', () => {
    const result = valid([
      header,
      ['A-1', 'Valves', 'Flow', 'EMEA', '1,200', '$1,500', '03/15/2026'],
      [null, '', null],
      ['A-2', 'Pumps', 'Flow', null, 45658, null, 45658],
    ]);
    expect(result.totalRows).toBe(2);
    expect(result.validRows).toEqual([
      {
        row: 2,
        sku: 'A-1',
        category: 'Valves',
        businessUnit: 'Flow',
        region: 'EMEA',
        forecastQ1: 1200,
        overrideQ1: 1500,
        lastModified: '2026-03-15',
      },
      {
        row: 4,
        sku: 'A-2',
        category: 'Pumps',
        businessUnit: 'Flow',
        forecastQ1: 45658,
        lastModified: '2025-01-01',
      },
    ]);
    expect(result.errors).toEqual([]);
  });

  it('reports empty required fields, invalid numbers and dates with the spec messages', () => {
    const result = valid([
      header,
      ['A-1', '', 'Flow', null, 'lots', '-5', 'someday'],
      ['', 'Valves', 'Flow'],
    ]);
    expect(result.validRows).toEqual([]);
    expect(result.errors).toEqual([
      // One issue per refused row, naming its SKU, with every reason.
      {
        row: 2,
        field: 'category',
        message: 'category is required but is empty; overrideQ1 must be between 0 and 1000000000',
        severity: 'error',
        sku: 'A-1',
      },
      { row: 3, field: 'sku', message: 'sku is required but is empty', severity: 'error' },
    ]);
    expect(result.warnings).toEqual([
      {
        row: 2,
        field: 'forecastQ1',
        message: 'Invalid number "lots" - will be set to 0',
        severity: 'warning',
      },
      {
        row: 2,
        field: 'lastModified',
        message: 'Invalid date "someday" - will use current date',
        severity: 'warning',
      },
    ]);
  });

  it('keeps a row whose only problems are warnings, with 0 and today', () => {
    const result = valid([header, ['A-1', 'Valves', 'Flow', null, 'n/a', null, '31/31/2026']]);
    expect(result.validRows).toEqual([
      {
        row: 2,
        sku: 'A-1',
        category: 'Valves',
        businessUnit: 'Flow',
        forecastQ1: 0,
        lastModified: '2026-11-22',
      },
    ]);
  });

  it('finds the header below filter lines (our export) and refuses a SKU twice in one file', () => {
    const result = valid([
      ['Filters: Business Unit = Flow'],
      [],
      header,
      ['A-1', 'Valves', 'Flow'],
      ['a-1', 'Valves', 'Flow'],
    ]);
    expect(result.validRows.map((r) => r.row)).toEqual([4]);
    expect(result.errors).toEqual([
      {
        row: 5,
        field: 'sku',
        message: 'Duplicate SKU "a-1" in this file (first on row 4)',
        severity: 'error',
        sku: 'a-1',
      },
    ]);
  });

  it('refuses a SKU with characters a product id cannot hold and over-long text', () => {
    const result = valid([
      ['sku', 'category', 'bu', 'notes'],
      ['A<1>', 'C', 'B', 'x'.repeat(501)],
    ]);
    expect(result.errors.map((e) => [e.sku, e.message])).toEqual([
      ['A<1>', 'sku may hold letters, digits, spaces and . _ - / only; notes must be at most 500 characters'],
    ]);
  });

  it('names a SKU that is itself too long once, as typed', () => {
    const long = 'S'.repeat(65);
    const result = valid([
      ['sku', 'category', 'bu'],
      [long, 'C', 'B'],
    ]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ row: 2, field: 'sku', sku: long });
  });

  it('reads a reason code whatever its case and spacing, and names the codes when it is none of them', () => {
    const result = valid([
      ['sku', 'category', 'bu', 'override q1', 'Reason'],
      ['A-1', 'C', 'B', 10, 'seasonal   ADJUSTMENT'],
      ['A-2', 'C', 'B', 10, 'Because'],
    ]);
    expect(result.validRows.map((row) => [row.sku, row.reasonCode])).toEqual([
      ['A-1', 'Seasonal Adjustment'],
    ]);
    expect(result.errors.map((e) => [e.row, e.field, e.message])).toEqual([
      [
        3,
        'reasonCode',
        'reasonCode must be one of Market Trend, Supply Chain, Seasonal Adjustment, Strategic Initiative, Other',
      ],
    ]);
  });

  it("refuses, under the admin's reason policy, only the rows that give an override and no reason code", () => {
    const result = valid([
      ['sku', 'category', 'bu', 'forecast q1', 'override q2', 'reason code'],
      ['A-1', 'C', 'B', 100, '', ''],
      ['A-2', 'C', 'B', '', 40, 'Other'],
      ['A-3', 'C', 'B', '', 0, ''],
    ]);
    expect(withReasonPolicy(result, false)).toBe(result);
    const ruled = withReasonPolicy(result, true);
    expect(ruled.validRows.map((row) => row.sku)).toEqual(['A-1', 'A-2']);
    expect(ruled.errors).toEqual([
      {
        row: 4,
        field: 'reasonCode',
        message:
          'reasonCode is required: the row sets an override, and an admin requires every override to carry a reason code',
        severity: 'error',
        sku: 'A-3',
      },
    ]);
  });

  it('keeps the decimals of forecasts and rounds overrides to whole units', () => {
    const result = valid([
      ['sku', 'category', 'bu', 'forecast q1', 'forecast q2', 'override q1'],
      ['A-1', 'C', 'B', 812.5, '0,25', 10.5],
    ]);
    expect(result.validRows[0]).toMatchObject({ forecastQ1: 812.5, forecastQ2: 0.25, overrideQ1: 11 });
  });
});

describe('nothingToImportMessage', () => {
  it('is null with a valid row, names the first three refusals by row and SKU, says when there is no data', () => {
    const header = ['sku', 'category', 'bu'];
    expect(nothingToImportMessage(valid([header, ['A', 'C', 'B']]))).toBeNull();
    expect(nothingToImportMessage(valid([header]))).toBe('The file has no data rows to import');
    expect(
      nothingToImportMessage(
        valid([header, ['A', '', 'B'], ['', 'C', 'B'], ['C<', 'C', 'B'], ['D', '', 'B'], ['E', '', '']]),
      ),
    ).toBe(
      'No row of the file can be imported: row 2 (A): category is required but is empty; ' +
        'row 3: sku is required but is empty; ' +
        'row 4 (C<): sku may hold letters, digits, spaces and . _ - / only; and 2 more',
    );
  });
});
