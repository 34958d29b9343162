import { IMPORT_FORECAST_FIELDS, IMPORT_OVERRIDE_FIELDS, type ImportRow } from '@ps/domain';

/**
 * The most weekly records one slice of an import may write: what a slice of 500 rows that each set
 * two quarters' overrides writes. A slice's record writes are what another user's save of the same
 * weeks waits for, so a slice is bounded by them, not only by its rows.
 */
export const SLICE_RECORDS = 13_000;

/**
 * The most weekly records a row can write: its quarters that have a value (a forecast or an
 * override) times their weeks. A row of an existing SKU writes at most this (a forecast column of
 * one is ignored, an override equal to the quarter's Final writes nothing); a catalogue row, none.
 */
export function recordsOfRow(row: ImportRow, quarterWeeks: readonly number[]): number {
  return quarterWeeks.reduce(
    (sum, weeks, q) =>
      row[IMPORT_FORECAST_FIELDS[q]!] !== undefined || row[IMPORT_OVERRIDE_FIELDS[q]!] !== undefined
        ? sum + weeks
        : sum,
    0,
  );
}

/**
 * The rows in slices of at most `maxRows` rows and `maxRecords` weekly records (a row that alone
 * exceeds it is a slice of its own). Every statement a slice runs (and the records' statement
 * triggers, whose cost is mostly per statement) runs once per slice: a file of catalogue rows is
 * written in few slices, one whose rows write many weeks in more, smaller ones.
 */
export function* importSlices<T extends ImportRow>(
  rows: readonly T[],
  quarterWeeks: readonly number[],
  limits: { maxRows: number; maxRecords: number },
): Generator<T[]> {
  let slice: T[] = [];
  let records = 0;
  for (const row of rows) {
    const weeks = recordsOfRow(row, quarterWeeks);
    if (slice.length > 0 && (slice.length >= limits.maxRows || records + weeks > limits.maxRecords)) {
      yield slice;
      slice = [];
      records = 0;
    }
    slice.push(row);
    records += weeks;
  }
  if (slice.length > 0) yield slice;
}
