import type { UserSettings } from '../user-settings';

export type DateFormat = UserSettings['dateFormat'];

type CalendarParts = { year: number; month: number; day: number; hours: number; minutes: number };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * Calendar parts of a value. Date-only text ('2026-11-15', or Time_Series_sk '20261115') is a
 * calendar day and is read as written, never shifted by the time zone; timestamps and Date
 * objects are shown in the browser's local time. Returns null for what is not a valid date.
 */
export function toCalendarParts(value: string | Date | null | undefined): CalendarParts | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const match = DATE_ONLY.exec(value) ?? COMPACT_DATE.exec(value);
    if (match) {
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const check = new Date(Date.UTC(year, month - 1, day));
      if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
      return { year, month, day, hours: 0, minutes: 0 };
    }
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hours: date.getHours(),
    minutes: date.getMinutes(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function datePart(parts: CalendarParts, dateFormat: DateFormat): string {
  const mm = pad(parts.month);
  const dd = pad(parts.day);
  return dateFormat === 'dd/mm/yyyy' ? `${dd}/${mm}/${parts.year}` : `${mm}/${dd}/${parts.year}`;
}

/** '2026-11-05' → '11/05/2026' (mm/dd/yyyy) or '05/11/2026' (dd/mm/yyyy); invalid or empty → ''. */
export function formatDate(value: string | Date | null | undefined, dateFormat: DateFormat): string {
  const parts = toCalendarParts(value);
  return parts ? datePart(parts, dateFormat) : '';
}

/** A timestamp as date plus 24-hour local time: '11/05/2026 14:07'; invalid or empty → ''. */
export function formatDateTime(value: string | Date | null | undefined, dateFormat: DateFormat): string {
  const parts = toCalendarParts(value);
  return parts ? `${datePart(parts, dateFormat)} ${pad(parts.hours)}:${pad(parts.minutes)}` : '';
}
