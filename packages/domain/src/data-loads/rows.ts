import { CLIENT_IDS } from '../demand-record';
import { UNITS_MAX, ZPidSchema } from '../demand-record.schema';
import { cellText, parseDateCell, parseNumberCell, type Cell } from '../spreadsheet-import/cells';
import { normalizeHeader } from '../spreadsheet-import/headers';
import { isSunday, parseTimeSeriesSk, toIsoDate, weekStartSunday } from '../weeks';
import type { DataLoadLayout, LayoutColumn } from './layouts';

/** One row the load refuses: its row number in the file (the header is row 1), the column, why. */
export type DataLoadRefusal = { row: number; field: string; reason: string };

/** Which file column holds each layout column. */
export type LayoutMapping = Record<string, number>;

/** Amounts and money beyond this are refused (the tables' NUMERIC(14,4) holds less than 10^10). */
export const AMOUNT_MAX = 9_999_999_999;
const TEXT_MAX = 100;
const FIRST_YEAR = 1990;
const LAST_YEAR = 2100;

/**
 * Maps a header row to the layout's columns: a header matches a column's name or alias, without
 * regard to case, spaces or punctuation ("unit_price", "Unit Price", "UNIT PRICE"). Answers the
 * mapping, or the problem a file must not pass: required columns missing, a column twice.
 */
export function mapLayoutHeaders(
  layout: DataLoadLayout,
  headers: readonly string[],
): { mapping: LayoutMapping } | { problem: string } {
  const names = new Map<string, LayoutColumn>();
  for (const column of layout.columns)
    for (const name of [column.header, ...column.aliases]) names.set(normalizeHeader(name), column);
  const mapping: LayoutMapping = {};
  for (const [index, header] of headers.entries()) {
    const column = names.get(normalizeHeader(header));
    if (!column) continue;
    if (mapping[column.key] !== undefined)
      return { problem: `The column ${column.header} appears twice (as "${header}" too)` };
    mapping[column.key] = index;
  }
  const missing = layout.columns
    .filter((c) => c.required && mapping[c.key] === undefined)
    .map((c) => c.header);
  for (const group of layout.oneOf ?? []) {
    if (group.every((key) => mapping[key] === undefined))
      missing.push(group.map((key) => layout.columns.find((c) => c.key === key)!.header).join(' or '));
  }
  if (missing.length > 0)
    return {
      problem: `The file is missing the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of the ${layout.title.toLowerCase()} layout (found: ${headers.filter((h) => h.trim() !== '').join(', ') || 'no header'})`,
    };
  return { mapping };
}

export type LayoutValue = string | number | boolean | null;
export type LayoutRow = Record<string, LayoutValue>;

/** Whether a row has no value at all (a blank line is skipped, not refused). */
export const isBlankRow = (cells: readonly Cell[]): boolean => cells.every((cell) => cellText(cell) === '');

function dateOf(cell: Cell): Date | null {
  const text = cellText(cell);
  const date = /^\d{8}$/.test(text) ? parseTimeSeriesSk(text) : parseDateCell(cell);
  if (!date) return null;
  const year = date.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR ? date : null;
}

/**
 * Reads one data row into the layout's values, or the first reason it cannot be loaded. Blank
 * optional cells are null (a load keeps what it does not send); a sales-history row says which
 * week it falls in and whether it came as a day.
 */
export function readLayoutRow(
  layout: DataLoadLayout,
  mapping: LayoutMapping,
  cells: readonly Cell[],
  row: number,
): { values: LayoutRow } | { refusal: DataLoadRefusal } {
  const values: LayoutRow = {};
  for (const column of layout.columns) {
    const index = mapping[column.key];
    const cell = index === undefined ? null : (cells[index] ?? null);
    const text = cellText(cell);
    const refuse = (reason: string) => ({ refusal: { row, field: column.header, reason } });
    if (text === '') {
      if (column.required) return refuse(`${column.header} is required but is empty`);
      values[column.key] = null;
      continue;
    }
    switch (column.kind) {
      case 'pid': {
        const parsed = ZPidSchema.safeParse(text);
        if (!parsed.success)
          return refuse(`${column.header} ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
        values[column.key] = parsed.data;
        break;
      }
      case 'client': {
        const client = CLIENT_IDS.find((id) => id === text.toLowerCase());
        if (!client)
          return refuse(`${column.header} "${text}" is not a client: use ${CLIENT_IDS.join(' or ')}`);
        values[column.key] = client;
        break;
      }
      case 'text':
        if (text.length > TEXT_MAX) return refuse(`${column.header} must be at most ${TEXT_MAX} characters`);
        values[column.key] = text;
        break;
      case 'amount':
      case 'units': {
        const value = parseNumberCell(cell);
        const max = column.kind === 'units' ? UNITS_MAX : AMOUNT_MAX;
        if (value === null) return refuse(`${column.header} "${text}" is not a number`);
        if (value < 0) return refuse(`${column.header} must be 0 or more`);
        if (value > max) return refuse(`${column.header} must be at most ${max}`);
        values[column.key] = value;
        break;
      }
      case 'date':
      case 'week': {
        const date = dateOf(cell);
        if (!date)
          return refuse(
            `${column.header} "${text}" is not a date between ${FIRST_YEAR} and ${LAST_YEAR} (yyyy-mm-dd, MM/DD/YYYY or yyyymmdd)`,
          );
        if (column.kind === 'week' && !isSunday(date))
          return refuse(
            `${column.header} ${toIsoDate(date)} is not a Sunday: give the week's Sunday, or put days in a Date column`,
          );
        values[column.key] = toIsoDate(date);
        break;
      }
    }
  }
  if (layout.entity === 'sales-history') {
    if (values.week !== null && values.day !== null)
      return { refusal: { row, field: 'Week', reason: 'Give a Week or a Date, not both' } };
    if (values.week === null && values.day === null)
      return { refusal: { row, field: 'Week', reason: 'Week or Date is required but both are empty' } };
    const isDay = values.day !== null;
    values.week = isDay
      ? toIsoDate(weekStartSunday(new Date(`${values.day as string}T00:00:00Z`)))
      : values.week!;
    values.isDay = isDay;
  }
  return { values };
}
