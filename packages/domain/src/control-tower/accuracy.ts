import type { ForecastMemberWeight } from '../forecast-run';
import type { ErrorMetrics, FvaStep } from './metrics';

/** Spec: the accuracy screen's lag selector, 1–13 weeks. */
export const MIN_LAG = 1;
export const MAX_LAG = 13;
export type AccuracyLevel = 'businessUnit' | 'family' | 'product';

/** Error of each step of the forecast chain over the same weeks (forecast value add). */
export type FvaFigures = Record<FvaStep, number | null>;

export type AccuracyRow = {
  level: AccuracyLevel;
  bu: string;
  pf: string | null;
  pid: string | null;
  /** The model of the product's latest forecast run (product rows only). */
  model: string | null;
  /**
   * The configurations (model × history window) that carry weight in the product's latest
   * forecast, heaviest first (product rows only; null before any forecast run): why the forecast
   * is what it is.
   */
  members: ForecastMemberWeight[] | null;
  /** Final plan at the lag against actuals. */
  metrics: ErrorMetrics;
  /** Σ |Final − Actual| × unit price: how much money the error is worth. */
  errorValue: number;
  /** WAPE of naive, statistical, prelim and final over the same weeks. */
  fva: FvaFigures;
};

export type FvaByReason = { reasonCode: string | null; pairs: number; fva: FvaFigures };

/** GET /api/control-tower/accuracy. */
export type AccuracyReport = {
  lag: number;
  /** First and last week compared (yyyy-mm-dd); null when nothing could be compared yet. */
  fromWeek: string | null;
  toWeek: string | null;
  snapshots: number;
  overall: ErrorMetrics;
  alerts: number;
  fva: FvaFigures;
  byBusinessUnit: AccuracyRow[];
  byFamily: AccuracyRow[];
  /** Products, largest money error first (at most PRODUCT_ROW_LIMIT). */
  byProduct: AccuracyRow[];
  productCount: number;
  byReason: FvaByReason[];
};

export const PRODUCT_ROW_LIMIT = 500;

/** Exception kinds of the Alerts queue. */
export const EXCEPTION_KINDS = ['largeError', 'persistentBias', 'overrideHurt', 'outsideInterval'] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

export type ExceptionRow = {
  pid: string;
  bu: string;
  pf: string;
  kinds: ExceptionKind[];
  /** Σ |Final − Actual| × unit price over the compared weeks. */
  errorValue: number;
  /** Bias % over the last PERSISTENT_BIAS_WEEKS compared weeks. */
  recentBias: number | null;
  /** Final WAPE − statistical WAPE, points; positive = the overrides made it worse. */
  overrideCost: number | null;
  /** Weeks whose actual fell outside the forecast's 95 % interval. */
  weeksOutside: number;
  score: number;
};
