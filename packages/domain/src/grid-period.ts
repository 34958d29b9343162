import type { GridPeriod, GridPeriodChoice } from './planning-grid';
import { addWeeks, toIsoDate, weekStartSunday } from './weeks';

/** The weeks a view covers, by their Sundays (yyyy-mm-dd), both inclusive; null: open on that side. */
export type WeekRange = { from: string | null; to: string | null };

/** What the named periods are measured from: the clock's week (its Sunday) and the plan horizon's length. */
export type PlanClock = { currentWeek: string; horizonWeeks: number };

const sundayDate = (iso: string): Date => new Date(`${iso}T00:00:00Z`);

/** The plan horizon on the clock's week: that week and the horizonWeeks − 1 after it (what the roll keeps planned). */
export function horizonRangeOf(clock: PlanClock): { from: string; to: string } {
  return {
    from: clock.currentWeek,
    to: toIsoDate(addWeeks(sundayDate(clock.currentWeek), clock.horizonWeeks - 1)),
  };
}

/** The weeks of a named period on the clock's week: the plan horizon, every week before it, or all. */
export function weekRangeOf(period: GridPeriod, clock: PlanClock): WeekRange {
  switch (period) {
    case 'horizon':
      return horizonRangeOf(clock);
    case 'history':
      return { from: null, to: toIsoDate(addWeeks(sundayDate(clock.currentWeek), -1)) };
    case 'all':
      return { from: null, to: null };
  }
}

/** The Sunday (yyyy-mm-dd) of the week holding a day given as yyyy-mm-dd; null for no real day. */
export function sundayOfDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = sundayDate(day);
  if (Number.isNaN(date.getTime()) || toIsoDate(date) !== day) return null;
  return toIsoDate(weekStartSunday(date));
}

/** A request's period parameters (already each checked to be a period name or a Sunday). */
export type PeriodParams = {
  period?: GridPeriod | undefined;
  fromWeek?: string | undefined;
  toWeek?: string | undefined;
};

/**
 * The weeks a request asks for: a named period on the clock, or the weeks it gives (none: all).
 * Answers the problem instead when it names a period and weeks together, or ends before it starts.
 */
export function requestedWeeks(
  params: PeriodParams,
  clock: PlanClock,
): { range: WeekRange } | { problem: string; field: 'period' | 'toWeek' } {
  const hasWeeks = params.fromWeek !== undefined || params.toWeek !== undefined;
  if (params.period !== undefined && hasWeeks)
    return { problem: 'give either period or fromWeek/toWeek, not both', field: 'period' };
  if (params.period !== undefined) return { range: weekRangeOf(params.period, clock) };
  const range = { from: params.fromWeek ?? null, to: params.toWeek ?? null };
  if (range.from !== null && range.to !== null && range.from > range.to)
    return { problem: `must not be before fromWeek (${range.from})`, field: 'toWeek' };
  return { range };
}

/** Whether a range leaves any week out (all weeks need no filter). */
export function isBoundedRange(range: WeekRange | undefined): range is WeekRange {
  return range !== undefined && (range.from !== null || range.to !== null);
}

/** The request parameters of a chosen period: its name, or its fixed weeks. */
export function periodParamsOf(choice: GridPeriodChoice): PeriodParams {
  if (typeof choice === 'string') return { period: choice };
  return {
    ...(choice.from === null ? {} : { fromWeek: choice.from }),
    ...(choice.to === null ? {} : { toWeek: choice.to }),
  };
}

/** The weeks a chosen period covers on the clock. */
export function weeksOfChoice(choice: GridPeriodChoice, clock: PlanClock): WeekRange {
  return typeof choice === 'string' ? weekRangeOf(choice, clock) : choice;
}
