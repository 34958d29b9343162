/**
 * Weekly time keys. Weeks start on Sunday; a week is named by its Sunday as yyyymmdd
 * (Time_Series_sk). All arithmetic is in UTC so that a key never shifts with the server's zone.
 */
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The Sunday on or before the given day, at midnight UTC. */
export function weekStartSunday(date: Date): Date {
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return new Date(midnight - new Date(midnight).getUTCDay() * DAY_MS);
}

export function addWeeks(date: Date, weeks: number): Date {
  return new Date(date.getTime() + weeks * 7 * DAY_MS);
}

export function toTimeSeriesSk(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

/** Parses a yyyymmdd key; null when it is not a real calendar date. */
export function parseTimeSeriesSk(sk: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(sk);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isSameDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isSameDay ? date : null;
}

/** Whole weeks from one yyyy-mm-dd Sunday to another (negative when `to` is earlier). */
export function weeksBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (7 * DAY_MS));
}

export function isSunday(date: Date): boolean {
  return date.getUTCDay() === 0;
}

export function toIsoDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** Quarter number 1–4 of a month (1–12): ceil(month / 3). */
export function quarterOfMonth(month: number): number {
  return Math.ceil(month / 3);
}

export function fiscalQuarterKey(date: Date): string {
  return `${date.getUTCFullYear()}-Q${quarterOfMonth(date.getUTCMonth() + 1)}`;
}

export function monthKey(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}`;
}

/**
 * Week number within the Sunday's year: week 1 is the Sunday-start week holding January 1
 * (the US convention that matches Sunday-start weeks).
 */
export function weekKey(sunday: Date): string {
  const saturday = new Date(sunday.getTime() + 6 * DAY_MS);
  const year = saturday.getUTCFullYear();
  const firstSunday = weekStartSunday(new Date(Date.UTC(year, 0, 1)));
  const week = Math.floor((sunday.getTime() - firstSunday.getTime()) / (7 * DAY_MS)) + 1;
  return `${year}-W${pad(week)}`;
}

/** The derived time fields of a record, from its week's Sunday. */
export function timeFieldsOf(sunday: Date): {
  Time_Series_sk: string;
  Month_Key: string;
  Week_Key: string;
  Fiscal_Quarter: string;
  Date: string;
  Time_Series: string;
} {
  return {
    Time_Series_sk: toTimeSeriesSk(sunday),
    Month_Key: monthKey(sunday),
    Week_Key: weekKey(sunday),
    Fiscal_Quarter: fiscalQuarterKey(sunday),
    Date: toIsoDate(sunday),
    Time_Series: sunday.toISOString(),
  };
}
