import { z } from 'zod';
import { INT4_MAX } from '../demand-record.schema';
import {
  CYCLE_FREQUENCIES,
  CYCLE_RUN_STATUSES,
  CYCLE_STEP_STATUSES,
  CYCLE_STEPS,
  CYCLE_TRIGGERS,
  isTimeZoneName,
  parseCycleTime,
  type CycleSchedule,
} from '../cycle';
import { defineEndpoint } from './endpoint';

export const ZCycleSchedule = z.strictObject({
  isEnabled: z.boolean({ error: 'must be true or false' }),
  frequency: z.enum(CYCLE_FREQUENCIES, { error: 'must be daily or weekly' }),
  weekday: z
    .number({ error: 'must be a number from 0 (Sunday) to 6 (Saturday)' })
    .int({ error: 'must be a whole number from 0 (Sunday) to 6 (Saturday)' })
    .min(0, { error: 'must be a number from 0 (Sunday) to 6 (Saturday)' })
    .max(6, { error: 'must be a number from 0 (Sunday) to 6 (Saturday)' }),
  time: z
    .string({ error: 'must be a time as HH:MM' })
    .refine((time) => parseCycleTime(time) !== undefined, { error: 'must be a time as HH:MM (00:00-23:59)' }),
  timeZone: z
    .string({ error: 'must be an IANA time zone name such as Europe/Berlin' })
    .max(64, { error: 'must be at most 64 characters' })
    .refine(isTimeZoneName, { error: 'must be an IANA time zone name such as Europe/Berlin' }),
}) satisfies z.ZodType<CycleSchedule>;

export const ZCycleStep = z.strictObject({
  step: z.enum(CYCLE_STEPS),
  status: z.enum(CYCLE_STEP_STATUSES),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  /** Percent done while a long step runs (the forecast run); null when the step does not say. */
  progress: z.number().int().min(0).max(100).nullable(),
  message: z.string().nullable(),
  /** What the step did, by name: files, rows, products, records, items, notified, mails. */
  counts: z.record(z.string(), z.number()),
});
export type CycleStep = z.infer<typeof ZCycleStep>;

export const ZCycleRun = z.strictObject({
  id: z.number().int().min(1),
  trigger: z.enum(CYCLE_TRIGGERS),
  requestedBy: z.string(),
  status: z.enum(CYCLE_RUN_STATUSES),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
  /** The step a rerun starts from: the failed one, when this is the latest run and it failed. */
  rerunFrom: z.enum(CYCLE_STEPS).nullable(),
  /** Every attempt at a step, in the order they ran. */
  steps: z.array(ZCycleStep),
});
export type CycleRun = z.infer<typeof ZCycleRun>;

export const ZCycleOverview = z.strictObject({
  schedule: ZCycleSchedule,
  /** Who last saved the schedule and when; null before anyone has. */
  updatedBy: z.string().nullable(),
  updatedAt: z.iso.datetime().nullable(),
  /** The schedule's next run; null while it is switched off. */
  nextRunAt: z.iso.datetime().nullable(),
  feed: z.strictObject({
    /** Whether a feed folder is configured (CYCLE_FEED_DIR); without one the feed step is skipped. */
    isConfigured: z.boolean(),
    /** Files waiting in the folder, in the order the next run takes them. */
    waitingFiles: z.array(z.string()),
  }),
  /** The latest runs, newest first. */
  runs: z.array(ZCycleRun),
});
export type CycleOverview = z.infer<typeof ZCycleOverview>;

export const ZCycleFeedFile = z.strictObject({
  /** The name the file waits under in the feed folder. */
  fileName: z.string(),
  waitingFiles: z.array(z.string()),
});
export type CycleFeedFile = z.infer<typeof ZCycleFeedFile>;

export const ZCycleRunParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, { error: 'must be a number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: 'must be at least 1' })
        .max(INT4_MAX, { error: `must be at most ${INT4_MAX}` }),
    ),
});

/**
 * The planning cycle (admins): its schedule, Run now, a failed run's rerun from the failed step,
 * the step log, and files pushed to its actuals feed.
 */
export const cycleEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/api/cycle',
    access: 'admin',
    summary:
      "The cycle's schedule, its next run, the actuals feed's waiting files and the latest runs' step logs",
    response: { data: ZCycleOverview },
  }),
  saveSchedule: defineEndpoint({
    method: 'PUT',
    path: '/api/cycle/schedule',
    access: 'admin',
    summary:
      'Sets when the cycle runs: daily or on a weekday, at a time in an IANA time zone, or switched off',
    body: ZCycleSchedule,
    response: { data: ZCycleOverview },
  }),
  runNow: defineEndpoint({
    method: 'POST',
    path: '/api/cycle/runs',
    access: 'admin',
    summary: 'Starts the cycle now in the background (409 while a run is going): answers the running run',
    status: 202,
    response: { data: ZCycleRun },
  }),
  run: defineEndpoint({
    method: 'GET',
    path: '/api/cycle/runs/:id',
    access: 'admin',
    summary: 'One cycle run: its status and the log of its steps, with the running step’s progress',
    params: ZCycleRunParams,
    response: { data: ZCycleRun },
  }),
  rerun: defineEndpoint({
    method: 'POST',
    path: '/api/cycle/runs/:id/rerun',
    access: 'admin',
    summary: 'Runs a failed run again from its failed step, in the background (the latest run only)',
    params: ZCycleRunParams,
    status: 202,
    response: { data: ZCycleRun },
  }),
  pushFeed: defineEndpoint({
    method: 'POST',
    path: '/api/cycle/feed',
    access: 'admin',
    summary:
      'Puts an actuals file (multipart, field file) in the feed folder; the next run takes it in name order',
    status: 201,
    response: { data: ZCycleFeedFile },
  }),
};
