import type { Writable } from 'node:stream';
import { neutraliseText, type ExportColumnKind } from '@ps/domain';
import ExcelJS from 'exceljs';

/**
 * How cells are written to .xlsx: numbers stay numbers (a planner sums them in Excel) with a
 * number format for their kind, text is neutralised against formula injection, dates are real
 * dates shown MM/DD/YYYY (the import template's date format).
 */
export type XlsxKind = ExportColumnKind | 'number';

export const NUMBER_FORMATS: Partial<Record<XlsxKind, string>> = {
  money: '"$"#,##0.00;[Red]-"$"#,##0.00',
  // The value is the percent itself (12.5 means 12.5 %), as the API and the import read it.
  percent: '0.00"%"',
  units: '#,##0',
  date: 'mm/dd/yyyy',
};

export type XlsxValue = string | number | Date | null;

export function xlsxCell(
  value: string | number | boolean | Date | null | undefined,
  kind: XlsxKind,
): XlsxValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (kind === 'date') {
    const date = value instanceof Date ? value : new Date(String(value));
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return neutraliseText(String(value));
}

/** Column width in characters: the header, within reason. */
export const widthFor = (header: string, kind: XlsxKind): number =>
  Math.min(40, Math.max(kind === 'text' ? 14 : 11, header.length + 2));

/** A streamed workbook: rows are written and released as they are committed. */
export function workbookWriter(stream: Writable): ExcelJS.stream.xlsx.WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Planning Suite';
  return workbook;
}

/**
 * Waits while the response holds more than it has sent: the database is read no faster than the
 * client downloads, so a slow client does not make the server hold the file.
 */
export function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

export const BOLD: Partial<ExcelJS.Font> = { bold: true };
export const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE2E8F0' } };
export const REQUIRED_FILL: ExcelJS.Fill = {
  type: 'pattern',
  pattern: 'solid',
  fgColor: { argb: 'FFFDE68A' },
};
