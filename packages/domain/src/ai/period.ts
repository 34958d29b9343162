/**
 * Periods a question names, as week ranges: a record belongs to the quarter and month of its
 * week's Sunday (the grid's buckets), so a period is the weeks whose Sunday falls in [from, to).
 */
export type ResolvedPeriod = { label: string; from: string; to: string };

const iso = (year: number, month: number): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;

export function quarterPeriod(year: number, q: number): ResolvedPeriod {
  const startMonth = (q - 1) * 3 + 1;
  const end = startMonth + 3 > 12 ? iso(year + 1, 1) : iso(year, startMonth + 3);
  return { label: `${year}-Q${q}`, from: iso(year, startMonth), to: end };
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function monthPeriod(year: number, m: number): ResolvedPeriod {
  const end = m === 12 ? iso(year + 1, 1) : iso(year, m + 1);
  return { label: `${MONTH_NAMES[m - 1]} ${year}`, from: iso(year, m), to: end };
}

/** Parses "2026-Q3" into its period; anything else is null. */
export function parseQuarterKey(key: string): ResolvedPeriod | null {
  const match = /^(\d{4})-Q([1-4])$/.exec(key);
  return match ? quarterPeriod(Number(match[1]), Number(match[2])) : null;
}

/**
 * The year of a quarter or month named without one ("Q3"): the occurrence that overlaps the data
 * and is current or ahead of today, else the latest one that overlaps the data, else the next one.
 * A planner asking about "Q3" means the Q3 being planned, not one outside the plan.
 */
export function resolveYear(
  make: (year: number) => ResolvedPeriod,
  today: string,
  data: { from: string; to: string } | null,
): ResolvedPeriod {
  const year = Number(today.slice(0, 4));
  const candidates = [year - 2, year - 1, year, year + 1, year + 2].map(make);
  const overlaps = (p: ResolvedPeriod) => data !== null && p.from <= data.to && p.to > data.from;
  const ahead = candidates.find((p) => p.to > today && overlaps(p));
  if (ahead) return ahead;
  const past = candidates.filter(overlaps).at(-1);
  return past ?? candidates.find((p) => p.to > today)!;
}
