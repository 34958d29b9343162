import { toIsoDate, weekStartSunday } from '@ps/domain';

const DAY_MS = 86_400_000;

/**
 * Where the server takes "today" and the current week from: every service that means the
 * current day (dashboard, control tower, imports, exports, plan cycles, the rolling horizon, …)
 * asks this one clock instead of `new Date()`. Times of writes (audit rows, run and import
 * timestamps) stay real time: they record when something happened, not which plan week it is.
 */
export type Clock = {
  now(): Date;
};

/** Real time. */
export const systemClock: Clock = { now: () => new Date() };

/** The day of `date` at midnight UTC. */
const dayOf = (date: Date): number => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());

/**
 * A clock on one fixed day (CLOCK_TODAY) whose time of day still runs, so ordering by "now"
 * within the day keeps working while the date never moves.
 */
export function fixedDayClock(day: Date): Clock {
  const start = dayOf(day);
  return { now: () => new Date(start + (Date.now() - dayOf(new Date()))) };
}

/**
 * Real time moved by an offset the tests set: they step weeks forward without waiting for them.
 * Only tests create one; the server never exposes a way to move its clock.
 */
export class MovableClock implements Clock {
  private offsetMs = 0;

  constructor(start?: Date) {
    if (start) this.setToday(start);
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Today becomes `day` (its time of day keeps running). */
  setToday(day: Date): void {
    this.offsetMs = dayOf(day) - dayOf(new Date());
  }

  advanceWeeks(weeks: number): void {
    this.offsetMs += weeks * 7 * DAY_MS;
  }
}

/** The Sunday of the clock's week, midnight UTC. */
export const currentWeekOf = (clock: Clock): Date => weekStartSunday(clock.now());

/** The clock's day as yyyy-mm-dd (UTC). */
export const todayOf = (clock: Clock): string => toIsoDate(clock.now());

/** CLOCK_TODAY set: a fixed day; unset: real time. */
export function clockFromConfig(config: { CLOCK_TODAY?: Date | undefined }): Clock {
  return config.CLOCK_TODAY ? fixedDayClock(config.CLOCK_TODAY) : systemClock;
}
