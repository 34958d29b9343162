/**
 * Order-up-to levels (OUL) for a periodic-review policy: every R weeks the stock position is raised
 * to the OUL, and an order arrives L weeks later, so the OUL must cover demand over L + R weeks.
 * docs/inventory.md explains the choices; every function here is pure.
 */
import type { ForecastQuantiles } from '../forecast-run';

/** The spec's target service levels (§9), in percent. */
export const SERVICE_LEVELS = [90, 95, 98] as const;
export type ServiceLevel = (typeof SERVICE_LEVELS)[number];

/** Standard normal quantiles of the three service levels (one-sided), to four decimals. */
export const Z_VALUES: Record<ServiceLevel, number> = { 90: 1.2816, 95: 1.6449, 98: 2.0537 };

/** Which distribution an item's OUL was taken from. */
export type DemandModel = 'normal' | 'quantile' | 'poisson' | 'negative-binomial';

/** Syntetos–Boylan: demand arriving less than once every 1.32 weeks on average is intermittent. */
export const INTERMITTENT_ADI = 1.32;

/** Above this mean over L + R, Poisson and negative binomial are close to normal and cost more to sum. */
const DISCRETE_MEAN_LIMIT = 400;

/**
 * σ of demand over the L + R weeks an order must cover, with a lead time that varies:
 * σ_total = √((L+R)·σ_d² + μ_d²·σ_L²). The first term is demand's own noise over the cover; the
 * second is a late or early order shifting a whole week's demand per week of lateness.
 * With σ_L = 0 it is σ_d·√(L+R).
 */
export function coverSd(mean: number, sd: number, coverWeeks: number, leadTimeSdWeeks = 0): number {
  if (coverWeeks <= 0) return 0;
  return Math.sqrt(coverWeeks * sd ** 2 + mean ** 2 * Math.max(0, leadTimeSdWeeks) ** 2);
}

/**
 * μ·(L+R) + z·σ_total, rounded up to whole units (a fractional unit cannot be stocked); σ_total as
 * in coverSd (σ·√(L+R) when the lead time is fixed).
 */
export function normalOul(
  mean: number,
  sd: number,
  coverWeeks: number,
  z: number,
  leadTimeSdWeeks = 0,
): number {
  if (coverWeeks <= 0) return 0;
  const level = mean * coverWeeks + z * coverSd(mean, sd, coverWeeks, leadTimeSdWeeks);
  return Math.max(0, Math.ceil(level - 1e-9));
}

/** Smallest k with P(X ≤ k) ≥ p for X ~ Poisson(mean). */
export function poissonQuantile(mean: number, p: number): number {
  if (mean <= 0) return 0;
  let probability = Math.exp(-mean);
  let cumulative = probability;
  let k = 0;
  while (cumulative < p - 1e-12 && k < 100_000) {
    k += 1;
    probability *= mean / k;
    cumulative += probability;
  }
  return k;
}

/**
 * Smallest k with P(X ≤ k) ≥ p for a negative binomial with the given mean and variance
 * (variance > mean: r = mean² / (variance − mean), success chance q = mean / variance).
 * A variance not above the mean falls back to Poisson.
 */
export function negativeBinomialQuantile(mean: number, variance: number, p: number): number {
  if (mean <= 0) return 0;
  if (variance <= mean * (1 + 1e-9)) return poissonQuantile(mean, p);
  const q = mean / variance;
  const r = (mean * mean) / (variance - mean);
  let probability = Math.pow(q, r);
  let cumulative = probability;
  let k = 0;
  while (cumulative < p - 1e-12 && k < 100_000) {
    probability *= ((k + r) / (k + 1)) * (1 - q);
    k += 1;
    cumulative += probability;
  }
  return k;
}

/** Average weeks between weeks with demand (ADI); Infinity when nothing was ever sold. */
export function averageDemandInterval(weeklyDemand: readonly number[]): number {
  const nonZero = weeklyDemand.filter((units) => units > 0).length;
  return nonZero === 0 ? Infinity : weeklyDemand.length / nonZero;
}

export type OulInput = {
  /** Average weekly demand μ (units). */
  avgDemand: number;
  /** Standard deviation σ of weekly demand around its forecast (units). */
  stdDemand: number;
  leadTimeWeeks: number;
  /** Standard deviation σ_L of the lead time (weeks); 0 or absent: a fixed lead time. */
  leadTimeSdWeeks?: number;
  reviewPeriodWeeks: number;
  intermittent: boolean;
  /**
   * The product's quantile excess from its latest forecast run and the site's share of the
   * product's demand. When present, smooth items take their OULs from it (quantileOul) instead
   * of the normal approximation of σ.
   */
  quantiles?: { excess: QuantileExcess; share: number };
};

export type OulLevels = { oul90: number; oul95: number; oul98: number; model: DemandModel };

/**
 * The forecast's quantile minus its point forecast at each service level, week by week from the
 * first forecast week (product units): how far above the forecast demand goes with probability
 * 1 − level in that week, from the ensemble's calibrated quantiles.
 */
export type QuantileExcess = Record<ServiceLevel, readonly number[]>;

/**
 * The excess at the three service levels from a product's stored quantiles: the 0.90, 0.95 and
 * 0.98 quantiles minus the point forecast, week by week. Null when a level is missing.
 */
export function quantileExcessOf(quantiles: ForecastQuantiles): QuantileExcess | null {
  const row = (level: ServiceLevel): number[] | null => {
    const i = quantiles.levels.findIndex((l) => Math.abs(l - level / 100) < 1e-9);
    const values = i >= 0 ? quantiles.values[i] : undefined;
    if (!values || values.length === 0) return null;
    return values.map((v, j) => v - (quantiles.mean[j] ?? v));
  };
  const e90 = row(90);
  const e95 = row(95);
  const e98 = row(98);
  return e90 && e95 && e98 ? { 90: e90, 95: e95, 98: e98 } : null;
}

/**
 * √(Σ δ_j²) over the first `coverWeeks` weeks (a fractional last week counts its fraction of
 * δ²; weeks past the stored ones repeat the last). The weeks' errors add like independent ones,
 * as in the normal formula: with δ_j = z·σ every week it is z·σ·√(L+R).
 */
export function coverExcess(excess: readonly number[], coverWeeks: number): number {
  if (coverWeeks <= 0 || excess.length === 0) return 0;
  let total = 0;
  const whole = Math.floor(coverWeeks);
  const at = (j: number): number => Math.max(0, excess[Math.min(j, excess.length - 1)]!);
  for (let j = 0; j < whole; j++) total += at(j) ** 2;
  const fraction = coverWeeks - whole;
  if (fraction > 0) total += fraction * at(whole) ** 2;
  return Math.sqrt(total);
}

/**
 * OUL from the forecast's quantiles at the service level: μ·(L+R) plus
 * √((share·coverExcess)² + (z·μ·σ_L)²), rounded up. The first term is the site's share of the
 * product's quantile excess over the cover; the second the lead-time spread of the normal formula
 * (a late order costs μ a week; the forecast's quantiles know nothing of lead times).
 */
export function quantileOul(
  mean: number,
  excess: readonly number[],
  share: number,
  coverWeeks: number,
  z: number,
  leadTimeSdWeeks = 0,
): number {
  if (coverWeeks <= 0) return 0;
  const demandPart = share * coverExcess(excess, coverWeeks);
  const leadPart = z * mean * Math.max(0, leadTimeSdWeeks);
  const level = mean * coverWeeks + Math.sqrt(demandPart ** 2 + leadPart ** 2);
  return Math.max(0, Math.ceil(level - 1e-9));
}

/**
 * The three OULs of an item. Smooth items with the forecast's quantiles: quantileOul; without
 * them (no forecast run yet): the normal formula. Intermittent items: a quantile of a
 * count distribution over L + R weeks with mean μ(L+R) and variance σ_total² (coverSd):
 * negative binomial when the variance exceeds the mean (the usual case: lumpy demand), Poisson
 * otherwise.
 */
export function oulLevels(input: OulInput): OulLevels {
  const cover = input.leadTimeWeeks + input.reviewPeriodWeeks;
  const mu = Math.max(0, input.avgDemand);
  const sigma = Math.max(0, input.stdDemand);
  const leadSd = input.leadTimeSdWeeks ?? 0;
  const mean = mu * cover;
  const variance = coverSd(mu, sigma, cover, leadSd) ** 2;
  if (input.quantiles && !input.intermittent) {
    const { excess, share } = input.quantiles;
    const at = (level: ServiceLevel): number =>
      quantileOul(mu, excess[level], share, cover, Z_VALUES[level], leadSd);
    return { oul90: at(90), oul95: at(95), oul98: at(98), model: 'quantile' };
  }
  if (!input.intermittent || mean > DISCRETE_MEAN_LIMIT) {
    const at = (level: ServiceLevel): number => normalOul(mu, sigma, cover, Z_VALUES[level], leadSd);
    return { oul90: at(90), oul95: at(95), oul98: at(98), model: 'normal' };
  }
  const model: DemandModel = variance > mean * (1 + 1e-9) ? 'negative-binomial' : 'poisson';
  const at = (level: ServiceLevel): number => negativeBinomialQuantile(mean, variance, level / 100);
  return { oul90: at(90), oul95: at(95), oul98: at(98), model };
}

/**
 * The recommended service level by revenue class (products.class, ABC by yearly revenue): A items
 * carry most of the revenue, so a stockout costs most there; C items are many and cheap to lose.
 */
export function recommendedServiceLevel(revenueClass: string): ServiceLevel {
  if (revenueClass === 'A') return 98;
  if (revenueClass === 'B') return 95;
  return 90;
}

export function recommendedOul(levels: OulLevels, revenueClass: string): number {
  const level = recommendedServiceLevel(revenueClass);
  return level === 98 ? levels.oul98 : level === 95 ? levels.oul95 : levels.oul90;
}

/**
 * Safety stock of an OUL: what it holds above the mean demand over the cover, μ·(L+R). Shown next
 * to the normal formula's, so a planner sees what the quantiles changed.
 */
export function safetyStock(oul: number, mean: number, coverWeeks: number): number {
  return Math.round((oul - mean * Math.max(0, coverWeeks)) * 100) / 100;
}
