/**
 * Turning spreadsheet cells into numbers, dates and text. Real files hold numbers typed as text
 * ("1,234", "$1,234.50", "12%", "1.234,5"), Excel date serials and dates written by hand; these
 * functions accept what a planner's Excel or a European CSV produces and say null when they cannot.
 */

/** A cell as a reader hands it over: formulas already replaced by their cached result. */
export type Cell = string | number | boolean | Date | null;

const DAY_MS = 86_400_000;
/** Excel's 1900 date system counts days from 1899-12-30 (its 1900 leap-year bug included). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
/** Serial of 9999-12-31, the last date Excel shows. */
const MAX_EXCEL_SERIAL = 2_958_465;

const CURRENCY = /[$€£¥₹]/g;
const SPACES = /[\s\u00a0\u202f]/g;

export function isBlankCell(cell: Cell): boolean {
  return cell === null || (typeof cell === 'string' && cell.trim() === '');
}

/** Text of a cell, trimmed; a leading apostrophe that neutralised a formula on export is dropped. */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return toUsDate(cell);
  const text = String(cell).trim();
  return /^'[=+\-@]/.test(text) ? text.slice(1) : text;
}

/**
 * A number from a cell. Text may carry currency signs, a percent sign (the number as written:
 * "12%" is 12), spaces, thousands separators (1,234.5 or 1.234,5 or 1 234) or accounting
 * parentheses for a negative. Null when the cell is not a number.
 */
export function parseNumberCell(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  let text = cell.replace(SPACES, '').replace(CURRENCY, '');
  let sign = 1;
  const accounting = /^\((.*)\)$/.exec(text);
  if (accounting) {
    text = accounting[1] ?? '';
    sign = -1;
  }
  if (text.endsWith('%')) text = text.slice(0, -1);
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  else if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) text = text.replace(/\./g, '').replace(',', '.');
  else if (/^[+-]?\d*,\d+$/.test(text)) text = text.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const value = sign * Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A UTC calendar date, or null when the parts are not a real date. */
function utcDate(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date : null;
}

/**
 * A date from a cell: a date the reader already recognised, an Excel serial number, or text as
 * MM/DD/YYYY (the template's format), M/D/YY, DD/MM/YYYY when the first part is over 12,
 * DD.MM.YYYY or ISO yyyy-mm-dd. Null when it is none of these.
 */
export function parseDateCell(cell: Cell): Date | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || cell < 1 || cell > MAX_EXCEL_SERIAL) return null;
    return new Date(EXCEL_EPOCH_MS + Math.floor(cell) * DAY_MS);
  }
  if (typeof cell !== 'string') return null;
  const text = cell.trim();
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text);
  if (us) {
    const year = Number(us[3]);
    const [first, second] = [Number(us[1]), Number(us[2])];
    // Day first only when the first part cannot be a month (15/03/2026, as European Excel writes).
    return first > 12
      ? utcDate(year < 100 ? 2000 + year : year, second, first)
      : utcDate(year < 100 ? 2000 + year : year, first, second);
  }
  // DD.MM.YYYY, European Excel's other date text.
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (dotted) return utcDate(Number(dotted[3]), Number(dotted[2]), Number(dotted[1]));
  const iso = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+Z?)?$/.exec(text);
  if (iso) return utcDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (/^\d+(\.\d+)?$/.test(text)) return parseDateCell(Number(text));
  return null;
}

/** MM/DD/YYYY, the template's date format. */
export function toUsDate(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}
