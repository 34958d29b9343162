/** A forecast run as the API reports it (GET/POST /api/forecast/runs). */
export type ForecastRun = {
  id: number;
  status: 'running' | 'succeeded' | 'failed';
  requestedBy: string;
  totalProducts: number;
  processedProducts: number;
  updatedRecords: number;
  /** 0–100. */
  progressPercent: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

/**
 * One configuration of a product's ensemble: a model fitted on a history window (recent weeks;
 * null = the whole history) and its share of the forecast (weights of a product sum to 1).
 */
export type ForecastMemberWeight = { model: string; window: number | null; weight: number };

/**
 * The ensemble's quantile forecasts of a product's first weeks: `values[i][j]` is the
 * `levels[i]` quantile of week j + 1 after the history, `mean` the point forecast of those weeks.
 */
export type ForecastQuantiles = { levels: number[]; mean: number[]; values: number[][] };

/** The levels a forecast run stores: the 80% and 95% bands, the median and the inventory's service levels. */
export const STORED_QUANTILE_LEVELS = [0.025, 0.1, 0.5, 0.9, 0.95, 0.975, 0.98] as const;

/** Weeks of quantiles a forecast run stores: more than any lead time plus review period. */
export const STORED_QUANTILE_WEEKS = 26;

/**
 * A product's accuracy from its latest forecast run (GET /api/forecast/accuracy/:pid): the
 * back-test on the last weeks of its history and the members and weights behind its forecast.
 */
export type ForecastAccuracy = {
  pid: string;
  runId: number;
  /** What produced the ensemble, e.g. "weighted(naive,ets-log,ces) on last 156/all". */
  model: string;
  demandClass: string;
  backtestModel: string;
  /** Percent; null when the back-test weeks had no demand to divide by. */
  mape: number | null;
  /** Percent of actual volume; positive = over-forecast. */
  bias: number | null;
  historyWeeks: number;
  computedAt: string;
  members: ForecastMemberWeight[];
  /** Null for a run before quantiles were stored. */
  quantiles: ForecastQuantiles | null;
};
