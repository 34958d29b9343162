/**
 * Spreading an aggregate edit over the records under it: the planner types a
 * figure into a product, family or business-unit cell and every record below gets its share.
 * Pure rules; the server reads the records, calls these and writes the result in one transaction.
 */

/** One record under the edited cell. */
export type SpreadItem = {
  key: string;
  /** The record's value of the edited measure now; a locked record keeps it and it counts toward the total. */
  current: number;
  /** What the shares are proportional to: the record's current final plan. */
  weight: number;
  /** Used when every unlocked weight is zero: the statistical forecast. */
  fallbackWeight: number;
  /** Locked by a planner: never moved by a spread. */
  locked: boolean;
};

export type SpreadOutcome =
  | { ok: true; values: Map<string, number> }
  | { ok: false; reason: 'all-locked' | 'below-locked'; lockedTotal: number };

/** Whole units, non-negative: a negative weight (a correction) contributes nothing to a share. */
const usable = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);

/**
 * Shares `total` units among the unlocked items: locked items keep their current value, the rest
 * get `total − Σ locked` in proportion to their weight (to their fallback weight when all weights
 * are zero; equally when both are), as whole units by the largest-remainder rule so the shares
 * add up exactly. Ties in the remainders go to the earlier item, so a spread is deterministic.
 */
export function spreadUnits(total: number, items: readonly SpreadItem[]): SpreadOutcome {
  const lockedTotal = items.filter((item) => item.locked).reduce((sum, item) => sum + item.current, 0);
  const free = items.filter((item) => !item.locked);
  if (free.length === 0) return { ok: false, reason: 'all-locked', lockedTotal };
  const rest = total - lockedTotal;
  if (rest < 0) return { ok: false, reason: 'below-locked', lockedTotal };
  let weights = free.map((item) => usable(item.weight));
  if (weights.every((w) => w === 0)) weights = free.map((item) => usable(item.fallbackWeight));
  if (weights.every((w) => w === 0)) weights = free.map(() => 1);
  return { ok: true, values: largestRemainder(rest, free, weights) };
}

function largestRemainder(rest: number, free: readonly SpreadItem[], weights: number[]): Map<string, number> {
  const sum = weights.reduce((a, b) => a + b, 0);
  const quotas = weights.map((w) => (rest * w) / sum);
  // The epsilon keeps a quota computed as 2.9999999999 from losing a unit it is owed.
  const floors = quotas.map((q) => Math.floor(q + 1e-9));
  let left = rest - floors.reduce((a, b) => a + b, 0);
  const order = quotas
    .map((q, index) => ({ index, fraction: q - floors[index]! }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    floors[index]! += 1;
    left -= 1;
  }
  return new Map(free.map((item, index) => [item.key, floors[index]!]));
}

/**
 * A percent typed into an aggregate cell applies to each unlocked record: the same uplift on
 * every record is what a planner means by "+5 % for the family" (IBP's and o9's percent
 * disaggregation), and the group's unit-weighted percent then reads the typed figure when no
 * locked record holds another.
 */
export function spreadPercent(
  percent: number,
  items: readonly Pick<SpreadItem, 'key' | 'locked'>[],
): SpreadOutcome {
  const free = items.filter((item) => !item.locked);
  if (free.length === 0) return { ok: false, reason: 'all-locked', lockedTotal: 0 };
  return { ok: true, values: new Map(free.map((item) => [item.key, percent])) };
}
