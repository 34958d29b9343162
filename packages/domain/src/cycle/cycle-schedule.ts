/**
 * When the planning cycle runs: every day, or one weekday, at a wall-clock time in the company's
 * IANA time zone. The server turns it into a cron expression for the job queue and computes the
 * next run with `nextCycleRun`; both follow the same rules on a daylight-saving change.
 */
export type CycleSchedule = {
  isEnabled: boolean;
  frequency: CycleFrequency;
  /** 0 = Sunday … 6 = Saturday; used by a weekly schedule only. */
  weekday: number;
  /** Wall-clock time as HH:MM (24-hour). */
  time: string;
  /** IANA time zone name, e.g. Europe/Berlin. */
  timeZone: string;
};

export const CYCLE_FREQUENCIES = ['daily', 'weekly'] as const;
export type CycleFrequency = (typeof CYCLE_FREQUENCIES)[number];

/** Monday 06:00 UTC, switched off: what an installation starts with. */
export const DEFAULT_CYCLE_SCHEDULE: CycleSchedule = {
  isEnabled: false,
  frequency: 'weekly',
  weekday: 1,
  time: '06:00',
  timeZone: 'UTC',
};

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** HH:MM as hour and minute; undefined when it is not a 24-hour time. */
export function parseCycleTime(time: string): { hour: number; minute: number } | undefined {
  const match = TIME.exec(time);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : undefined;
}

/** Whether the runtime knows the name as an IANA time zone (offsets like +01:00 are not names). */
export function isTimeZoneName(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The job queue's cron expression (minute hour day month weekday), read in the schedule's zone. */
export function cycleCron(schedule: CycleSchedule): string {
  const time = parseCycleTime(schedule.time);
  if (!time) throw new Error(`Not a cycle time: ${schedule.time}`);
  const weekday = schedule.frequency === 'weekly' ? String(schedule.weekday) : '*';
  return `${time.minute} ${time.hour} * * ${weekday}`;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at an instant. */
function wallClockAt(instantMs: number, timeZone: string): WallClock & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** An instant as the wall clock in `timeZone` shows it: date as yyyy-mm-dd, time as HH:MM. */
export function zonedDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const wall = wallClockAt(instant.getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${String(wall.year).padStart(4, '0')}-${two(wall.month)}-${two(wall.day)}`,
    time: `${two(wall.hour)}:${two(wall.minute)}`,
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutesAt(instantMs: number, timeZone: string): number {
  const wall = wallClockAt(instantMs, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time happens in a zone. A time the clocks skip (spring forward) is
 * moved forward by the skipped length (02:30 → 03:30); a time that happens twice (fall back) is
 * its first occurrence. These are the job queue's cron rules too, so both agree.
 */
export function zonedInstant(wall: WallClock, timeZone: string): Date {
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const before = offsetMinutesAt(local - DAY_MS, timeZone);
  const after = offsetMinutesAt(local + DAY_MS, timeZone);
  const fits = [before, after]
    .map((offset) => local - offset * 60_000)
    .filter((instant) => {
      const seen = wallClockAt(instant, timeZone);
      return seen.hour === wall.hour && seen.minute === wall.minute && seen.day === wall.day;
    });
  if (fits.length > 0) return new Date(Math.min(...fits));
  return new Date(local - before * 60_000);
}

/** The first time the schedule falls strictly after `after` (whether or not it is enabled). */
export function nextCycleRun(schedule: CycleSchedule, after: Date): Date {
  const time = parseCycleTime(schedule.time);
  if (!time) throw new Error(`Not a cycle time: ${schedule.time}`);
  const today = wallClockAt(after.getTime(), schedule.timeZone);
  // Eight local days always hold a weekday's next occurrence, even when today's has passed.
  for (let days = 0; days <= 8; days++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    if (schedule.frequency === 'weekly' && date.getUTCDay() !== schedule.weekday) continue;
    const instant = zonedInstant(
      {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
        hour: time.hour,
        minute: time.minute,
      },
      schedule.timeZone,
    );
    if (instant.getTime() > after.getTime()) return instant;
  }
  throw new Error('No next cycle run within eight days');
}
