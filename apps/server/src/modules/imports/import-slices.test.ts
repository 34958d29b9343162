import type { ImportRow } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { importSlices, recordsOfRow } from './import-slices';

const QUARTERS = [13, 13, 13, 13];
const row = (n: number, values: Partial<ImportRow> = {}): ImportRow => ({
  row: n,
  sku: `SKU-${n}`,
  category: 'Valves',
  businessUnit: 'Industrial',
  ...values,
});
const sizes = (slices: Iterable<ImportRow[]>) => [...slices].map((s) => s.map((r) => r.row));

describe('import slices', () => {
  it('counts 13 weeks for each quarter a row gives a forecast or an override, none for a catalogue row', () => {
    expect(recordsOfRow(row(1), QUARTERS)).toBe(0);
    expect(recordsOfRow(row(1, { forecastQ1: 100 }), QUARTERS)).toBe(13);
    // A quarter with both a forecast and an override is one quarter of weeks.
    expect(recordsOfRow(row(1, { forecastQ2: 100, overrideQ2: 90, overrideQ4: 0 }), QUARTERS)).toBe(26);
    expect(
      recordsOfRow(row(1, { overrideQ1: 1, overrideQ2: 2, overrideQ3: 3, overrideQ4: 4 }), [13, 13, 13, 12]),
    ).toBe(51);
  });

  it('cuts a slice at the row limit when its rows write few records', () => {
    const rows = [1, 2, 3, 4, 5].map((n) => row(n));
    expect(sizes(importSlices(rows, QUARTERS, { maxRows: 2, maxRecords: 100 }))).toEqual([
      [1, 2],
      [3, 4],
      [5],
    ]);
  });

  it('cuts a slice before the row whose weeks would pass the record limit', () => {
    // 13 + 26 = 39 records fit in 40; the third row (13 more) starts a slice; 26 alone is over 20.
    const rows = [
      row(1, { overrideQ1: 5 }),
      row(2, { overrideQ1: 5, overrideQ2: 6 }),
      row(3, { forecastQ3: 7 }),
      row(4),
      row(5, { overrideQ1: 5, overrideQ2: 6 }),
    ];
    expect(sizes(importSlices(rows, QUARTERS, { maxRows: 10, maxRecords: 40 }))).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(sizes(importSlices(rows, QUARTERS, { maxRows: 10, maxRecords: 20 }))).toEqual([
      [1],
      [2],
      [3, 4],
      [5],
    ]);
  });

  it('writes no slice for no rows', () => {
    expect(sizes(importSlices([], QUARTERS, { maxRows: 1, maxRecords: 1 }))).toEqual([]);
  });
});
