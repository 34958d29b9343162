/**
 * What a planner is told about. Each kind's content is a flat record of figures
 * that the screen and the mail word in the reader's language.
 */
export const NOTIFICATION_KINDS = [
  'forecast-run-succeeded',
  'forecast-run-failed',
  'import-finished',
  'plan-cycle-published',
  'override-changed',
  'exceptions-found',
  'cycle-finished',
  'cycle-failed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationContent = Record<string, string | number | null>;
