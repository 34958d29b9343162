/**
 * Periods a question names, as week ranges: a record belongs to the quarter and month of its
 * week's Sunday (the grid's buckets), so a period is the weeks whose Sunday falls in [from, to).
 */
export type ResolvedPeriod = { label: string; from: string; to: string };

const iso = (year: number, month: number): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;

export function quarterPeriod(year: number, q: number): ResolvedPeriod {
  const startMonth = (q - 1) * 3 + 1;
  const end = startMonth + 3 > 12 ? iso(year + 1, 1) : iso(year, startMonth + 3);
  return { label: `${year}-Q${q}`, from: iso(year, startMonth), to: end };
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function monthPeriod(year: number, m: number): ResolvedPeriod {
  const end = m === 12 ? iso(year + 1, 1) : iso(year, m + 1);
  return { label: `${MONTH_NAMES[m - 1]} ${year}`, from: iso(year, m), to: end };
}

/** Parses "2026-Q3" into its period; anything else is null. */
export function parseQuarterKey(key: string): ResolvedPeriod | null {
  const match = /^(\d{4})-Q([1-4])$/.exec(key);
  return match ? quarterPeriod(Number(match[1]), Number(match[2])) : null;
}

/**
 * The year of a quarter or month named without one ("Q3"): the occurrence that overlaps the data
 * and is current or ahead of today, else the latest one that overlaps the data, else the next one.
 * A planner asking about "Q3" means the Q3 being planned, not one outside the plan.
 */
export function resolveYear(
  make: (year: number) => ResolvedPeriod,
  today: string,
  data: { from: string; to: string } | null,
): ResolvedPeriod {
  const year = Number(today.slice(0, 4));
  const candidates = [year - 2, year - 1, year, year + 1, year + 2].map(make);
  const overlaps = (p: ResolvedPeriod) => data !== null && p.from <= data.to && p.to > data.from;
  const ahead = candidates.find((p) => p.to > today && overlaps(p));
  if (ahead) return ahead;
  const past = candidates.filter(overlaps).at(-1);
  return past ?? candidates.find((p) => p.to > today)!;
}

const DAY = 86_400_000;
const shiftDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The Sunday that starts the week holding `iso`. */
export function sundayOf(iso: string): string {
  return shiftDays(iso, -new Date(`${iso}T00:00:00Z`).getUTCDay());
}

export function yearPeriod(year: number): ResolvedPeriod {
  return { label: String(year), from: iso(year, 1), to: iso(year + 1, 1) };
}

export type PeriodRequest =
  | { kind: 'week'; week: string }
  | { kind: 'quarter'; q: number; year?: number }
  | { kind: 'month'; m: number; year?: number }
  | { kind: 'year'; year: number }
  | { kind: 'relative'; unit: 'week' | 'month' | 'quarter' | 'year'; offset: number }
  | { kind: 'lastWeeks'; weeks: number }
  | { kind: 'lately' }
  | { kind: 'ytd' };

/** "Lately" is the last 13 full weeks before the current one (a quarter of weekly buckets). */
export const LATELY_WEEKS = 13;

/**
 * A period as asked, in weeks of the planning calendar (weeks start on Sunday; a week belongs to
 * the month, quarter and year of its Sunday): relative periods count from `today`'s week, month,
 * quarter or year; a quarter or month without a year is the one being planned (resolveYear).
 */
export function resolvePeriodRequest(
  ask: PeriodRequest,
  today: string,
  data: { from: string; to: string } | null,
): ResolvedPeriod {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const thisWeek = sundayOf(today);
  switch (ask.kind) {
    case 'week':
      return {
        label: `week ${sundayOf(ask.week)}`,
        from: sundayOf(ask.week),
        to: shiftDays(sundayOf(ask.week), 7),
      };
    case 'quarter':
      return ask.year
        ? quarterPeriod(ask.year, ask.q)
        : resolveYear((y) => quarterPeriod(y, ask.q), today, data);
    case 'month':
      return ask.year ? monthPeriod(ask.year, ask.m) : resolveYear((y) => monthPeriod(y, ask.m), today, data);
    case 'year':
      return yearPeriod(ask.year);
    case 'lastWeeks':
      return {
        label: `${ask.weeks} weeks to ${shiftDays(thisWeek, -1)}`,
        from: shiftDays(thisWeek, -7 * ask.weeks),
        to: thisWeek,
      };
    case 'lately':
      return {
        label: `${LATELY_WEEKS} weeks to ${shiftDays(thisWeek, -1)}`,
        from: shiftDays(thisWeek, -7 * LATELY_WEEKS),
        to: thisWeek,
      };
    case 'ytd':
      return { label: `${year} to ${today}`, from: iso(year, 1), to: shiftDays(today, 1) };
    case 'relative': {
      const n = ask.offset;
      if (ask.unit === 'week') {
        const from = shiftDays(thisWeek, 7 * n);
        return { label: `week ${from}`, from, to: shiftDays(from, 7) };
      }
      if (ask.unit === 'month') {
        const index = year * 12 + (month - 1) + n;
        return monthPeriod(Math.floor(index / 12), (index % 12) + 1);
      }
      if (ask.unit === 'quarter') {
        const index = year * 4 + Math.floor((month - 1) / 3) + n;
        return quarterPeriod(Math.floor(index / 4), (index % 4) + 1);
      }
      return yearPeriod(year + n);
    }
  }
}

const minusYear = (date: string) =>
  `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`.replace(/-02-29$/, '-03-01');

/**
 * The same period a year earlier: a calendar period (quarter, month, year, year to date) the same
 * dates a year before; a run of weeks (a week, the last weeks) 52 weeks before, so Sundays line up.
 */
export function yearEarlier(period: ResolvedPeriod, weekAligned: boolean): ResolvedPeriod {
  return weekAligned
    ? { label: period.label, from: shiftDays(period.from, -364), to: shiftDays(period.to, -364) }
    : { label: period.label, from: minusYear(period.from), to: minusYear(period.to) };
}
