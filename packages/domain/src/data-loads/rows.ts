import { CLIENT_IDS } from '../demand-record';
import { UNITS_MAX, ZPidSchema } from '../demand-record.schema';
import { cellText, parseDateCell, parseNumberCell, type Cell } from '../spreadsheet-import/cells';
import { normalizeHeader } from '../spreadsheet-import/headers';
import { isSunday, parseTimeSeriesSk, toIsoDate, weekStartSunday } from '../weeks';
import { ORDER_STATUSES, type DataLoadEntity, type DataLoadLayout, type LayoutColumn } from './layouts';

/** One row the load refuses: its row number in the file (the header is row 1), the column, why. */
export type DataLoadRefusal = { row: number; field: string; reason: string };

/** Which file column holds each layout column. */
export type LayoutMapping = Record<string, number>;

/** Amounts and money beyond this are refused (the tables' NUMERIC(14,4) holds less than 10^10). */
export const AMOUNT_MAX = 9_999_999_999;
const TEXT_MAX = 100;
/** Durations (weeks or days) and their spread beyond this are refused. */
const DURATION_MAX = 1000;
/** The longest lead time the inventory policy plans with: two years. */
export const LEAD_TIME_MAX_WEEKS = 104;
const PERIOD_MAX_WEEKS = 52;
const DAYS_PER_WEEK = 7;
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
export const isBlankRow = (cells: readonly Cell[]): boolean => cells.every(isBlankCell);

/** cellText(cell) === '', without making the text of a text cell (only blanks read as blank). */
const isBlankCell = (cell: Cell): boolean =>
  typeof cell === 'string' ? cell.trim() === '' : cellText(cell) === '';

function dateOf(cell: Cell): Date | null {
  const text = cellText(cell);
  const date = /^\d{8}$/.test(text) ? parseTimeSeriesSk(text) : parseDateCell(cell);
  if (!date) return null;
  const year = date.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR ? date : null;
}

/**
 * A row's refusal for one column. Module-level rather than a closure made per cell: the parse
 * reads millions of cells, and a closure per cell (named, so wrapped by the TypeScript loader)
 * cost the reader a third of its time.
 */
const refuseCell = (row: number, column: { header: string }, reason: string) => ({
  refusal: { row, field: column.header, reason },
});

/**
 * What a text cell read as, kept for the cells that follow: a file of millions of rows repeats a
 * few thousand PIDs and a few hundred weeks, and validating each again (a schema check, date
 * parsing and formatting) cost the reader most of its time. Only readings that passed are kept;
 * the result is a function of the cell's text alone. Cleared when it grows past a bound.
 */
const readCells = new Map<string, string>();
const READ_CELLS_MAX = 50_000;

function keepRead(key: string, value: string): string {
  if (readCells.size >= READ_CELLS_MAX) readCells.clear();
  readCells.set(key, value);
  return value;
}

/** Digits only: the number as written (no separators, signs or currency for parseNumberCell to read). */
const PLAIN_DIGITS = /^\d{1,15}$/;

/** A layout's one-of and at-most-one column groups, listed once per layout. */
const layoutGroups = new WeakMap<DataLoadLayout, ReadonlyArray<readonly string[]>>();

function groupsOf(layout: DataLoadLayout): ReadonlyArray<readonly string[]> {
  let groups = layoutGroups.get(layout);
  if (!groups) {
    groups = [...(layout.oneOf ?? []), ...(layout.atMostOne ?? [])];
    layoutGroups.set(layout, groups);
  }
  return groups;
}

const headerOf = (layout: DataLoadLayout, key: string): string =>
  layout.columns.find((c) => c.key === key)!.header;

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
    if (text === '') {
      if (column.required) return refuseCell(row, column, `${column.header} is required but is empty`);
      values[column.key] = null;
      continue;
    }
    switch (column.kind) {
      case 'pid': {
        const known = typeof cell === 'string' ? readCells.get(`p${cell}`) : undefined;
        if (known !== undefined) {
          values[column.key] = known;
          break;
        }
        const parsed = ZPidSchema.safeParse(text);
        if (!parsed.success)
          return refuseCell(
            row,
            column,
            `${column.header} ${parsed.error.issues[0]?.message ?? 'is not valid'}`,
          );
        values[column.key] = typeof cell === 'string' ? keepRead(`p${cell}`, parsed.data) : parsed.data;
        break;
      }
      case 'client': {
        const client = CLIENT_IDS.find((id) => id === text.toLowerCase());
        if (!client)
          return refuseCell(
            row,
            column,
            `${column.header} "${text}" is not a client: use ${CLIENT_IDS.join(' or ')}`,
          );
        values[column.key] = client;
        break;
      }
      case 'text':
        if (text.length > TEXT_MAX)
          return refuseCell(row, column, `${column.header} must be at most ${TEXT_MAX} characters`);
        values[column.key] = text;
        break;
      case 'amount':
      case 'units': {
        const value =
          typeof cell === 'string' && PLAIN_DIGITS.test(cell) ? Number(cell) : parseNumberCell(cell);
        const max = column.kind === 'units' ? UNITS_MAX : AMOUNT_MAX;
        if (value === null) return refuseCell(row, column, `${column.header} "${text}" is not a number`);
        if (value < 0) return refuseCell(row, column, `${column.header} must be 0 or more`);
        if (value > max) return refuseCell(row, column, `${column.header} must be at most ${max}`);
        values[column.key] = value;
        break;
      }
      case 'count': {
        const value = parseNumberCell(cell);
        if (value === null) return refuseCell(row, column, `${column.header} "${text}" is not a number`);
        if (!Number.isInteger(value))
          return refuseCell(row, column, `${column.header} must be a whole number of units`);
        if (value < 0) return refuseCell(row, column, `${column.header} must be 0 or more`);
        if (value > UNITS_MAX)
          return refuseCell(row, column, `${column.header} must be at most ${UNITS_MAX}`);
        values[column.key] = value;
        break;
      }
      case 'duration':
      case 'spread':
      case 'percent': {
        const value = parseNumberCell(cell);
        const max = column.kind === 'percent' ? 100 : DURATION_MAX;
        if (value === null) return refuseCell(row, column, `${column.header} "${text}" is not a number`);
        if (column.kind === 'duration' && value <= 0)
          return refuseCell(row, column, `${column.header} must be more than 0`);
        if (value < 0) return refuseCell(row, column, `${column.header} must be 0 or more`);
        if (value > max) return refuseCell(row, column, `${column.header} must be at most ${max}`);
        values[column.key] = value;
        break;
      }
      case 'status': {
        const word = text.toLowerCase();
        const status = (Object.keys(ORDER_STATUSES) as Array<keyof typeof ORDER_STATUSES>).find((s) =>
          (ORDER_STATUSES[s] as readonly string[]).includes(word),
        );
        if (!status)
          return refuseCell(
            row,
            column,
            `${column.header} "${text}" is not an order status: use ${[...ORDER_STATUSES.open, ...ORDER_STATUSES.closed].join(', ')}`,
          );
        values[column.key] = status;
        break;
      }
      case 'date':
      case 'week': {
        const key = typeof cell === 'string' ? `${column.kind === 'week' ? 'w' : 'd'}${cell}` : null;
        const known = key === null ? undefined : readCells.get(key);
        if (known !== undefined) {
          values[column.key] = known;
          break;
        }
        const date = dateOf(cell);
        if (!date)
          return refuseCell(
            row,
            column,
            `${column.header} "${text}" is not a date between ${FIRST_YEAR} and ${LAST_YEAR} (yyyy-mm-dd, MM/DD/YYYY or yyyymmdd)`,
          );
        if (column.kind === 'week' && !isSunday(date))
          return refuseCell(
            row,
            column,
            `${column.header} ${toIsoDate(date)} is not a Sunday: give the week's Sunday, or put days in a Date column`,
          );
        values[column.key] = key === null ? toIsoDate(date) : keepRead(key, toIsoDate(date));
        break;
      }
    }
  }
  for (const group of groupsOf(layout)) {
    // Counted before anything is built: a row that passes (nearly every one) allocates nothing.
    let count = 0;
    for (const key of group) if (values[key] !== null) count += 1;
    if (count === 1) continue;
    const given = group.filter((key) => values[key] !== null);
    const names = group.map((key) => headerOf(layout, key)).join(' or ');
    if (given.length > 1)
      return { refusal: { row, field: headerOf(layout, given[0]!), reason: `Give ${names}, not both` } };
    if (given.length === 0 && layout.oneOf?.includes(group))
      return {
        refusal: {
          row,
          field: headerOf(layout, group[0]!),
          reason: `${names} is required but both are empty`,
        },
      };
  }
  const complete = COMPLETE_ROW[layout.entity];
  return complete ? complete(values, row) : { values };
}

type RowResult = { values: LayoutRow } | { refusal: DataLoadRefusal };

/** Whole weeks of a lead time given in weeks or days: a part week counts as a whole one. */
export function leadTimeInWeeks(given: { weeks: number | null; days: number | null }): number {
  const weeks = given.weeks ?? (given.days ?? 0) / DAYS_PER_WEEK;
  // A tolerance for binary fractions: 14 days are 2 weeks, not 3.
  return Math.max(1, Math.ceil(weeks - 1e-9));
}

/** Its standard deviation in weeks, to 0.01 week (the inventory table's precision). */
export function leadTimeSdInWeeks(given: { weeks: number | null; days: number | null }): number | null {
  if (given.weeks === null && given.days === null) return null;
  const weeks = given.weeks ?? given.days! / DAYS_PER_WEEK;
  return Math.round(weeks * 100) / 100;
}

const num = (value: LayoutValue | undefined): number | null => (typeof value === 'number' ? value : null);

/** What an entity's row becomes once its cells are read: the values its stage table takes. */
const COMPLETE_ROW: Partial<Record<DataLoadEntity, (values: LayoutRow, row: number) => RowResult>> = {
  'sales-history': (values) => {
    const isDay = values.day !== null;
    values.week = isDay
      ? toIsoDate(weekStartSunday(new Date(`${values.day as string}T00:00:00Z`)))
      : values.week!;
    values.isDay = isDay;
    return { values };
  },
  'lead-times': (values, row) => {
    const weeks = leadTimeInWeeks({ weeks: num(values.leadTimeWeeks), days: num(values.leadTimeDays) });
    if (weeks > LEAD_TIME_MAX_WEEKS)
      return {
        refusal: {
          row,
          field: values.leadTimeWeeks !== null ? 'Lead Time Weeks' : 'Lead Time Days',
          reason: `The lead time must be at most ${LEAD_TIME_MAX_WEEKS} weeks (it is ${weeks})`,
        },
      };
    for (const [key, field] of [
      ['reviewPeriod', 'Review Period'],
      ['replenishmentFrequency', 'Replenishment Frequency'],
    ] as const) {
      const value = num(values[key]);
      if (value !== null && (!Number.isInteger(value) || value > PERIOD_MAX_WEEKS))
        return {
          refusal: {
            row,
            field,
            reason: `${field} must be a whole number of weeks from 1 to ${PERIOD_MAX_WEEKS}`,
          },
        };
    }
    values.leadTimeWeeks = weeks;
    values.leadTimeSdWeeks = leadTimeSdInWeeks({
      weeks: num(values.leadTimeSdWeeks),
      days: num(values.leadTimeSdDays),
    });
    const share = num(values.demandShare);
    values.demandShare = share === null ? null : Math.round(share * 100) / 10_000;
    return { values };
  },
  'open-orders': (values) => {
    values.status ??= 'open';
    return { values };
  },
};
