import type { Writable } from 'node:stream';
import {
  excelNumberFormat,
  moneyStyle,
  neutraliseText,
  standardExcelFormat,
  type ExcelNumberStyle,
  type ExportColumnKind,
  type ExportLocale,
} from '@ps/domain';
import ExcelJS from 'exceljs';
import type { XlsxValue } from './xlsx-writer';

/**
 * How cells are written to .xlsx: numbers stay numbers (a planner sums them in Excel) with a
 * number format for their kind in the user's grouping (US or lakh/crore) and currency, text is
 * neutralised against formula injection, dates are real dates shown MM/DD/YYYY (the import
 * template's date format).
 *
 * Kinds beyond the export row's: `number` is a count or units as the grid shows them (whole when
 * whole, else 2 decimals), `rate` an exchange rate (4 decimals).
 */
export type XlsxKind = ExportColumnKind | 'number' | 'rate';

export const PERCENT_FORMAT = '0.00"%"';
/** Text, so that a header or a label never reads as a number or date. */
export const TEXT_FORMAT = '@';

/** Below this, every format of a kind is its column's standard one (see number-formats.ts). */
const STANDARD_BELOW = 999_999_999;

/**
 * The number format of each numeric cell of a column, as something the writer registers once
 * per distinct format (a style index, or the format text for exceljs). Most values take the
 * column's standard format without building any text; only Indian negatives and values from
 * 100 crore need their own.
 */
export function numberFormatter<T>(
  kind: XlsxKind,
  locale: ExportLocale,
  register: (numFmt: string) => T,
): ((value: number) => T) | null {
  if (kind === 'text') return null;
  if (kind === 'percent' || kind === 'date') {
    const fixed = register(kind === 'percent' ? PERCENT_FORMAT : locale.dateFormat);
    return () => fixed;
  }
  const plain = (decimals: number): ExcelNumberStyle => ({ numberFormat: locale.numberFormat, decimals });
  const styles =
    kind === 'money'
      ? [moneyStyle(locale)]
      : kind === 'rate'
        ? [plain(4)]
        : kind === 'number'
          ? [plain(0), plain(2)]
          : [plain(0)];
  const standard = styles.map((style) => register(standardExcelFormat(style)));
  const others = new Map<string, T>();
  const isUs = locale.numberFormat === 'us';
  return (value) => {
    const which = kind === 'number' && !Number.isInteger(value) ? 1 : 0;
    if (isUs || (value >= 0 && value < STANDARD_BELOW)) return standard[which]!;
    const format = excelNumberFormat(value, styles[which]!);
    let registered = others.get(format);
    if (registered === undefined) {
      registered = register(format);
      others.set(format, registered);
    }
    return registered;
  };
}

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

export const BOLD: Partial<ExcelJS.Font> = { bold: true };
export const HEADER_ARGB = 'FFE2E8F0';
export const HEADER_FILL: ExcelJS.Fill = {
  type: 'pattern',
  pattern: 'solid',
  fgColor: { argb: HEADER_ARGB },
};
export const REQUIRED_FILL: ExcelJS.Fill = {
  type: 'pattern',
  pattern: 'solid',
  fgColor: { argb: 'FFFDE68A' },
};
