import { weekStartSunday } from '../weeks';

/** An open order of one product × site as loaded: units due on a day. */
export type DueOrder = { dueDate: string; units: number };

const WEEK_MS = 7 * 86_400_000;

/**
 * The supply projection's pipeline from loaded open orders: pipeline[k] = the units due in the
 * k-th week from `asOf` (a Sunday), by the Sunday week of their due date. An order already due
 * before `asOf` is late and still expected: it arrives in the first week, not never. Orders due
 * after the horizon are left out (they arrive after the weeks projected).
 */
export function openOrderPipeline(asOf: string, orders: readonly DueOrder[], weeks: number): number[] {
  const pipeline = new Array<number>(weeks).fill(0);
  const start = Date.parse(`${asOf}T00:00:00Z`);
  for (const order of orders) {
    const due = weekStartSunday(new Date(`${order.dueDate}T00:00:00Z`)).getTime();
    const week = Math.max(0, Math.round((due - start) / WEEK_MS));
    if (week < weeks) pipeline[week]! += order.units;
  }
  return pipeline;
}
