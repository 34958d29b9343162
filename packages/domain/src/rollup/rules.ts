import type { ReasonCode } from '../demand-record';

/**
 * The roll-up rules of spec §9 'Ordering and rollups', each in one place. The SQL roll-ups in
 * apps/server/src/db/planning-grid.sql.ts implement the same rules; the API tests compare them.
 */

/** Fallback group names for blank attributes: a blank Product Family, a blank Business Unit. */
export const UNCATEGORIZED = 'Uncategorized';
export const UNASSIGNED = 'Unassigned';

export const familyOrFallback = (pf: string | null | undefined): string => (pf?.trim() ? pf : UNCATEGORIZED);
export const businessUnitOrFallback = (bu: string | null | undefined): string =>
  bu?.trim() ? bu : UNASSIGNED;

/** At most this many comments and reason codes are shown on a roll-up row. */
export const ROLLUP_MAX_COMMENTS = 3;
export const ROLLUP_MAX_REASON_CODES = 3;

/**
 * A numeric cell as a number: numbers pass through; text loses '$', ',' and white space first
 * ('$1,234.50' → 1234.5). Blank or unreadable text is no value (null), never 0.
 */
export function parseAmount(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const cleaned = value.replace(/[$,\s]/g, '');
  if (cleaned === '') return null;
  const parsed = Number(cleaned);
  return Number.isFinite(parsed) ? parsed : null;
}

/** Sums to cents, so float noise never shows; null when no record has a value. */
export function sumAmounts(values: ReadonlyArray<number | string | null | undefined>): number | null {
  let total = 0;
  let seen = false;
  for (const value of values) {
    const amount = parseAmount(value);
    if (amount === null) continue;
    total += amount;
    seen = true;
  }
  return seen ? Math.round(total * 100) / 100 : null;
}

/**
 * The override weight's rule, as data: the first of these fields whose value is above 0, else
 * OVERRIDE_WEIGHT_FALLBACK. "Above 0" skips a missing or zero value (a zero-unit week would
 * otherwise drop out). overrideWeightOf applies it to a record; the read model emits it as SQL.
 */
export const OVERRIDE_WEIGHT_FIELDS = ['Final_Pln_Units', 'Act_Bkg_Units'] as const;
export const OVERRIDE_WEIGHT_FALLBACK = 1;

/** Weight of a record in an averaged override percent: final units, else actual units, else 1. */
export function overrideWeightOf(
  record: Record<(typeof OVERRIDE_WEIGHT_FIELDS)[number], number | string | null>,
): number {
  for (const field of OVERRIDE_WEIGHT_FIELDS) {
    const value = parseAmount(record[field]);
    if (value !== null && value > 0) return value;
  }
  return OVERRIDE_WEIGHT_FALLBACK;
}

/** Weighted mean of the records that have a percent (2 decimals); null when none has one. */
export function weightedPercent(
  items: ReadonlyArray<{ percent: number | null; weight: number }>,
): number | null {
  let weighted = 0;
  let weights = 0;
  for (const { percent, weight } of items) {
    if (percent === null) continue;
    weighted += percent * weight;
    weights += weight;
  }
  return weights > 0 ? Math.round((weighted / weights) * 100) / 100 : null;
}

/** Rounded (half up) mean of the ranks present; null when no record has a rank. */
export function averageRank(ranks: ReadonlyArray<number | null>): number | null {
  const present = ranks.filter((rank): rank is number => rank !== null);
  if (present.length === 0) return null;
  return Math.round(present.reduce((sum, rank) => sum + rank, 0) / present.length);
}

/**
 * Comments of a group, given in grid order (PID, then week): the distinct non-blank ones, the
 * first three joined with '; ', then ' (+N more)' for the distinct ones not shown.
 */
export function joinComments(comments: ReadonlyArray<string | null>): string | null {
  const distinct = [...new Set(comments.map((c) => c?.trim() ?? '').filter((c) => c.length > 0))];
  if (distinct.length === 0) return null;
  const shown = distinct.slice(0, ROLLUP_MAX_COMMENTS).join('; ');
  const rest = distinct.length - ROLLUP_MAX_COMMENTS;
  return rest > 0 ? `${shown} (+${rest} more)` : shown;
}

/**
 * How many comments a group holds: its records with a non-blank comment, each counted (the same
 * text on two records counts twice), so that a roll-up row says how much joinComments stands for.
 */
export function countComments(comments: ReadonlyArray<string | null>): number {
  return comments.filter((c) => (c?.trim() ?? '').length > 0).length;
}

/** Reason codes of a group, given in grid order: the first three distinct ones. */
export function pickReasonCodes(codes: ReadonlyArray<ReasonCode | null>): ReasonCode[] {
  const distinct = [...new Set(codes.filter((code): code is ReasonCode => code !== null))];
  return distinct.slice(0, ROLLUP_MAX_REASON_CODES);
}

/** The latest of the timestamps (ISO strings); null when there is none. */
export function latestUpdate(timestamps: ReadonlyArray<string | null>): string | null {
  let latest: string | null = null;
  let latestMs = -Infinity;
  for (const timestamp of timestamps) {
    if (timestamp === null) continue;
    const ms = new Date(timestamp).getTime();
    if (ms > latestMs) {
      latestMs = ms;
      latest = new Date(ms).toISOString();
    }
  }
  return latest;
}

/** The cost and revenue fields whose presence puts a row in front (spec §9 'Ordering and rollups'). */
export const HAS_DATA_FIELDS = [
  'Act_Bkg_Cost',
  'Act_Rev_Dlrs',
  'Prelim_Pln_Cost',
  'Prelim_Pln_Rev_Dlrs',
  'Final_Bk_Pln_Cost',
  'Final_Pln_Rev_Dlrs',
] as const;

/** A record has data when any actual or planned cost or revenue is present and not zero. */
export function hasCostOrRevenueData(
  record: Record<(typeof HAS_DATA_FIELDS)[number], number | string | null>,
): boolean {
  return HAS_DATA_FIELDS.some((field) => {
    const amount = parseAmount(record[field]);
    return amount !== null && amount !== 0;
  });
}
