import {
  sundayOfDay,
  weeksOfChoice,
  type GridPeriodChoice,
  type PlanClock,
  type WeekRange,
} from '@ps/domain';

/** The weeks a period shows; null for a named period before the server's clock has answered. */
export function shownWeeks(period: GridPeriodChoice, clock: PlanClock | null): WeekRange | null {
  if (clock === null)
    return typeof period === 'string' ? (period === 'all' ? { from: null, to: null } : null) : period;
  return weeksOfChoice(period, clock);
}

/**
 * The fixed weeks after a day is picked as the first or last week (its week's Sunday; an emptied
 * picker opens that side). The other side stays where the view was, moved to the picked week
 * when it would otherwise end before it starts; no bound at all is every week. Null for a day
 * the picker cannot mean (a partly typed date).
 */
export function pickedPeriod(input: {
  period: GridPeriodChoice;
  clock: PlanClock | null;
  side: 'from' | 'to';
  day: string;
}): GridPeriodChoice | null {
  const week = input.day === '' ? null : sundayOfDay(input.day);
  if (input.day !== '' && week === null) return null;
  const next: WeekRange = { ...(shownWeeks(input.period, input.clock) ?? { from: null, to: null }) };
  next[input.side] = week;
  if (next.from !== null && next.to !== null && next.from > next.to) {
    if (input.side === 'from') next.to = next.from;
    else next.from = next.to;
  }
  return next.from === null && next.to === null ? 'all' : next;
}
