import { CURRENCY_SYMBOLS, roundTo, type Currency, type NumberFormat } from '../format';

/**
 * Excel number formats for the exports' numeric cells, in the user's number format (the
 * cells keep their numeric value, only the format groups the digits).
 *
 * Excel has no lakh grouping of its own: `#,##0` always groups in threes. Indian grouping is
 * written with literal commas (`##\,##\,##0`), which Excel prints even when the number is too
 * short to reach them, so each grouping has to be chosen by the number's size. A format holds at
 * most two conditions plus a default section, so:
 *
 * - a value from 0 to 99,99,99,999.99 gets `[>=9999999.995]##\,##\,##\,##0.00;
 *   [>=99999.995]##\,##\,##0.00;#,##0.00` (crore, lakh, below a lakh both systems agree), which
 *   stays right if the planner types another positive number under 100 crore into the cell;
 * - a larger value gets the same shape one or more groups up (arab, kharab…);
 * - a negative value gets one section grouped for its own size. Excel, LibreOffice and Sheets
 *   disagree on whether a condition section such as `[<=-100000]` shows the minus sign, but all
 *   put it in front of a one-section format (`-₹12,34,567.89`).
 *
 * Thresholds are where the rounded figure reaches the next group (99,999.995 shows as 1,00,000.00).
 */
export type ExcelNumberStyle = {
  numberFormat: NumberFormat;
  /** Decimal places shown. */
  decimals: number;
  /** Money: the currency whose symbol goes before the digits; negatives are red. */
  currency?: Currency;
};

const fraction = (decimals: number): string => (decimals > 0 ? `.${'0'.repeat(decimals)}` : '');

/** The digits with `separators` commas: 0–1 → #,##0, 2 → ##\,##\,##0 (lakh), 3 → ##\,##\,##\,##0 (crore). */
function indianDigits(separators: number, decimals: number): string {
  if (separators <= 1) return `#,##0${fraction(decimals)}`;
  return `##${'\\,##'.repeat(separators - 2)}\\,##\\,##0${fraction(decimals)}`;
}

/** The smallest value that shows with `separators` commas once rounded: 2 → 99999.995 at 2 decimals. */
function threshold(separators: number, decimals: number): string {
  const nines = '9'.repeat(2 * separators + 1);
  return `${nines}.${'9'.repeat(decimals)}5`;
}

/** Commas in the Indian grouping of |value| once rounded: 12,34,567.89 → 2. */
export function indianSeparators(value: number, decimals: number): number {
  const digits = Math.trunc(Math.abs(roundTo(value, decimals))).toFixed(0).length;
  return digits <= 3 ? 0 : 1 + Math.floor((digits - 4) / 2);
}

const prefixOf = (style: ExcelNumberStyle): string =>
  style.currency ? `"${CURRENCY_SYMBOLS[style.currency]}"` : '';

/** Non-negative values whose largest grouping is `top` commas (3 covers everything below 100 crore). */
function indianPositive(style: ExcelNumberStyle, top: number): string {
  const p = prefixOf(style);
  const d = style.decimals;
  return (
    `[>=${threshold(top, d)}]${p}${indianDigits(top, d)};` +
    `[>=${threshold(top - 1, d)}]${p}${indianDigits(top - 1, d)};${p}${indianDigits(1, d)}`
  );
}

function usFormat(style: ExcelNumberStyle): string {
  const digits = `#,##0${fraction(style.decimals)}`;
  const p = prefixOf(style);
  return style.currency ? `${p}${digits};[Red]-${p}${digits}` : digits;
}

/** The largest value the standard Indian format groups right (99,99,99,999.99 at 2 decimals). */
const CRORE_TOP = 3;
const standardCache = new Map<string, string>();

/**
 * The format a column of this style carries: the one every value below 100 crore (and every
 * value in the US format) is shown with.
 */
export function standardExcelFormat(style: ExcelNumberStyle): string {
  const key = `${style.numberFormat}|${style.decimals}|${style.currency ?? ''}`;
  let format = standardCache.get(key);
  if (format === undefined) {
    format = style.numberFormat === 'indian' ? indianPositive(style, CRORE_TOP) : usFormat(style);
    standardCache.set(key, format);
  }
  return format;
}

/** The format for one cell's value: the standard one unless an Indian value is negative or ≥ 100 crore. */
export function excelNumberFormat(value: number | null, style: ExcelNumberStyle): string {
  if (style.numberFormat !== 'indian' || value === null || !Number.isFinite(value)) {
    return standardExcelFormat(style);
  }
  const separators = indianSeparators(value, style.decimals);
  if (value < 0 && separators >= 2) {
    return `${style.currency ? '[Red]' : ''}${prefixOf(style)}${indianDigits(separators, style.decimals)}`;
  }
  if (value < 0) return standardExcelFormat({ ...style, numberFormat: 'us' });
  return separators > CRORE_TOP ? indianPositive(style, separators) : standardExcelFormat(style);
}
