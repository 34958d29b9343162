import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { afterFirstScreenSettled } from '@/lib/first-screen';
import type { GridRequest } from '../utils/grid-query';
import { READ_AHEAD_SETTLE_MS, gridPageQueryKey, prefetchGridPage } from './useGridPage';

/**
 * How long a control must stay hovered or focused before its view is read ahead: the pointer
 * passing over a list of options on its way to another one reads none of them.
 */
export const PREVIEW_DELAY_MS = 80;

/**
 * Reads the view a control would open (an option, a sort header, a pager button the planner
 * hovers or focuses) into the cache, so the click finds its rows there. Only the last control
 * hovered is read, after a short pause on it; null forgets a pending one.
 */
export function useGridPreview(): (request: GridRequest | null) => void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (request: GridRequest | null) => {
      clearTimeout(timer.current);
      if (request)
        timer.current = setTimeout(() => void prefetchGridPage(queryClient, request), PREVIEW_DELAY_MS);
    },
    [queryClient],
  );
}

/**
 * Once the page on screen has arrived, the first screen has settled (lib/first-screen.ts) and the
 * browser is idle, the views a planner is likely to open next are read one after another (never
 * several at once: the server answers the planner's own requests first). Only views not in the
 * cache at all: a view a save made stale is read when it is opened, not on every save.
 */
export function useIdlePrefetch(requests: readonly GridRequest[], isReady: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!isReady || requests.length === 0) return;
    let isCancelled = false;
    const run = async () => {
      for (const request of requests) {
        if (isCancelled) return;
        if (queryClient.getQueryData(gridPageQueryKey(request)) !== undefined) continue;
        await prefetchGridPage(queryClient, request);
      }
    };
    const cancel = afterFirstScreenSettled(() => void run(), READ_AHEAD_SETTLE_MS);
    return () => {
      isCancelled = true;
      cancel();
    };
  }, [requests, isReady, queryClient]);
}
