/** What the demand-planning feature offers the rest of the app; its other files are its own. */
export { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from './hooks/useDashboardData';
export { FILTER_OPTIONS_KEY } from './hooks/useFilterOptions';
export { GRID_QUERY_PREFIX } from './hooks/useGridPage';
export { prefetchPlanningData } from './prefetch-planning-data';
export { type GridRequest, filenameFromContentDisposition, gridQueryParams } from './utils/grid-query';
