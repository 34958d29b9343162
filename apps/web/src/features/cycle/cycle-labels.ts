/**
 * The message keys of the cycle's schedule choices, statuses, steps and counts, written out so the
 * catalogue test sees every key the page can show.
 */
export const FREQUENCY_LABEL: Record<string, string> = {
  daily: 'cycle:frequency.daily',
  weekly: 'cycle:frequency.weekly',
};

export const WEEKDAY_LABEL: Record<number, string> = {
  0: 'cycle:weekday.0',
  1: 'cycle:weekday.1',
  2: 'cycle:weekday.2',
  3: 'cycle:weekday.3',
  4: 'cycle:weekday.4',
  5: 'cycle:weekday.5',
  6: 'cycle:weekday.6',
};

export const RUN_STATUS_LABEL: Record<string, string> = {
  running: 'cycle:runStatus.running',
  succeeded: 'cycle:runStatus.succeeded',
  failed: 'cycle:runStatus.failed',
};

export const STEP_STATUS_LABEL: Record<string, string> = {
  running: 'cycle:stepStatus.running',
  succeeded: 'cycle:stepStatus.succeeded',
  failed: 'cycle:stepStatus.failed',
  skipped: 'cycle:stepStatus.skipped',
};

export const STEP_LABEL: Record<string, string> = {
  'actuals-feed': 'cycle:step.actualsFeed',
  'roll-horizon': 'cycle:step.rollHorizon',
  'forecast-run': 'cycle:step.forecastRun',
  'forecast-snapshot': 'cycle:step.forecastSnapshot',
  'exception-queue': 'cycle:step.exceptionQueue',
  'planner-digest': 'cycle:step.plannerDigest',
};

export const COUNT_LABEL: Record<string, string> = {
  files: 'cycle:count.files',
  inserted: 'cycle:count.inserted',
  updated: 'cycle:count.updated',
  unchanged: 'cycle:count.unchanged',
  refused: 'cycle:count.refused',
  products: 'cycle:count.products',
  records: 'cycle:count.records',
  items: 'cycle:count.items',
  new: 'cycle:count.new',
  mails: 'cycle:count.mails',
  weeks: 'cycle:count.weeks',
};

/** A label key, or the raw name when the server sends one the page does not know yet. */
export const labelOf = (labels: Record<string | number, string>, name: string | number): string =>
  labels[name] ?? String(name);
