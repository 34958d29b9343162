import type { Period } from './network';

export type Granularity = 'month' | 'quarter';

/** The demand horizon of a solve: `periods` months or quarters from the one holding `start` (yyyy-mm). */
export type Horizon = { start: string; periods: number; granularity: Granularity };

export type HorizonRange = {
  periods: Period[];
  /** First day of the first period, yyyy-mm-dd (inclusive). */
  from: string;
  /** First day after the last period, yyyy-mm-dd (exclusive). */
  to: string;
};

const iso = (year: number, monthIndex: number): string => {
  const date = new Date(Date.UTC(year, monthIndex, 1));
  return date.toISOString().slice(0, 10);
};

/**
 * The periods of a horizon and its date range. A week belongs to the month or quarter of its
 * Sunday (the planning grid's buckets), so the range is compared with week_start.
 */
export function horizonRange(horizon: Horizon): HorizonRange {
  const [year, month] = horizon.start.split('-').map(Number) as [number, number];
  const step = horizon.granularity === 'month' ? 1 : 3;
  const firstMonth = horizon.granularity === 'month' ? month - 1 : Math.floor((month - 1) / 3) * 3;
  const periods: Period[] = [];
  for (let i = 0; i < horizon.periods; i += 1) {
    const date = new Date(Date.UTC(year, firstMonth + i * step, 1));
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth();
    periods.push({
      key:
        horizon.granularity === 'month'
          ? `${y}-${String(m + 1).padStart(2, '0')}`
          : `${y}-Q${Math.floor(m / 3) + 1}`,
      months: step,
    });
  }
  return {
    periods,
    from: iso(year, firstMonth),
    to: iso(year, firstMonth + horizon.periods * step),
  };
}

/** The period (month yyyy-mm or quarter yyyy-Qn) a week belongs to: that of its Sunday, as in the grid. */
export function networkPeriodOfWeek(weekStart: string, granularity: Granularity): string {
  const year = weekStart.slice(0, 4);
  const month = Number(weekStart.slice(5, 7));
  return granularity === 'month' ? weekStart.slice(0, 7) : `${year}-Q${Math.floor((month - 1) / 3) + 1}`;
}
