import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one query cache. Its own module so route loaders can fill it ahead of a page's code
 * (the planning page's first data starts with its download).
 * Spec §7: queries and mutations never retry, data never goes stale, no refetch on focus.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
