import { describe, expect, it } from 'vitest';
import type { Cell } from './cells';
import { mapHeaders } from './headers';
import { isImportFileProblem, validateImportRows, type ImportValidation } from './validate';

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
      {
        row: 2,
        field: 'category',
        message: 'category is required but is empty',
        severity: 'error',
        sku: 'A-1',
      },
      {
        row: 2,
        field: 'overrideQ1',
        message: 'overrideQ1 must be between 0 and 1000000000',
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
    expect(result.errors.map((e) => e.message)).toEqual([
      'sku may hold letters, digits, spaces and . _ - / only',
      'notes must be at most 500 characters',
    ]);
  });
});
