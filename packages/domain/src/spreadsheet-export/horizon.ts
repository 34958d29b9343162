import { addWeeks, toIsoDate, toTimeSeriesSk, weekStartSunday } from '../weeks';

/**
 * The planning horizon of a spreadsheet export (spec §9: quarterly 4, monthly 13, weekly 52 period
 * columns): the 52 weeks that start with the current week (Sunday, UTC). The periods nest exactly,
 * as in a 4-4-5-free 13-period retail calendar: W1–W52 are the weeks, M1–M13 are 4-week periods
 * and Q1–Q4 are 13-week quarters, so every total reads the same at each granularity. Import reads
 * a quarter's weeks from here too, so an exported Q2 and an imported Q2 are the same 13 weeks.
 */
export const HORIZON_WEEKS = 52;
export const WEEKS_PER_MONTH = 4;
export const WEEKS_PER_QUARTER = 13;
export const HORIZON_QUARTERS = HORIZON_WEEKS / WEEKS_PER_QUARTER;
export const HORIZON_MONTHS = HORIZON_WEEKS / WEEKS_PER_MONTH;

export type PeriodKind = 'Q' | 'M' | 'W';
export const PERIOD_COUNTS: Record<PeriodKind, number> = {
  Q: HORIZON_QUARTERS,
  M: HORIZON_MONTHS,
  W: HORIZON_WEEKS,
};
const WEEKS_PER: Record<PeriodKind, number> = { Q: WEEKS_PER_QUARTER, M: WEEKS_PER_MONTH, W: 1 };

export type ExportHorizon = {
  /** Sunday of W1 and of W52, yyyy-mm-dd. */
  first: string;
  last: string;
  /** Time_Series_sk of every week, W1 first. */
  weeks: string[];
};

export function horizonOf(today: Date): ExportHorizon {
  const start = weekStartSunday(today);
  const weeks = Array.from({ length: HORIZON_WEEKS }, (_, i) => addWeeks(start, i));
  return {
    first: toIsoDate(weeks[0]!),
    last: toIsoDate(weeks[HORIZON_WEEKS - 1]!),
    weeks: weeks.map(toTimeSeriesSk),
  };
}

/** 0-based index of a week (yyyymmdd) in the horizon, or null outside it. */
export function weekIndexOf(horizon: ExportHorizon, timeSeriesSk: string): number | null {
  const index = horizon.weeks.indexOf(timeSeriesSk);
  return index < 0 ? null : index;
}

/** 1-based period number (Q1–Q4, M1–M13, W1–W52) that a 0-based week index falls in. */
export function periodOfWeek(kind: PeriodKind, weekIndex: number): number {
  return Math.floor(weekIndex / WEEKS_PER[kind]) + 1;
}

/** The weeks (Time_Series_sk) of period n, e.g. quarter 2 = W14–W26. */
export function weeksOfPeriod(horizon: ExportHorizon, kind: PeriodKind, n: number): string[] {
  const size = WEEKS_PER[kind];
  return horizon.weeks.slice((n - 1) * size, n * size);
}
