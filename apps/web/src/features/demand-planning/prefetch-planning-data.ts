import type { QueryClient } from '@tanstack/react-query';
import { hasLiveStoredSession, storedGroups } from '@/lib/auth/token-store';
import { readSettingsInEffect } from '@/lib/settings/settings-storage';
import { exchangeRatesQuery } from '@/lib/settings/useExchangeRates';
import { fetchGridPage } from './api/demand-planning.api';
import { dashboardMetricsQuery, summaryStatsQuery } from './hooks/useDashboardData';
import { filterOptionsQuery } from './hooks/useFilterOptions';
import { gridPageQueryKey } from './hooks/useGridPage';
import { firstGridRequest } from './utils/first-grid-request';
import { loadPolicyFor, loadWithRetries } from './utils/load-policy';
import { PREFERENCES_KEY } from './utils/preferences';

/**
 * Starts the planning page's first requests into the query cache as the navigation to it begins,
 * while its code downloads (so the first row shows as soon as it can); the page's queries then find
 * them under the same keys instead of asking once the page has rendered. The exchange rates (a
 * short read) and the grid page go first: an in-process database answers one statement at a time.
 *
 * Only with a live stored session of an admin (the page's route is admin-only; a
 * customer's first page has its own deadline rules): otherwise the page loads as it always did.
 */
export function prefetchPlanningData(queryClient: QueryClient, search: string): void {
  if (!hasLiveStoredSession() || !storedGroups().includes('admin')) return;
  const request = firstGridRequest({
    search,
    storedPreferences: localStorage.getItem(PREFERENCES_KEY),
    settings: readSettingsInEffect(localStorage, navigator.languages),
  });
  // The grid's money formatters follow the rates: in the cache before the grid's page (a short
  // read, asked for first), the grid is built once instead of again when the rates arrive.
  void queryClient.prefetchQuery(exchangeRatesQuery());
  if (request) {
    const policy = loadPolicyFor('admin');
    void queryClient.prefetchQuery({
      queryKey: gridPageQueryKey(request),
      queryFn: ({ signal }) =>
        loadWithRetries(
          () =>
            fetchGridPage(request, AbortSignal.any([signal, AbortSignal.timeout(policy.requestTimeoutMs)])),
          policy,
        ),
    });
  }
  void queryClient.prefetchQuery(filterOptionsQuery());
  void queryClient.prefetchQuery(dashboardMetricsQuery());
  void queryClient.prefetchQuery(summaryStatsQuery());
}
