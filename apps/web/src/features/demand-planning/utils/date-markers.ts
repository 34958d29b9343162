/** How a date cell reads (spec §5: dates that look corrupted show a marker with a warning sign). */
export type DateCell =
  | { kind: 'empty' }
  | { kind: 'valid'; date: Date }
  | { kind: 'marker'; label: 'Corrupted Date' | 'Invalid Date' | 'Parse Error' };

/** Years outside this range come from a broken import or a unit mix-up (seconds vs ms), not a plan. */
const PLAUSIBLE_YEARS = { min: 1900, max: 2200 };

const YMD_COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * Classifies a date value from the API (yyyy-mm-dd, yyyymmdd or an ISO timestamp):
 * - 'Parse Error' when it is not text in any date shape at all,
 * - 'Invalid Date' when it has a date shape but names no real day (2026-02-30),
 * - 'Corrupted Date' when it is a real day in an implausible year (0001-01-01, 9999-12-31).
 */
export function describeDateCell(value: unknown): DateCell {
  if (value === null || value === undefined || value === '') return { kind: 'empty' };
  if (typeof value !== 'string') return { kind: 'marker', label: 'Parse Error' };
  const compact = YMD_COMPACT.exec(value);
  const text = compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : value;
  const dayPart = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!dayPart) return { kind: 'marker', label: 'Parse Error' };
  const [year, month, day] = [Number(dayPart[1]), Number(dayPart[2]), Number(dayPart[3])];
  if (year < PLAUSIBLE_YEARS.min || year > PLAUSIBLE_YEARS.max)
    return { kind: 'marker', label: 'Corrupted Date' };
  const date = text.length === 10 ? new Date(Date.UTC(year, month - 1, day)) : new Date(text);
  if (Number.isNaN(date.getTime())) return { kind: 'marker', label: 'Invalid Date' };
  const isRealDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (text.length === 10 && !isRealDay) return { kind: 'marker', label: 'Invalid Date' };
  return { kind: 'valid', date };
}
