import type { GridPage } from '@ps/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { followRecordChanges } from '../api/live-updates.api';
import { isPageAffected } from '../utils/live-changes';
import { DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY } from './useDashboardData';
import { GRID_QUERY_PREFIX } from './useGridPage';

/** Several saves in a burst (a spread, an import's batches) become one refetch. */
const COALESCE_MS = 250;

/**
 * While the user setting realTimeUpdates is on, another planner's committed
 * write refetches the grid page on screen when it touches its rows (and the dashboard figures,
 * which total every record). Off: no stream is opened; dataRefreshInterval polling still applies.
 */
export function useLiveUpdates(page: GridPage | null, isSorted: boolean): void {
  const { realTimeUpdates } = useUserSettings().settings;
  const queryClient = useQueryClient();
  const shown = useRef({ page, isSorted });
  useEffect(() => {
    shown.current = { page, isSorted };
  }, [page, isSorted]);

  useEffect(() => {
    if (!realTimeUpdates) return;
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isGridStale = false;
    const refetchSoon = (isGridAffected: boolean) => {
      isGridStale ||= isGridAffected;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const keys = [DASHBOARD_METRICS_KEY, SUMMARY_STATS_KEY, ...(isGridStale ? [GRID_QUERY_PREFIX] : [])];
        isGridStale = false;
        for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
      }, COALESCE_MS);
    };
    void followRecordChanges(
      {
        onChange: (change) => refetchSoon(isPageAffected(shown.current.page, change, shown.current.isSorted)),
        onResync: () => refetchSoon(true),
      },
      stop.signal,
    );
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [realTimeUpdates, queryClient]);
}
