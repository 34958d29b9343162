import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { fetchDashboardMetrics, fetchSummaryStats } from '../api/demand-planning.api';

/** Spec §7: the dashboard and summary calls retry up to 3 times, 1 s apart (unlike other queries). */
const DASHBOARD_RETRY = { retry: 3, retryDelay: 1_000 } as const;

export const DASHBOARD_METRICS_KEY = ['dashboard-metrics'] as const;
export const SUMMARY_STATS_KEY = ['summary-stats'] as const;

/** The dashboard figures reload every dataRefreshInterval seconds (user setting). */
const useRefetchInterval = (): number => Number(useUserSettings().settings.dataRefreshInterval) * 1000;

export const dashboardMetricsQuery = () =>
  queryOptions({
    queryKey: DASHBOARD_METRICS_KEY,
    queryFn: ({ signal }) => fetchDashboardMetrics(signal),
    ...DASHBOARD_RETRY,
  });

export const summaryStatsQuery = () =>
  queryOptions({
    queryKey: SUMMARY_STATS_KEY,
    queryFn: ({ signal }) => fetchSummaryStats(signal),
    ...DASHBOARD_RETRY,
  });

export function useDashboardMetrics() {
  return useQuery({ ...dashboardMetricsQuery(), refetchInterval: useRefetchInterval() });
}

export function useSummaryStats() {
  return useQuery({ ...summaryStatsQuery(), refetchInterval: useRefetchInterval() });
}

/** Refresh (spec §4 refresh-all): reload the dashboard figures with the grid. */
export function useRefreshDashboard(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.refetchQueries({ queryKey: DASHBOARD_METRICS_KEY }),
      queryClient.refetchQueries({ queryKey: SUMMARY_STATS_KEY }),
    ]);
  }, [queryClient]);
}

/** After a write: the dashboard's figures, which total every record, are read again. */
export function reloadDashboard(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: DASHBOARD_METRICS_KEY }),
    queryClient.invalidateQueries({ queryKey: SUMMARY_STATS_KEY }),
  ]);
}
