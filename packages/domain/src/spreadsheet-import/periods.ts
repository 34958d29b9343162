import { addWeeks, toIsoDate, weekStartSunday } from '../weeks';

/**
 * The spreadsheet's periods (spec §9: 4 quarters, 13 months, 52 weeks): the 52 weeks starting at the
 * current week, quarter n = weeks 13(n−1)+1 … 13n, "month" m = weeks 4(m−1)+1 … 4m. Export and
 * import both use this, so the Q1 a planner edits is the Q1 the import applies.
 */
export const WEEKS_PER_IMPORT_QUARTER = 13;
export const IMPORT_HORIZON_WEEKS = 52;

/** The week starts (yyyy-mm-dd) of quarters 1–4 from the week holding `today`. */
export function importQuarterWeeks(today: Date): string[][] {
  const first = weekStartSunday(today);
  return [0, 1, 2, 3].map((q) =>
    Array.from({ length: WEEKS_PER_IMPORT_QUARTER }, (_, w) =>
      toIsoDate(addWeeks(first, q * WEEKS_PER_IMPORT_QUARTER + w)),
    ),
  );
}

/**
 * Splits a whole number of units over weeks in proportion to weights (the statistical forecast),
 * equally when the weights sum to zero. Largest remainders get the leftover units, earlier weeks
 * first on a tie, so the parts are whole and always add up to the total.
 */
export function spreadOverWeeks(
  total: number,
  weights: readonly (number | null)[],
  /** Parts in steps of 10^-decimals instead of whole units (a forecast keeps its decimals). */
  decimals = 0,
): number[] {
  if (decimals > 0) {
    const scale = 10 ** decimals;
    return spreadOverWeeks(Math.round(total * scale), weights).map((part) => part / scale);
  }
  if (weights.length === 0) return [];
  const clean = weights.map((w) => (w !== null && Number.isFinite(w) && w > 0 ? w : 0));
  const sum = clean.reduce((a, b) => a + b, 0);
  const shares = sum > 0 ? clean.map((w) => (total * w) / sum) : clean.map(() => total / clean.length);
  const parts = shares.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = shares
    .map((share, index) => ({ index, remainder: share - Math.floor(share) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}
