import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const ZServerClock = z.strictObject({
  /** The server's today (yyyy-mm-dd, UTC): CLOCK_TODAY when set, else the real date. */
  today: z.iso.date(),
  /** The Sunday of the current week. */
  currentWeek: z.iso.date(),
  horizon: z.strictObject({
    /** Weeks the plan covers from the current week on (PLAN_HORIZON_WEEKS). */
    weeks: z.number().int().min(1),
    /** The week the plan was last rolled to; null before the first roll. */
    lastRolledWeek: z.iso.date().nullable(),
    rolledAt: z.iso.datetime().nullable(),
    recordsAdded: z.number().int().min(0).nullable(),
    /** A roll this server process is doing now, with its progress. */
    rolling: z
      .strictObject({
        week: z.iso.date(),
        doneProducts: z.number().int().min(0),
        totalProducts: z.number().int().min(0),
      })
      .nullable(),
  }),
});
export type ServerClock = z.infer<typeof ZServerClock>;

export const clockEndpoints = {
  clock: defineEndpoint({
    method: 'GET',
    path: '/api/clock',
    access: 'signed-in',
    summary: "The server's today and current week, and the rolling plan horizon's state",
    response: { data: ZServerClock },
  }),
};
