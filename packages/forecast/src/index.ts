/** Public API of @ps/forecast: one series, many series on worker threads, and the building blocks. */
export {
  forecastSeries,
  DEFAULT_TUNING,
  type Backtest,
  type ForecastOptions,
  type ForecastTuning,
  type SeriesForecast,
} from './forecast-series';
export { forecastBatch, forecastMany, trainGlobalMember, type BatchOptions } from './pool';
export { CONTINUOUS_MODELS, forecastCandidates, type ContinuousModel } from './candidates';
export { classifyDemand, croston, sba, tsb, type DemandClass, type DemandProfile } from './intermittent';
export { bias, mape, mase, owa, smape } from './metrics';
export { formatM4Csv, parseM4Csv, type M4Series } from './m4-csv';
export { m4Hierarchy, type M4Hierarchy } from './m4-hierarchy';
export { isSeasonal, seasonalAdjustment, type SeasonalAdjustment } from './seasonality';
export type { ModelForecast, ModelName } from './types';
export { bottomUp, minTrace, shrunkCovariance, summingMatrix, topDown } from './reconcile';
export { LEVEL_METHODS, reconcileLevel, type LevelMethod, type LevelNode } from './reconcile-level';
export {
  PER_LEVEL,
  TIE_MARGIN,
  chooseLevelMethods,
  reconcileBusinessUnit,
  type BusinessUnitTree,
  type HierarchyNode,
  type LevelChoice,
  type ReconcileRule,
  type VarianceSource,
} from './reconcile-business-unit';
export { planRunHierarchy, reconcileRunHierarchy, type RunHierarchy, type RunProduct } from './run-hierarchy';
export { chunkBySubtree, type Subtree } from './subtree-chunks';
export { QUANTILE_LEVELS, pinballLoss, type QuantilePath } from './quantiles';
export {
  RECONCILIATION_LEVELS,
  RECONCILIATION_METHODS,
  evaluateReconciliation,
  levelMeanMase,
  reconciliationRuleLines,
  type LevelScore,
  type ReconciliationMethod,
  type SavedReconciliationScores,
} from './hierarchy-evaluation';
export {
  DEFAULT_GLOBAL_MEMBER,
  parseGlobalModels,
  serializeGlobalModels,
  type ExternalMember,
  type GlobalMemberTuning,
  type GlobalModels,
  type SerializedGlobalModels,
} from './global/global-member';
