/**
 * The planning cycle's steps, in the order they run. A failed step stops the chain; a rerun
 * starts again from it.
 */
export const CYCLE_STEPS = [
  'actuals-feed',
  'roll-horizon',
  'forecast-run',
  'forecast-snapshot',
  'exception-queue',
  'planner-digest',
] as const;
export type CycleStepName = (typeof CYCLE_STEPS)[number];

export const CYCLE_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type CycleRunStatus = (typeof CYCLE_RUN_STATUSES)[number];

export const CYCLE_STEP_STATUSES = ['running', 'succeeded', 'failed', 'skipped'] as const;
export type CycleStepStatus = (typeof CYCLE_STEP_STATUSES)[number];

/** What started a run: its schedule, an admin's Run now, or an admin's rerun of a failed run. */
export const CYCLE_TRIGGERS = ['schedule', 'manual'] as const;
export type CycleTrigger = (typeof CYCLE_TRIGGERS)[number];
