/** Names of every model the engine can fit. The ensemble is reported as 'ensemble'. */
export type ModelName =
  | 'naive'
  | 'seasonal-naive'
  | 'ses'
  | 'holt'
  | 'damped'
  | 'ets'
  | 'ets-log'
  | 'theta'
  | 'otm'
  | 'dstm'
  | 'dotm'
  | 'dotm-log'
  | 'ces'
  | 'arima'
  | 'arima-log'
  | 'adida'
  | 'mapa'
  | 'croston'
  | 'sba'
  | 'tsb'
  | 'gbm-global';

/**
 * A model's forecast: the point path and the standard deviation of the forecast error at each
 * step (from the model's own one-step residual variance and its horizon multiplier).
 */
export type ModelForecast = { model: ModelName; mean: number[]; sd: number[] };
