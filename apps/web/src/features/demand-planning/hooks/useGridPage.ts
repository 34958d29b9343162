import type { GridPage } from '@ps/domain';
import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { afterFirstScreenSettled } from '@/lib/first-screen';
import { useUserSettings } from '@/lib/settings/useUserSettings';
import { fetchGridPage } from '../api/demand-planning.api';
import { reloadDashboard } from './useDashboardData';
import { useGridNotes } from './useGridNotes';
import { withSavedRows, type SavedRows } from '../utils/grid-cache';
import { gridQueryParams, nextPageRequest, type GridRequest } from '../utils/grid-query';
import {
  bannerForFailure,
  isTimeoutError,
  loadPolicyFor,
  loadWithRetries,
  type ClientContext,
  type LoadBanner,
} from '../utils/load-policy';

export const GRID_QUERY_PREFIX = ['demand-planning', 'grid'] as const;

/** The cache key of one grid page: equal requests share it (and a page fetched ahead of time). */
export const gridPageQueryKey = (request: GridRequest) =>
  [...GRID_QUERY_PREFIX, gridQueryParams(request).toString()] as const;

/** How long the first rows stay on screen alone before any page is read ahead. */
export const READ_AHEAD_SETTLE_MS = 1_000;

/** A page into the cache ahead of its use; nothing is asked for when a fresh copy is there already. */
export function prefetchGridPage(queryClient: QueryClient, request: GridRequest): Promise<void> {
  return queryClient.prefetchQuery({
    queryKey: gridPageQueryKey(request),
    queryFn: ({ signal }) => fetchGridPage(request, signal),
  });
}

/** Which overlay the grid shows (spec §2 overlays); see utils/load-policy.ts for the mapping. */
export type GridOverlay = 'initial' | 'loading' | 'empty' | null;

export type GridPageState = {
  /** The page on screen: the last one that arrived (kept while the next loads or after it failed). */
  page: GridPage | null;
  overlay: GridOverlay;
  isFetching: boolean;
  banner: LoadBanner | null;
  dismissBanner: () => void;
};

/**
 * Loads one page of the grid from the server, applying the spec's retry and timeout rules, and
 * reloads it every dataRefreshInterval seconds (user setting). The "Loading data..." overlay covers
 * the grid only when the page asked for changes or the planner pressed Refresh; a background
 * reload (interval, live update, after a save) keeps the rows usable and shows the footer note.
 */
export function useGridPage(
  request: GridRequest,
  clientContext: ClientContext,
  isRefreshing = false,
): GridPageState {
  const policy = loadPolicyFor(clientContext);
  const { dataRefreshInterval } = useUserSettings().settings;
  const [shown, setShown] = useState<GridPage | null>(null);
  /** The request `shown` answered (the one asked for may be loading still). */
  const [shownRequest, setShownRequest] = useState(request);
  const [isFirstPageOverdue, setFirstPageOverdue] = useState(false);
  const [dismissedError, setDismissedError] = useState<unknown>(null);
  const hasShownAPage = shown !== null;

  const query = useQuery({
    queryKey: gridPageQueryKey(request),
    placeholderData: keepPreviousData,
    refetchInterval: Number(dataRefreshInterval) * 1000,
    queryFn: ({ signal }) =>
      loadWithRetries(async (attempt) => {
        const isFirstTry = attempt === 0 && !hasShownAPage;
        const deadline =
          isFirstTry && policy.firstPageDeadlineMs ? policy.firstPageDeadlineMs : policy.requestTimeoutMs;
        try {
          return await fetchGridPage(request, AbortSignal.any([signal, AbortSignal.timeout(deadline)]));
        } catch (error) {
          // Customer context: the first page missed its 1 s; show an empty grid while the retry runs.
          if (isFirstTry && policy.firstPageDeadlineMs && isTimeoutError(error)) setFirstPageOverdue(true);
          throw error;
        }
      }, policy),
  });

  // Keep the last page that arrived, so a failed or slow request leaves the rows on screen.
  if (query.data && !query.isPlaceholderData && query.data !== shown) {
    setShown(query.data);
    setShownRequest(request);
  }
  const withNotes = useGridNotes(shown, shownRequest, GRID_QUERY_PREFIX);

  // The next page is fetched once this one is on screen (after the first screen has settled, and
  // when the browser is idle), so Next page shows it at once (a save marks it stale with every
  // page, and it is fetched again when opened).
  const queryClient = useQueryClient();
  const arrived = query.data && !query.isPlaceholderData ? query.data : null;
  useEffect(() => {
    const next = arrived && nextPageRequest(request, arrived.total);
    if (!next) return;
    return afterFirstScreenSettled(() => void prefetchGridPage(queryClient, next), READ_AHEAD_SETTLE_MS);
  }, [arrived, request, queryClient]);

  const dismissBanner = useCallback(() => setDismissedError(query.error), [query.error]);
  const failure = query.error && query.error !== dismissedError ? query.error : null;
  const rowsShown = shown?.rows.length ?? 0;

  let overlay: GridOverlay = null;
  if (!shown) {
    if (isFirstPageOverdue || query.isError) overlay = 'empty';
    else overlay = 'initial';
  } else if (query.isFetching && (query.isPlaceholderData || isRefreshing)) overlay = 'loading';
  else if (rowsShown === 0) overlay = 'empty';

  return {
    page: withNotes,
    overlay,
    isFetching: query.isFetching,
    banner: failure ? bannerForFailure(failure, rowsShown) : null,
    dismissBanner,
  };
}

/** Refresh (spec §4): drop every cached page and reload the one on screen. */
export function useRefreshGrid(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    queryClient.removeQueries({ queryKey: GRID_QUERY_PREFIX, type: 'inactive' });
    await queryClient.refetchQueries({ queryKey: GRID_QUERY_PREFIX, type: 'active' });
  }, [queryClient]);
}

/**
 * A save's answer put into the cached grid pages that show its rows (utils/grid-cache.ts), so the
 * new figures are on screen as soon as the save is confirmed instead of after the page is read
 * again. Every page is then marked stale without being read: one is read again when it is next
 * opened (a page the answer did not reach may hold figures the save changed, roll-ups of other
 * levels say), and the page on screen is brought up to date by the live update the save causes.
 */
export function applySavedRows(queryClient: QueryClient, saved: SavedRows): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: GRID_QUERY_PREFIX })) {
    const [, , params, ...rest] = query.queryKey;
    const page = query.state.data as GridPage | undefined;
    // Grid pages only: the time-phased view caches its own shape under the same prefix.
    if (!page || typeof params !== 'string' || rest.length > 0) continue;
    const next = withSavedRows(page, params, saved);
    if (next !== page) queryClient.setQueryData(query.queryKey, next);
  }
  void queryClient.invalidateQueries({ queryKey: GRID_QUERY_PREFIX, refetchType: 'none' });
}

/** After a write whose answer cannot be put in place: every grid page and the dashboard are read again. */
export function reloadAfterWrite(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: GRID_QUERY_PREFIX }),
    reloadDashboard(queryClient),
  ]);
}
