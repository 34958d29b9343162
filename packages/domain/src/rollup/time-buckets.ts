import type { DrillDown } from '../planning-grid';

/**
 * Time buckets of the Drill Down dropdown (spec §9 'Time groupings'). A record falls in the bucket
 * of its week's Sunday (the same day its Month_Key and Fiscal_Quarter come from), so every week
 * belongs to exactly one month, quarter and year. The SQL roll-ups build the same keys with
 * to_char (see apps/server/src/db/planning-grid.sql.ts); labels are made here only.
 */
export type TimeBucketDrillDown = Exclude<DrillDown, 'none'>;

const DAY_MS = 86_400_000;
const pad = (n: number): string => String(n).padStart(2, '0');

function sundayOf(weekStart: string): Date {
  const date = new Date(`${weekStart}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}$/.test(weekStart))
    throw new Error(`Not a week start (yyyy-mm-dd): ${weekStart}`);
  return date;
}

/**
 * Bucket key of a week (its Sunday as yyyy-mm-dd): weekly 'yyyy-mm-dd' (the Sunday), monthly
 * 'yyyy-mm', quarterly 'yyyy-Qn' with n = ceil(month / 3), yearly 'yyyy'. Keys sort in time order.
 */
export function periodKeyOf(drillDown: TimeBucketDrillDown, weekStart: string): string {
  const sunday = sundayOf(weekStart);
  const year = sunday.getUTCFullYear();
  const month = sunday.getUTCMonth() + 1;
  switch (drillDown) {
    case 'weekly':
      return `${year}-${pad(month)}-${pad(sunday.getUTCDate())}`;
    case 'monthly':
      return `${year}-${pad(month)}`;
    case 'quarterly':
      return `${year}-Q${Math.ceil(month / 3)}`;
    case 'yearly':
      return String(year);
  }
}

/** The Saturday that closes a weekly bucket (its key is the Sunday), yyyy-mm-dd. */
export function weekEndingOf(weeklyKey: string): string {
  return new Date(sundayOf(weeklyKey).getTime() + 6 * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Display label of a bucket key: 'Week ending MM/DD/YYYY' (the Saturday that closes the
 * Sunday-start week), 'MM/YYYY', 'YYYY-Qn', 'YYYY'.
 */
export function periodLabelOf(drillDown: TimeBucketDrillDown, periodKey: string): string {
  switch (drillDown) {
    case 'weekly': {
      const saturday = new Date(sundayOf(periodKey).getTime() + 6 * DAY_MS);
      return `Week ending ${pad(saturday.getUTCMonth() + 1)}/${pad(saturday.getUTCDate())}/${saturday.getUTCFullYear()}`;
    }
    case 'monthly': {
      const [year, month] = periodKey.split('-');
      return `${month}/${year}`;
    }
    case 'quarterly':
    case 'yearly':
      return periodKey;
  }
}

/**
 * The weeks a bucket holds, as Sundays: from (inclusive) to (exclusive), yyyy-mm-dd. A week is in
 * the bucket when its Sunday is, so these bounds select exactly the bucket's records.
 */
export function periodRangeOf(
  drillDown: TimeBucketDrillDown,
  periodKey: string,
): { from: string; to: string } {
  const iso = (date: Date): string => date.toISOString().slice(0, 10);
  switch (drillDown) {
    case 'weekly': {
      const sunday = sundayOf(periodKey);
      return { from: periodKey, to: iso(new Date(sunday.getTime() + 7 * DAY_MS)) };
    }
    case 'monthly': {
      const [year, month] = periodKey.split('-').map(Number) as [number, number];
      return {
        from: iso(new Date(Date.UTC(year, month - 1, 1))),
        to: iso(new Date(Date.UTC(year, month, 1))),
      };
    }
    case 'quarterly': {
      const [year, quarter] = periodKey.split('-Q').map(Number) as [number, number];
      return {
        from: iso(new Date(Date.UTC(year, (quarter - 1) * 3, 1))),
        to: iso(new Date(Date.UTC(year, quarter * 3, 1))),
      };
    }
    case 'yearly': {
      const year = Number(periodKey);
      return { from: iso(new Date(Date.UTC(year, 0, 1))), to: iso(new Date(Date.UTC(year + 1, 0, 1))) };
    }
  }
}
